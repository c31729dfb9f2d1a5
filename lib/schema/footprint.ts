/**
 * Static footprint of a workspace (reference SV15, SV31, SV34): the resource types its layers
 * create and the property keys and edge properties their rules write, read from the rule files
 * without running them. Template values are keys only; literal values of static
 * `relation_properties` maps are kept for the strict edge type check.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { filesIn, type SourceFile, type SourceSet } from "../workspace/sources.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";
import { parseRuleFile, type RuleBlock } from "../formats/toml.ts";
import { MODEL_BLOCK_KINDS } from "../pipeline/models/compile.ts";

/** A literal edge property value written by a rule (SV34). */
export interface StaticEdgeValue {
  /** Property key. */
  key: string;
  /** Literal value (never a template). */
  value: JsonValue;
  /** Rule file. */
  file: string;
  /** Layer id. */
  module: string;
}

/** What the rules of a workspace create, statically. */
export interface Footprint {
  /** Types created, with the layers creating them. */
  types: Map<string, Set<string>>;
  /** Property keys written per type (any phase). */
  keys: Map<string, Set<string>>;
  /** Edge property keys written per relation label. */
  edgeKeys: Map<string, Set<string>>;
  /** Literal edge values per relation label. */
  edgeValues: Map<string, StaticEdgeValue[]>;
}

type Obj = Record<string, JsonValue>;
const isObj = (v: JsonValue | undefined): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const isTemplate = (v: JsonValue) => typeof v === "string" && /\{\{|\{%/.test(v);
const typeName = (v: JsonValue | undefined) =>
  typeof v === "string" && v.trim() !== "" && !isTemplate(v) ? v.trim() : undefined;

function add(map: Map<string, Set<string>>, key: string, value: string): void {
  let s = map.get(key);
  if (!s) map.set(key, s = new Set());
  s.add(value);
}

/** Asset types of a build: CSV file stems or declared `resource_type` (A1, MP30). */
export interface AssetTypeInfo {
  /** Resource type. */
  type: string;
  /** Header columns. */
  header: readonly string[];
  /** Declared columns (manifest), when any. */
  declared?: Iterable<string>;
  /** Declaring layer (`data` for files of the data directory). */
  module?: string;
}

/**
 * Reads the footprint of `sources`. Rule files that do not parse are skipped (the build reports
 * them).
 *
 * @example
 * ```ts
 * import { staticFootprint } from "./footprint.ts";
 * import { emptyManifest } from "../workspace/manifest.ts";
 * const files = new Map([["models/m.toml",
 *   'origin_resource = "host"\n[[create_resource]]\nresource_type = "os"\nname = "x"\n' +
 *   '[create_resource.properties]\nfamily = "{{ origin_resource.os }}"\n']]);
 * const fp = staticFootprint({ modules: [], data: { id: "data", isDataDir: true,
 *   location: "memory:", files } }, emptyManifest(), []);
 * console.log([...fp.keys.get("os")!]); // ["name", "family"]
 * ```
 */
export function staticFootprint(
  sources: SourceSet,
  manifest: ModuleManifest,
  assets: readonly AssetTypeInfo[],
): Footprint {
  const fp: Footprint = {
    types: new Map(),
    keys: new Map(),
    edgeKeys: new Map(),
    edgeValues: new Map(),
  };
  for (const a of assets) {
    add(fp.types, a.type, a.module ?? "data");
    for (const h of a.header) add(fp.keys, a.type, h);
    for (const h of a.declared ?? []) add(fp.keys, a.type, h);
  }
  for (const decl of manifest.assets.values()) {
    const type = decl.resourceType ?? decl.file.replace(/^.*\//, "").replace(/\.csv$/i, "");
    add(fp.types, type, decl.layer);
    add(fp.keys, type, "name");
    for (const c of decl.columns.keys()) add(fp.keys, type, c);
  }
  for (const f of filesIn(sources, "models", [".toml"])) {
    forEachBlock(f, MODEL_BLOCK_KINDS, [], (block, origin) => modelBlock(fp, f, block, origin));
  }
  for (const f of filesIn(sources, "compliance", [".toml"])) {
    forEachBlock(f, ["control"], [], (block) => controlBlock(fp, f, block));
  }
  for (const f of filesIn(sources, "output", [".toml"])) {
    forEachBlock(f, ["output"], [], (block) => {
      const t = typeName(block.body.resource_type);
      if (t) add(fp.types, t, f.layer.id);
    });
  }
  return fp;
}

function forEachBlock(
  f: SourceFile,
  kinds: readonly string[],
  tables: readonly string[],
  visit: (block: RuleBlock, origin: string | undefined) => void,
): void {
  let parsed;
  try {
    parsed = parseRuleFile(f.text, f.displayPath, { blockKinds: kinds, tableKinds: tables });
  } catch {
    return;
  }
  for (const chunk of parsed.chunks) {
    for (const block of chunk.blocks) visit(block, chunk.originType);
  }
}

function copyTargets(list: JsonValue | undefined): string[] {
  if (!Array.isArray(list)) return [];
  const out: string[] = [];
  for (const e of list) {
    if (typeof e === "string") out.push(e.split(".").pop()!);
    else if (isObj(e)) {
      const as = e.as ?? e.to ?? e.from;
      if (typeof as === "string") out.push(as.split(".").pop()!);
    }
  }
  return out;
}

function edge(fp: Footprint, f: SourceFile, label: string, props: JsonValue | undefined): void {
  if (!fp.edgeKeys.has(label)) fp.edgeKeys.set(label, new Set());
  if (!isObj(props)) return;
  for (const [k, v] of Object.entries(props)) {
    add(fp.edgeKeys, label, k);
    if (isTemplate(v)) continue;
    let list = fp.edgeValues.get(label);
    if (!list) fp.edgeValues.set(label, list = []);
    list.push({ key: k, value: v, file: f.displayPath, module: f.layer.id });
  }
}

function modelBlock(fp: Footprint, f: SourceFile, block: RuleBlock, origin?: string): void {
  const b = block.body;
  switch (block.kind) {
    case "create_resource": {
      const from = isObj(b.create_from) ? b.create_from : undefined;
      const type = typeName(from?.as) ?? typeName(b.resource_type) ?? typeName(from?.property);
      if (!type) return;
      add(fp.types, type, f.layer.id);
      add(fp.keys, type, "name");
      if (isObj(b.properties)) { for (const k of Object.keys(b.properties)) add(fp.keys, type, k); }
      if (isObj(b.copy_from)) {
        for (const k of copyTargets(b.copy_from.properties)) add(fp.keys, type, k);
      }
      const label = typeName(b.relation_type);
      if (label) edge(fp, f, label, b.relation_properties);
      return;
    }
    case "link_resources": {
      if (origin) { for (const k of copyTargets(b.copy_properties)) add(fp.keys, origin, k); }
      const rel = b.create_relation;
      const label = isObj(rel) ? typeName(rel.type) : typeName(rel);
      if (label) edge(fp, f, label, isObj(rel) ? rel.properties : undefined);
      return;
    }
    case "copy_property": {
      const to = typeName(b.to) ?? origin;
      if (to) { for (const k of copyTargets(b.properties)) add(fp.keys, to, k); }
      return;
    }
  }
}

function controlBlock(fp: Footprint, f: SourceFile, block: RuleBlock): void {
  const targets = block.body.target;
  for (const t of Array.isArray(targets) ? targets : isObj(targets) ? [targets] : []) {
    if (!isObj(t)) continue;
    const rawOrigins = t.origin_resource_types ?? t.origin_resource_type;
    const origins = (Array.isArray(rawOrigins) ? rawOrigins : [rawOrigins])
      .map((o) => typeName(o)).filter((o): o is string => o !== undefined);
    const res = isObj(t.resource) ? t.resource : undefined;
    const type = typeName(res?.type);
    const props = res && isObj(res.properties) ? Object.keys(res.properties) : [];
    if (type) {
      add(fp.types, type, f.layer.id);
      add(fp.keys, type, "name");
      for (const k of props) add(fp.keys, type, k);
    } else for (const o of origins) for (const k of props) add(fp.keys, o, k);
    const rel = isObj(t.relation) ? t.relation : undefined;
    const label = typeName(rel?.type);
    if (label) edge(fp, f, label, rel?.properties);
  }
}
