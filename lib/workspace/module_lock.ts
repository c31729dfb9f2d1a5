/**
 * `module.lock` (reference MP18–MP19): every resolved dependency of a module tree pinned to an
 * exact Git commit or archive checksum. TOML, `version = 1` and one `[[module]]` table per entry.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { parseTomlDocument } from "./manifest.ts";

/** One pinned dependency. */
export interface LockEntry {
  /** Dependency key as declared in `[dependencies]`; a `--module` source: its location. */
  key: string;
  /** Source location without ref (Git URL, archive URL or path as declared). */
  source: string;
  /** What `module.toml` asked for: tag, branch, rev or archive version (`""`: default). */
  requested: string;
  /** Git commit (40 hex), archive checksum, or the resolved path of a local module. */
  resolved: string;
  /** `git`, `archive` or `path`. */
  kind: "git" | "archive" | "path";
  /** Archives: `sha256-<hex>` of the archive bytes. */
  checksum?: string;
}

/** File name of the lock, beside `module.toml`. */
export const LOCK_FILE = "module.lock";

const KINDS = ["git", "archive", "path"];

/**
 * Parses the text of a `module.lock`. Throws {@link ParseError} (code `lock_invalid`) naming the
 * file and the entry when something is missing or malformed.
 *
 * @example
 * ```ts
 * import { parseLock } from "./module_lock.ts";
 * const e = parseLock('version = 1\n[[module]]\nkey = "net"\nsource = "https://x/net"\n' +
 *   'requested = "v1"\nresolved = "' + "a".repeat(40) + '"\nkind = "git"\n', "module.lock");
 * console.log(e[0].key); // "net"
 * ```
 */
export function parseLock(text: string, file: string): LockEntry[] {
  const doc = parseTomlDocument(text, file);
  const fail = (reason: string) => {
    throw new ParseError(reason, file, undefined, undefined, "lock_invalid");
  };
  if (doc.version !== undefined && doc.version !== 1) {
    fail(`unsupported lock version ${JSON.stringify(doc.version)} (expected 1)`);
  }
  const modules: JsonValue = doc.module ?? [];
  if (!Array.isArray(modules)) fail("'module' must be an array of tables ([[module]])");
  const out: LockEntry[] = [];
  (modules as JsonValue[]).forEach((m, i) => {
    if (typeof m !== "object" || m === null || Array.isArray(m)) {
      fail(`entry ${i + 1} is not a table`);
    }
    const t = m as Record<string, JsonValue>;
    const str = (k: string, required: boolean): string | undefined => {
      const v = t[k];
      if (v === undefined && !required) return undefined;
      if (typeof v !== "string") fail(`entry ${i + 1}: '${k}' must be a string`);
      return v as string;
    };
    const kind = str("kind", true)!;
    if (!KINDS.includes(kind)) fail(`entry ${i + 1}: kind '${kind}' is not git, archive or path`);
    const entry: LockEntry = {
      key: str("key", true)!,
      source: str("source", true)!,
      requested: str("requested", false) ?? "",
      resolved: str("resolved", true)!,
      kind: kind as LockEntry["kind"],
    };
    const checksum = str("checksum", false);
    if (checksum !== undefined) entry.checksum = checksum;
    out.push(entry);
  });
  return out;
}

/** A TOML basic string (JSON's escapes are valid TOML escapes). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

/**
 * Formats entries as `module.lock` text, sorted by key then source, so that the file only
 * changes when a pin changes.
 *
 * @example
 * ```ts
 * import { formatLock } from "./module_lock.ts";
 * formatLock([]); // "version = 1\n"
 * ```
 */
export function formatLock(entries: readonly LockEntry[]): string {
  const sorted = [...entries].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.source < b.source ? -1 : a.source > b.source ? 1 : 0
  );
  let out = "version = 1\n";
  for (const e of sorted) {
    out += `\n[[module]]\nkey = ${tomlString(e.key)}\nsource = ${tomlString(e.source)}\n` +
      `requested = ${tomlString(e.requested)}\nresolved = ${tomlString(e.resolved)}\n` +
      `kind = ${tomlString(e.kind)}\n`;
    if (e.checksum !== undefined) out += `checksum = ${tomlString(e.checksum)}\n`;
  }
  return out;
}

/**
 * The pin of dependency `key` from `source` asking for `requested`, if the lock has one. An
 * entry whose `requested` differs is stale (module.toml changed): not a pin (MP19).
 */
export function findPin(
  entries: readonly LockEntry[],
  key: string,
  source: string,
  requested: string,
): LockEntry | undefined {
  return entries.find((e) => e.key === key && e.source === source && e.requested === requested);
}
