/**
 * Auto-CRUD GraphQL mutations (reference graphql.md G17–G20): for every asset type,
 * `Add<Pascal>(input)`, `Change<Pascal>(name, input)` and `Delete<Pascal>(name)`, each returning
 * `MutationResult { success, message, generation }`. Business failures (duplicate key, missing
 * row, invalid value, writes disabled or not authorised) are `success: false` with a message;
 * GraphQL `errors` stay reserved for malformed requests (G19).
 *
 * @module
 */
import {
  GraphQLBoolean,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  type GraphQLInputFieldConfig,
  GraphQLInputObjectType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLNullableInputType,
  GraphQLObjectType,
  GraphQLString,
} from "graphql";
import type { JsonValue } from "../../graph/graph.ts";
import type { AssetDeclaration } from "../../workspace/manifest.ts";
import { keyColumnIndex } from "../../pipeline/assets.ts";
import { WriteError } from "../../writes/errors.ts";
import type { RowWriteResult } from "../../writes/service.ts";
import { NameRegistry, sanitizeName } from "./naming.ts";
import type { GraphQLContext, MutationBuildContext } from "./schema.ts";

/** An asset type that gets mutations: its columns and declaration. */
export interface MutableAsset {
  /** Resource type. */
  readonly type: string;
  /** Columns of its file (header order), or the declared columns when the file is missing. */
  readonly columns: readonly string[];
  /** Manifest declaration, when any. */
  readonly declaration?: AssetDeclaration;
}

/** Performs the writes behind the mutations (the write service, or a refusal). */
export interface MutationWriter {
  /** Adds a row. */
  add(type: string, fields: Record<string, JsonValue>): Promise<RowWriteResult>;
  /** Merges fields into a row. */
  change(type: string, name: string, fields: Record<string, JsonValue>): Promise<RowWriteResult>;
  /** Deletes a row. */
  delete(type: string, name: string): Promise<RowWriteResult>;
}

/**
 * Per-request root value of the GraphQL endpoint: the mutations record the generation of every
 * write they made, so the response can name it in `Graphsvc-Generation`.
 */
export interface MutationRoot {
  /** Generations of the writes made by this request's mutations. */
  readonly generations: number[];
  /**
   * The writer of this request; overrides the one the schema was built with (schemas are shared
   * by snapshots, and by servers, of one shape).
   */
  readonly writer?: MutationWriter;
}

/** The request's writer (from the root value), else the schema's. */
function writerOf(root: unknown, fallback: MutationWriter): MutationWriter {
  return (root as Partial<MutationRoot> | undefined)?.writer ?? fallback;
}

/** The result object of every mutation. */
interface MutationResult {
  success: boolean;
  message: string | null;
  generation: number | null;
}

/**
 * `<Pascal>` of a type (G17): split on `_` and `-`, each part capitalised, joined
 * (`dns_zone` → `DnsZone`), then made a valid GraphQL name.
 *
 * @example
 * ```ts
 * import { pascalName } from "./mutations.ts";
 * pascalName("dns_zone"); // "DnsZone"
 * ```
 */
export function pascalName(type: string): string {
  const joined = type.split(/[_-]+/).filter((p) => p !== "")
    .map((p) => p[0].toUpperCase() + p.slice(1)).join("");
  return sanitizeName(joined === "" ? type : joined);
}

const LIST_OF_STRING = new GraphQLList(GraphQLString);
const LIST_OF_INT = new GraphQLList(GraphQLInt);

/** GraphQL input type of a declared column type (A13); undeclared columns are `String`. */
function columnInputType(declared: string | undefined): GraphQLNullableInputType {
  switch (declared) {
    case "integer":
      return GraphQLInt;
    case "number":
    case "float":
      return GraphQLFloat;
    case "boolean":
      return GraphQLBoolean;
    case "array_of_string":
      return LIST_OF_STRING;
    case "array_of_integer":
      return LIST_OF_INT;
    default:
      return GraphQLString;
  }
}

/**
 * Builds the `Mutation` fields for `assets`, performing writes through the request's
 * `MutationRoot.writer`, else `writer`.
 *
 * @example
 * ```ts ignore
 * buildGraphQLSchema(graph, { mutations: (ctx) => mutationFields(ctx, assets, writer) });
 * ```
 */
export function mutationFields(
  context: MutationBuildContext,
  assets: readonly MutableAsset[],
  writer: MutationWriter,
): GraphQLFieldConfigMap<unknown, GraphQLContext> {
  if (assets.length === 0) return {};
  const result = new GraphQLObjectType<MutationResult>({
    name: context.claimTypeName("MutationResult"),
    description: "Outcome of an auto-CRUD mutation. `generation` is the build that will " +
      "contain the change (wait for it with the Graphsvc-Min-Generation request header).",
    fields: {
      success: { type: new GraphQLNonNull(GraphQLBoolean) },
      message: { type: GraphQLString },
      generation: { type: GraphQLInt },
    },
  });
  const fields: GraphQLFieldConfigMap<unknown, GraphQLContext> = {};
  const names = new NameRegistry();
  for (const asset of assets) {
    const pascal = pascalName(asset.type);
    const columns = inputColumns(asset);
    const input = new GraphQLInputObjectType({
      name: context.claimTypeName(`${pascal}Input`),
      description: `A new \`${asset.type}\` row (columns of its asset file).`,
      fields: Object.fromEntries(columns.map((c): [string, GraphQLInputFieldConfig] => [c.field, {
        type: c.requiredOnAdd ? new GraphQLNonNull(c.type) : c.type,
        description: c.column !== c.field ? `column \`${c.column}\`` : undefined,
      }])),
    });
    const patch = new GraphQLInputObjectType({
      name: context.claimTypeName(`${pascal}PatchInput`),
      description: `Fields to change in a \`${asset.type}\` row; omitted fields keep their value.`,
      fields: Object.fromEntries(columns.map((c) => [c.field, { type: c.type }])),
    });
    const toRow = (given: Record<string, unknown>): Record<string, JsonValue> => {
      const out: Record<string, JsonValue> = {};
      for (const c of columns) {
        if (Object.hasOwn(given, c.field)) out[c.column] = given[c.field] as JsonValue;
      }
      return out;
    };
    const type = asset.type;
    const name = { type: new GraphQLNonNull(GraphQLString) };
    fields[names.claim(`Add${pascal}`)] = {
      type: new GraphQLNonNull(result),
      description: `Adds a \`${type}\` row; fails when its key exists.`,
      args: { input: { type: new GraphQLNonNull(input) } },
      resolve: (root, args: { input: Record<string, unknown> }) =>
        outcome(root, () => writerOf(root, writer).add(type, toRow(args.input))),
    };
    fields[names.claim(`Change${pascal}`)] = {
      type: new GraphQLNonNull(result),
      description: `Merges the given fields into the \`${type}\` row \`name\`.`,
      args: { name, input: { type: new GraphQLNonNull(patch) } },
      resolve: (root, args: { name: string; input: Record<string, unknown> }) =>
        outcome(root, () => writerOf(root, writer).change(type, args.name, toRow(args.input))),
    };
    fields[names.claim(`Delete${pascal}`)] = {
      type: new GraphQLNonNull(result),
      description: `Deletes the \`${type}\` row \`name\`.`,
      args: { name },
      resolve: (root, args: { name: string }) =>
        outcome(root, () => writerOf(root, writer).delete(type, args.name)),
    };
  }
  return fields;
}

interface InputColumn {
  column: string;
  field: string;
  type: GraphQLNullableInputType;
  requiredOnAdd: boolean;
}

/** Input fields (G18): declared columns, else the file's columns; key and required non-null. */
function inputColumns(asset: MutableAsset): InputColumn[] {
  const declared = asset.declaration?.columns;
  const columns = declared && declared.size > 0
    ? [...declared.keys(), ...asset.columns.filter((c) => !declared.has(c))]
    : [...asset.columns];
  const key = asset.declaration?.nameTemplate
    ? undefined
    : asset.columns.length > 0
    ? asset.columns[keyColumnIndex(asset.columns)]
    : undefined;
  const registry = new NameRegistry();
  return columns.map((column) => {
    const spec = declared?.get(column);
    return {
      column,
      field: registry.claim(sanitizeName(column)),
      type: columnInputType(spec?.type),
      requiredOnAdd: column === key || spec?.required === true,
    };
  });
}

async function outcome(
  root: unknown,
  write: () => Promise<RowWriteResult>,
): Promise<MutationResult> {
  try {
    const r = await write();
    (root as Partial<MutationRoot> | undefined)?.generations?.push(r.generation);
    return { success: true, message: r.message, generation: r.generation };
  } catch (e) {
    if (e instanceof WriteError) return { success: false, message: e.message, generation: null };
    throw e;
  }
}

/**
 * A writer that refuses every mutation with `message` (writes disabled, or not authorised).
 *
 * @example
 * ```ts
 * import { refusingWriter } from "./mutations.ts";
 * const writer = refusingWriter("asset writes disabled");
 * ```
 */
export function refusingWriter(message: string): MutationWriter {
  const refuse = () => Promise.reject(new WriteError("forbidden", message));
  return { add: refuse, change: refuse, delete: refuse };
}
