/**
 * Where schemas come from (reference SV10–SV14, SV24): declarations in manifests (`schemas`,
 * `[[implements]]`, `[[schema]]`, per-asset `schema`) and the data directory's `schemas/` folder,
 * their locations (local path, HTTP(S) URL, Git URL with `#<path>`, `<module>:<path>`), and the
 * texts of those locations. Fetching what is not in memory goes through a {@link SchemaFetcher}
 * port (the Deno adapter lives in `lib/runtime/deno/schema_fetch.ts`).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { type Layer, layersInOrder, type SourceSet } from "../workspace/sources.ts";
import type { ModuleManifest } from "../workspace/manifest.ts";

/** A schema location outside the in-memory sources. */
export type RemoteSchemaLocation =
  | { kind: "http"; url: string }
  | { kind: "git"; url: string; path: string }
  | { kind: "file"; root: string; path: string };

/** Reads a remote schema's text; rejects with an Error whose message says why. */
export type SchemaFetcher = (location: RemoteSchemaLocation) => Promise<string>;

/** A resolved reference: a location (with a dedupe key) or a `schema_id`. */
export type SchemaRef =
  | { kind: "location"; key: string; layer: Layer; relPath?: string; remote?: RemoteSchemaLocation }
  | { kind: "id"; id: string }
  | { kind: "invalid"; reason: string };

/** One schema declaration (SV10). */
export interface SchemaDeclaration {
  /** `dir` (data-dir `schemas/`), `schemas`, `implements`, `schema` or `asset`. */
  kind: "dir" | "schemas" | "implements" | "schema" | "asset";
  /** The reference as written. */
  written: string;
  /** Resolved reference. */
  ref: SchemaRef;
  /** Declaring layer id. */
  module: string;
  /** Manifest (or schema file) shown in messages. */
  file: string;
  /** `[[implements]] version`. */
  version?: string;
  /** Types listed by `[[implements]]` / `[[schema]]`. */
  resources?: string[];
  /** Asset file of a per-asset override. */
  asset?: string;
  /** Resource type of a per-asset override. */
  assetType?: string;
}

const isObj = (v: JsonValue | undefined): v is Record<string, JsonValue> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out.join("/");
}

/**
 * Resolves a reference written in `layer`'s manifest (SV12).
 *
 * @example
 * ```ts
 * import { resolveSchemaRef } from "./sources.ts";
 * const layer = { id: "data", isDataDir: true, location: "/srv/data", files: new Map() };
 * console.log(resolveSchemaRef("./schemas/a.schema.json", layer, [layer]).kind); // "location"
 * console.log(resolveSchemaRef("edge-fleet", layer, [layer]).kind); // "id"
 * ```
 */
export function resolveSchemaRef(
  written: string,
  layer: Layer,
  layers: readonly Layer[],
): SchemaRef {
  const ref = written.trim();
  const git = /^(git\+)?([^#]+)#(.+)$/.exec(ref);
  if (/^git@/.test(ref) || (git && /^(git\+|[a-z][a-z0-9+.-]*:\/\/)/i.test(ref))) {
    if (!git) return { kind: "invalid", reason: `Git URL '${ref}' needs a '#<path>' suffix` };
    const url = git[2];
    const path = normalize(git[3]);
    if (!path) return { kind: "invalid", reason: `bad path in '${ref}'` };
    return {
      kind: "location",
      key: ref,
      layer,
      remote: { kind: "git", url, path },
    };
  }
  if (/^https?:\/\//i.test(ref)) {
    return { kind: "location", key: ref, layer, remote: { kind: "http", url: ref } };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) {
    return { kind: "invalid", reason: `unsupported schema URL '${ref}'` };
  }
  const dep = /^([\w.-]+):(.+)$/.exec(ref);
  let target = layer;
  let rel = ref;
  if (dep) {
    const other = layers.find((l) => l.id === dep[1]);
    if (!other) return { kind: "invalid", reason: `'${ref}' names unknown module '${dep[1]}'` };
    target = other;
    rel = dep[2];
  } else if (!ref.includes("/") && !/\.json$/i.test(ref)) {
    return { kind: "id", id: ref };
  }
  const relPath = normalize(rel);
  if (!relPath) return { kind: "invalid", reason: `'${ref}' leaves the module root` };
  return {
    kind: "location",
    key: `${target.id}:${relPath}`,
    layer: target,
    relPath,
    remote: target.files.has(relPath) ? undefined : {
      kind: "file",
      root: target.location,
      path: relPath,
    },
  };
}

/**
 * Every schema declaration of `sources`, in load order (SV24): data-directory `schemas/*.schema.json`
 * by name, then each layer's manifest (modules in load order, the data directory last), in
 * declaration order.
 *
 * @example
 * ```ts
 * import { schemaDeclarations } from "./sources.ts";
 * import { emptyManifest } from "../workspace/manifest.ts";
 * const files = new Map([["schemas/a.schema.json", "{}"]]);
 * const data = { id: "data", isDataDir: true, location: "memory:", files };
 * console.log(schemaDeclarations({ modules: [], data }, emptyManifest())[0].kind); // "dir"
 * ```
 */
export function schemaDeclarations(
  sources: SourceSet,
  manifest: ModuleManifest,
): SchemaDeclaration[] {
  const layers = layersInOrder(sources);
  const out: SchemaDeclaration[] = [];
  const data = sources.data;
  for (
    const p of [...data.files.keys()].filter((p) => /^schemas\/[^/]+\.schema\.json$/.test(p)).sort()
  ) {
    out.push({
      kind: "dir",
      written: p,
      ref: { kind: "location", key: `data:${p}`, layer: data, relPath: p },
      module: "data",
      file: p,
    });
  }
  for (const layer of layers) {
    const doc = manifest.raw.get(layer.id);
    if (!doc) continue;
    const file = layer.isDataDir ? "module.toml" : `${layer.id}/module.toml`;
    const decl = (
      kind: SchemaDeclaration["kind"],
      written: JsonValue | undefined,
      extra: Partial<SchemaDeclaration> = {},
    ) => {
      if (typeof written !== "string") return;
      out.push({
        kind,
        written,
        ref: resolveSchemaRef(written, layer, layers),
        module: layer.id,
        file,
        ...extra,
      });
    };
    if (Array.isArray(doc.schemas)) { for (const s of doc.schemas) decl("schemas", s); }
    const list = (v: JsonValue | undefined) =>
      Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
    for (const kind of ["implements", "schema"] as const) {
      const tables = doc[kind];
      for (const t of Array.isArray(tables) ? tables : isObj(tables) ? [tables] : []) {
        if (!isObj(t)) continue;
        decl(kind, t.schema, {
          version: typeof t.version === "string" ? t.version : undefined,
          resources: list(t.resources),
        });
      }
    }
    if (isObj(doc.assets)) {
      for (const [asset, spec] of Object.entries(doc.assets)) {
        if (!isObj(spec)) continue;
        const type = typeof spec.resource_type === "string"
          ? spec.resource_type
          : asset.replace(/^.*\//, "").replace(/\.csv$/i, "");
        decl("asset", spec.schema, { asset, assetType: type });
      }
    }
  }
  return out;
}

/** Text of a location, or why it could not be read. */
export type SchemaText = { text: string } | { error: string };

/**
 * Reads the text of every location declared (deduplicated by key): from the layer's files when
 * loaded, else through `fetcher`. Without a fetcher, HTTP(S) URLs use `fetch` and other
 * remote locations are errors.
 *
 * @example
 * ```ts
 * import { readSchemaTexts } from "./sources.ts";
 * const texts = await readSchemaTexts([]);
 * console.log(texts.size); // 0
 * ```
 */
export async function readSchemaTexts(
  declarations: readonly SchemaDeclaration[],
  fetcher?: SchemaFetcher,
): Promise<Map<string, SchemaText>> {
  const out = new Map<string, SchemaText>();
  for (const d of declarations) {
    const ref = d.ref;
    if (ref.kind !== "location" || out.has(ref.key)) continue;
    if (!ref.remote) {
      out.set(ref.key, { text: ref.layer.files.get(ref.relPath!) ?? "" });
      continue;
    }
    try {
      out.set(ref.key, { text: await (fetcher ?? defaultFetcher)(ref.remote) });
    } catch (e) {
      out.set(ref.key, { error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

async function defaultFetcher(location: RemoteSchemaLocation): Promise<string> {
  if (location.kind === "http") {
    const res = await fetch(location.url, { signal: AbortSignal.timeout(30_000) });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    return await res.text();
  }
  if (location.kind === "file") throw new Error(`file '${location.path}' not found in the module`);
  throw new Error("Git schema locations need the runtime's fetcher");
}
