/**
 * Module source specifications (reference MP7, MP10, MP14, MP17): the text of a `--module` value
 * or a `[dependencies]` entry parsed into a local path, a Git repository with an optional ref, or
 * an archive URL. Pure: nothing here touches the network or the file system.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";

/** A Git ref: a tag, a branch, a commit (`rev`), or `ref` (any of them, from `#<ref>`). */
export interface GitRef {
  /** How the name was given. */
  kind: "tag" | "branch" | "rev" | "ref";
  /** Tag, branch or commit. */
  name: string;
}

/** Where a module comes from. */
export type ModuleSource =
  | { kind: "path"; path: string }
  | { kind: "git"; url: string; ref?: GitRef }
  | { kind: "archive"; url: string; version?: string };

/** One `[dependencies]` entry. */
export interface DependencySpec {
  /** The dependency key (the module's id, MP7). */
  key: string;
  /** Where it comes from. */
  source: ModuleSource;
  /** `resource_aliases` (old type → new type, MP17). */
  resourceAliases: Record<string, string>;
}

/** A source or dependency that cannot be understood; a configuration error (exit 2). */
export class ModuleSourceError extends Error {
  /**
   * @param message what is wrong, naming the source
   * @param code machine-readable code, e.g. `invalid_source`, `unresolved_version`
   */
  constructor(message: string, readonly code = "invalid_source") {
    super(message);
    this.name = "ModuleSourceError";
  }
}

const URL_SCHEME = /^(https?|ssh|git|file):\/\//i;
const SCP_LIKE = /^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:/;

/** Whether `path` names an archive (`.zip`, `.tar.gz`, `.tgz`; query and fragment ignored). */
export function isArchivePath(path: string): boolean {
  const bare = path.replace(/[?#].*$/, "").toLowerCase();
  return bare.endsWith(".zip") || bare.endsWith(".tar.gz") || bare.endsWith(".tgz");
}

/** `zip` or `tar.gz` for an archive path (see {@link isArchivePath}). */
export function archiveFormat(path: string): "zip" | "tar.gz" {
  return path.replace(/[?#].*$/, "").toLowerCase().endsWith(".zip") ? "zip" : "tar.gz";
}

/** Whether `text` is a remote location (URL or `user@host:path`), not a local path. */
export function isRemote(text: string): boolean {
  return URL_SCHEME.test(text) || SCP_LIKE.test(text);
}

/**
 * Splits a ref off a Git location: `#<ref>` (any ref), else text after the last `:` that contains
 * no `/` (a tag, MP14). The colon of a scheme, a port or `user@host:` is never a ref separator.
 */
function splitRef(text: string): { url: string; ref?: GitRef } {
  const hash = text.lastIndexOf("#");
  if (hash >= 0) {
    const name = text.slice(hash + 1);
    if (name === "") throw new ModuleSourceError(`empty ref after '#' in '${text}'`);
    return { url: text.slice(0, hash), ref: { kind: "ref", name } };
  }
  const colon = text.lastIndexOf(":");
  const after = text.slice(colon + 1);
  const before = text.slice(0, colon);
  // The ref colon comes after the path started: a `/` before it, beyond `scheme://` or `host:`.
  const pathStart = URL_SCHEME.test(text)
    ? text.indexOf("/", text.indexOf("://") + 3)
    : SCP_LIKE.test(text)
    ? text.indexOf(":")
    : 0;
  if (pathStart >= 0 && colon > pathStart && after !== "" && !after.includes("/")) {
    return { url: before, ref: { kind: "tag", name: after } };
  }
  return { url: text };
}

/**
 * Parses a source string: a `--module` value or a string `[dependencies]` entry (MP10, MP14).
 * Remote locations ending in `.zip`/`.tar.gz`/`.tgz` are archives, other remote locations Git
 * repositories (`…:<tag>` or `…#<ref>`); anything else is a local path (a local bare repository
 * or archive file is recognised later, by whoever can look at the disk).
 *
 * @example
 * ```ts
 * import { parseModuleSource } from "./module_source.ts";
 * parseModuleSource("https://git.example.org/mods/net:v1.2.0");
 * // { kind: "git", url: "https://git.example.org/mods/net", ref: { kind: "tag", name: "v1.2.0" } }
 * ```
 */
export function parseModuleSource(text: string): ModuleSource {
  const t = text.trim();
  if (t === "") throw new ModuleSourceError("empty module source");
  if (isRemote(t)) {
    if (isArchivePath(t)) return { kind: "archive", url: t };
    const { url, ref } = splitRef(t);
    return ref ? { kind: "git", url, ref } : { kind: "git", url };
  }
  return { kind: "path", path: t };
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Keys of a table-form dependency. */
export const DEPENDENCY_KEYS = [
  "git",
  "tag",
  "branch",
  "rev",
  "url",
  "version",
  "path",
  "resource_aliases",
] as const;

/**
 * Parses one `[dependencies]` entry (MP14): a string, or a table with `git` (+ `tag`, `branch`
 * or `rev`), `url` (+ `version`) or `path`, each with optional `resource_aliases`. `{version}`
 * in an archive URL is substituted when the version is known.
 *
 * @example
 * ```ts
 * import { parseDependency } from "./module_source.ts";
 * parseDependency("net", { git: "https://x.org/m.git", tag: "v1" }, "module.toml").source;
 * // { kind: "git", url: "https://x.org/m.git", ref: { kind: "tag", name: "v1" } }
 * ```
 */
export function parseDependency(key: string, value: JsonValue, file: string): DependencySpec {
  const where = `dependency '${key}' in ${file}`;
  if (typeof value === "string") {
    return { key, source: parseModuleSource(value), resourceAliases: {} };
  }
  if (!isTable(value)) {
    throw new ModuleSourceError(`${where}: expected a string or a table`);
  }
  // Unknown keys are `unknown_key` warnings of the build (manifest_keys.ts, MP8).
  const str = (k: string): string | undefined => {
    const v = value[k];
    if (v === undefined) return undefined;
    if (typeof v !== "string" || v.trim() === "") {
      throw new ModuleSourceError(`${where}: '${k}' must be a non-empty string`);
    }
    return v.trim();
  };
  const aliases: Record<string, string> = {};
  if (value.resource_aliases !== undefined) {
    if (!isTable(value.resource_aliases)) {
      throw new ModuleSourceError(`${where}: 'resource_aliases' must be a table`);
    }
    for (const [from, to] of Object.entries(value.resource_aliases)) {
      if (typeof to !== "string") {
        throw new ModuleSourceError(`${where}: resource_aliases.${from} must be a string`);
      }
      aliases[from] = to;
    }
  }
  const kinds = ["git", "url", "path"].filter((k) => value[k] !== undefined);
  if (kinds.length !== 1) {
    throw new ModuleSourceError(`${where}: give exactly one of 'git', 'url' or 'path'`);
  }
  const refs = (["tag", "branch", "rev"] as const).filter((k) => value[k] !== undefined);
  if (refs.length > 1) {
    throw new ModuleSourceError(`${where}: give at most one of 'tag', 'branch' or 'rev'`);
  }
  let source: ModuleSource;
  if (kinds[0] === "path") {
    source = { kind: "path", path: str("path")! };
  } else if (kinds[0] === "git" || (refs.length > 0 && !isArchivePath(str("url")!))) {
    const url = str(kinds[0])!;
    const ref = refs[0];
    source = ref
      ? { kind: "git", url, ref: { kind: ref, name: str(ref)! } }
      : parseModuleSource(url).kind === "git"
      ? parseModuleSource(url)
      : { kind: "git", url };
  } else {
    const url = str("url")!;
    const version = str("version");
    if (isRemote(url) && !isArchivePath(url.replaceAll("{version}", "x"))) {
      source = parseModuleSource(url);
    } else {
      source = version === undefined
        ? { kind: "archive", url }
        : { kind: "archive", url: url.replaceAll("{version}", version), version };
    }
  }
  if (refs.length > 0 && source.kind !== "git") {
    throw new ModuleSourceError(`${where}: '${refs[0]}' only applies to Git sources`);
  }
  return { key, source, resourceAliases: aliases };
}

/**
 * Text identifying a source without its ref or version: two specs with the same text are
 * "the same source" (MP16).
 *
 * @example
 * ```ts
 * import { sourceLocation } from "./module_source.ts";
 * sourceLocation({ kind: "git", url: "https://x.org/m.git/", ref: { kind: "tag", name: "v1" } }); // "https://x.org/m.git"
 * ```
 */
export function sourceLocation(source: ModuleSource): string {
  switch (source.kind) {
    case "path":
      return source.path;
    case "git":
      return source.url.replace(/\/+$/, "");
    case "archive":
      return source.url;
  }
}

/** The requested version of a source (tag, branch, rev, archive version), `""` when none. */
export function requestedVersion(source: ModuleSource): string {
  if (source.kind === "git") return source.ref ? source.ref.name : "";
  if (source.kind === "archive") return source.version ?? "";
  return "";
}

/** Human-readable text of a source, as a user would have written it. */
export function describeSource(source: ModuleSource): string {
  if (source.kind === "git") return source.ref ? `${source.url}#${source.ref.name}` : source.url;
  if (source.kind === "archive") return source.url;
  return source.path;
}

/**
 * The slug of a module name (MP7): lower-case, runs of characters other than `a-z0-9` become
 * `-`, trimmed; `module` when nothing is left.
 *
 * @example
 * ```ts
 * import { moduleSlug } from "./module_source.ts";
 * moduleSlug("Network Hub"); // "network-hub"
 * ```
 */
export function moduleSlug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "module";
}

/** Ids no module may take: `runs` (AC13) and `data` (the data directory's layer). */
const RESERVED_IDS = new Set(["runs", "data"]);

/**
 * Assigns unique ids in load order (MP7): duplicates and reserved ids get `-2`, `-3`, ….
 *
 * @example
 * ```ts
 * import { uniqueIds } from "./module_source.ts";
 * uniqueIds(["net", "net", "runs"]); // ["net", "net-2", "runs-2"]
 * ```
 */
export function uniqueIds(wanted: readonly string[]): string[] {
  const used = new Set<string>();
  return wanted.map((w) => {
    let id = w;
    for (let n = 2; used.has(id) || RESERVED_IDS.has(id); n++) id = `${w}-${n}`;
    used.add(id);
    return id;
  });
}

/**
 * The module id of the data directory (MP7; actions under `/api/actions/<id>/<action>`, the
 * `module` of its contracts): the slug of its `module.toml` `[module].name`, like a module's
 * id; `data` when the data directory declares no name. An id taken by a module
 * (or the reserved `runs`) gets a `-2`, `-3`, … suffix.
 *
 * @example
 * ```ts
 * import { dataDirModuleId } from "./module_source.ts";
 * console.log(dataDirModuleId("Web Shop", [])); // "web-shop"
 * console.log(dataDirModuleId(undefined, [])); // "data"
 * console.log(dataDirModuleId("net", ["net"])); // "net-2"
 * ```
 */
export function dataDirModuleId(
  declaredName: string | undefined,
  moduleIds: readonly string[],
): string {
  const base = declaredName !== undefined && declaredName.trim() !== ""
    ? moduleSlug(declaredName)
    : "data";
  let id = base;
  for (let n = 2; id === "runs" || moduleIds.includes(id); n++) id = `${base}-${n}`;
  return id;
}
