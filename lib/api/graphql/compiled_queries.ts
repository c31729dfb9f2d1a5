/**
 * Compiled execution of hot read-only queries (issue 26): a query document executed
 * {@link COMPILE_AFTER} times on one schema is compiled by graphql-jit into a function that
 * resolves exactly that selection, without graphql-js's per-field collection, argument coercion
 * and completion dispatch (~20 → ~2 µs for a small query, bench/serving_cpu_bench.ts). This is
 * the scheme of Mercurius's `jit` option: documents seen once never pay for compiling.
 *
 * What is compiled, and why only that:
 * - `query` operations only: mutations write (their resolvers are asynchronous and must see the
 *   request's abort signal) and subscriptions stream, which graphql-jit does not do;
 * - documents without directives: graphql-jit's `@skip`/`@include` on fragment spreads differs
 *   from graphql-js unless an experimental flag is set, and `@defer`/`@stream` it does not know;
 * - documents with a variable inside an argument literal of another type than JSON: graphql-jit
 *   evaluates literals at compile time, without the request's variables. A JSON literal with
 *   variables (`filter: { name: { eq: $k } }`, the usual filter) is compiled as a variable of its
 *   own, whose value each request computes as graphql-js does (`coerceInputLiteral` with the
 *   request's coerced variables);
 * - documents whose string literals hold graphql-jit's value markers (a code injection, see
 *   `JIT_MARKER`);
 * - only where the runtime allows code generation: edge runtimes (workerd) refuse
 *   `new Function`, and then every document stays on graphql-js.
 *
 * Callers keep graphql-js as the reference: a compiled run whose result carries errors is run
 * again by graphql-js (`execute.ts`), so error messages, paths and partial data are exactly its
 * own; only error-free results come from the compiled function. The cache holds one entry per
 * document (the parse cache of `document_cache.ts` bounds the documents) per schema, weakly.
 *
 * @module
 */
import {
  BREAK,
  coerceInputLiteral,
  type DocumentNode,
  type ExecutionResult,
  getNamedType,
  getOperationAST,
  getVariableValues,
  type GraphQLInputType,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  parseType,
  TypeInfo,
  type ValueNode,
  type VariableDefinitionNode,
  type VariableNode,
  visit,
  visitWithTypeInfo,
} from "graphql";

/** Executions of a document (per schema and operation name) before it is compiled. */
export const COMPILE_AFTER = 2;

/** A compiled query: `query` answers like `CompiledQuery.query`, or `undefined` (see below). */
export interface CompiledRun {
  /**
   * Runs the compiled query; `undefined` when the request's variables do not coerce (graphql-js
   * then answers, with its errors).
   */
  query(
    root: unknown,
    context: unknown,
    variables: Record<string, unknown>,
  ): ExecutionResult | Promise<ExecutionResult> | undefined;
}

interface Entry {
  /** Executions counted so far (stops counting once compiled or refused). */
  runs: number;
  /** The compiled query; `null` when the document cannot or may not be compiled. */
  compiled?: CompiledRun | null;
}

const entries = new WeakMap<DocumentNode, WeakMap<GraphQLSchema, Map<string, Entry>>>();
/** False once the runtime refused to generate code (then nothing is compiled again). */
let codeGeneration = true;

/** graphql-jit, once loaded (`loadQueryCompiler`). */
let jit: typeof import("graphql-jit") | undefined;
let loading: Promise<boolean> | undefined;

/**
 * Loads graphql-jit (once; true when it loaded). Loading it and what it imports (a JSON schema
 * compiler among them) takes ~100 ms, so it is not a static import: every process would pay that
 * at start, and most CLI commands never run a query. The first hot document starts the load and
 * runs on graphql-js until it is done; a server may call this at start instead.
 *
 * @example
 * ```ts ignore
 * await loadQueryCompiler(); // hot documents compile from now on
 * ```
 */
export function loadQueryCompiler(): Promise<boolean> {
  return loading ??= import("graphql-jit").then(
    (module) => {
      jit = module;
      return true;
    },
    () => {
      codeGeneration = false;
      return false;
    },
  );
}

/**
 * The compiled form of `document`'s operation on `schema`, once the document is hot; `undefined`
 * while it is not (yet), or when it is not of a compilable kind (see the module doc). Each call
 * counts as one execution. The schema's resolvers must be final (they are captured).
 *
 * @example
 * ```ts ignore
 * const compiled = compiledQueryFor(schema, document, null);
 * const result = (await compiled?.query(root, context, variables)) ?? await execute(...);
 * ```
 */
export function compiledQueryFor(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledRun | undefined {
  if (!codeGeneration) return undefined;
  let schemas = entries.get(document);
  if (!schemas) entries.set(document, schemas = new WeakMap());
  let operations = schemas.get(schema);
  if (!operations) schemas.set(schema, operations = new Map());
  const name = operationName ?? "";
  let entry = operations.get(name);
  if (!entry) operations.set(name, entry = { runs: 0 });
  if (entry.compiled !== undefined) return entry.compiled ?? undefined;
  if (++entry.runs <= COMPILE_AFTER) return undefined;
  if (jit === undefined) {
    void loadQueryCompiler(); // hot, but the compiler is not loaded yet: graphql-js meanwhile
    return undefined;
  }
  entry.compiled = compile(jit, schema, document, operationName);
  return entry.compiled ?? undefined;
}

function compile(
  { compileQuery, isCompiledQuery }: typeof import("graphql-jit"),
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledRun | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== "query" || unsafeToCompile(document)) return null;
  const hoisting = hoistVariableLiterals(schema, document, operation);
  if (hoisting === null) return null;
  let compiled;
  try {
    compiled = compileQuery(schema, hoisting.document, operationName ?? undefined, {
      // Errors of a compiled run are discarded (graphql-js runs again): no stacks to capture.
      disablingCapturingStackErrors: true,
    });
  } catch (e) {
    // workerd and other hosts without eval: EvalError. Anything else: this document only.
    if (e instanceof EvalError) codeGeneration = false;
    return null;
  }
  if (!isCompiledQuery(compiled)) return null;
  const query = compiled;
  const { hoisted } = hoisting;
  if (hoisted.length === 0) return query;
  const definitions = operation.variableDefinitions ?? [];
  return {
    query(root, context, variables) {
      const coerced = getVariableValues(schema, definitions, variables);
      if (!("variableValues" in coerced) || coerced.variableValues === undefined) return undefined;
      const all: Record<string, unknown> = { ...variables };
      for (const { name, literal, type } of hoisted) {
        const value = coerceInputLiteral(literal, type, coerced.variableValues);
        if (value === undefined) return undefined;
        all[name] = value;
      }
      return query.query(root, context, all);
    },
  };
}

/** An argument literal with variables, passed to the compiled query as a variable of its own. */
interface Hoisted {
  /** The variable's name in the rewritten document. */
  name: string;
  /** The literal, coerced per request. */
  literal: ValueNode;
  /** The argument's type. */
  type: GraphQLInputType;
}

const HOISTED_PREFIX = "__graphsvc_literal_";

/**
 * `document` with every JSON argument literal that holds variables replaced by a variable of its
 * own (defined on `operation`), and those literals; `null` when a literal with variables has
 * another type (graphql-jit would re-coerce a computed value of an input object type) or a
 * variable name could collide.
 */
function hoistVariableLiterals(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
): { document: DocumentNode; hoisted: Hoisted[] } | null {
  const json = schema.getType("JSON");
  const typeInfo = new TypeInfo(schema);
  const hoisted: Hoisted[] = [];
  const created = new Set<VariableNode>();
  let refused = false;
  const rewritten = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      [Kind.VARIABLE](node) {
        // The document's own variables must not look like ours (visited again once replaced).
        if (!node.name.value.startsWith(HOISTED_PREFIX) || created.has(node)) return;
        refused = true;
        return BREAK;
      },
      [Kind.ARGUMENT](node) {
        if (node.value.kind !== Kind.OBJECT && node.value.kind !== Kind.LIST) return;
        if (!containsVariable(node.value)) return;
        const argument = typeInfo.getArgument();
        if (!argument || json === undefined || getNamedType(argument.type) !== json) {
          refused = true;
          return BREAK;
        }
        const name = `${HOISTED_PREFIX}${hoisted.length}`;
        hoisted.push({ name, literal: node.value, type: argument.type });
        const variable: VariableNode = {
          kind: Kind.VARIABLE,
          name: { kind: Kind.NAME, value: name },
        };
        created.add(variable);
        return { ...node, value: variable };
      },
    }),
  );
  if (refused) return null;
  if (hoisted.length === 0) return { document, hoisted };
  const definitions: VariableDefinitionNode[] = hoisted.map(({ name, type }) => ({
    kind: Kind.VARIABLE_DEFINITION,
    variable: { kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } },
    type: parseType(String(type)),
  }));
  const index = document.definitions.indexOf(operation);
  return {
    document: {
      ...rewritten,
      definitions: rewritten.definitions.map((definition, i) =>
        i === index && definition.kind === Kind.OPERATION_DEFINITION
          ? {
            ...definition,
            variableDefinitions: [...(definition.variableDefinitions ?? []), ...definitions],
          }
          : definition
      ),
    },
    hoisted,
  };
}

/**
 * graphql-jit writes argument literals into the generated code as JSON, then turns the markers
 * it uses for NaN, ±Infinity and dates back into code by text replacement
 * (`"__MAGIC_DATE__<uuid>…"` → `new Date(…)`). The markers are constants of its source, so a
 * string literal that contains one would be turned into code: `{ zone(filter: { name: { eq:
 * "__MAGIC_DATE__…0)&&(anything)&&(0" } }) { name } }` runs `anything` when compiled (verified
 * on 0.8.9). Such documents are never compiled; nor, for the reasons in the module doc, are
 * documents with directives.
 */
const JIT_MARKER = "__MAGIC_";

function unsafeToCompile(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]() {
      found = true;
      return BREAK;
    },
    [Kind.STRING](node) {
      if (!node.value.includes(JIT_MARKER)) return;
      found = true;
      return BREAK;
    },
  });
  return found;
}

function containsVariable(node: ValueNode): boolean {
  if (node.kind === Kind.VARIABLE) return true;
  if (node.kind === Kind.LIST) return node.values.some(containsVariable);
  if (node.kind === Kind.OBJECT) return node.fields.some((f) => containsVariable(f.value));
  return false;
}
