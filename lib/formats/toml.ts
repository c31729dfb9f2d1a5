/**
 * Rule-file parsing with source locations (reference M1, M2, O12; corpus "TOML quirks").
 *
 * Model, compliance and output files are TOML with a header (top-level keys) and rule blocks
 * (arrays of tables). Published modules put several `origin_resource =` lines in one file; each
 * starts a new **chunk** with its own header and rules (not valid as one TOML document, so the
 * file is split before parsing). smol-toml reports no value positions, so a light scanner builds
 * a line index of `[[block]]` headers and `key =` lines that messages can point at.
 *
 * TOML 1.1 multi-line inline tables and trailing commas are accepted by smol-toml itself.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import { ParseError } from "./errors.ts";

/** A line/column position (1-based). */
export interface TextPosition {
  /** 1-based line. */
  line: number;
  /** 1-based column. */
  column: number;
}

/** One `[[kind]]` block of a chunk. */
export interface RuleBlock {
  /** Block kind, e.g. `create_resource`. */
  readonly kind: string;
  /** 0-based position among the blocks of the same kind in the chunk. */
  readonly index: number;
  /** Position of the `[[kind]]` header. */
  readonly position: TextPosition;
  /** Parsed table. */
  readonly body: Record<string, JsonValue>;
  /**
   * Positions of keys inside the block: `name`, `properties` (a `[kind.properties]` header or an
   * inline key), `properties.owner` for keys of a sub-table.
   */
  readonly keys: ReadonlyMap<string, TextPosition>;
}

/** A header entry (top-level key other than `origin_resource`), in document order. */
export interface HeaderEntry {
  /** Key. */
  readonly key: string;
  /** Parsed TOML value. */
  readonly value: JsonValue;
  /** Position of the key. */
  readonly position?: TextPosition;
}

/** One chunk of a rule file: a header and the rule blocks that follow it. */
export interface RuleChunk {
  /** 1-based chunk number within the file. */
  readonly number: number;
  /** First line of the chunk. */
  readonly startLine: number;
  /** `origin_resource` type, when declared. */
  readonly originType?: string;
  /** Position of the `origin_resource` key. */
  readonly originPosition?: TextPosition;
  /** Header data in document order. */
  readonly header: readonly HeaderEntry[];
  /** Rule blocks in document order (all kinds interleaved). */
  readonly blocks: readonly RuleBlock[];
}

/** A parsed rule file. */
export interface RuleFile {
  /** Path shown in messages. */
  readonly file: string;
  /** Chunks in document order (at least one). */
  readonly chunks: readonly RuleChunk[];
}

/** Options of {@link parseRuleFile}. */
export interface RuleFileOptions {
  /** Names of the rule-block kinds allowed in this file (e.g. the four model blocks). */
  blockKinds: readonly string[];
  /** Single tables (`[name]`) accepted as blocks of their own (compliance `[control]`). */
  tableKinds?: readonly string[];
}

interface ScanEntry {
  kind: "key" | "array" | "table";
  path: string[];
  line: number;
  column: number;
}

/**
 * Parses a rule file into chunks. Throws {@link ParseError} (code `toml_syntax` for TOML errors,
 * `unknown_rule_block` for `[[x]]` of an unknown kind, `rule_block_shape` for a known block
 * written as a single table or a scalar).
 *
 * @example
 * ```ts
 * import { parseRuleFile } from "./toml.ts";
 * const f = parseRuleFile(
 *   'origin_resource = "a"\n[[create_resource]]\nname = "x"\norigin_resource = "b"\n',
 *   "models/m.toml",
 *   { blockKinds: ["create_resource"] },
 * );
 * console.log(f.chunks.length, f.chunks[1].originType); // 2 "b"
 * ```
 */
export function parseRuleFile(text: string, file: string, options: RuleFileOptions): RuleFile {
  const lines = text.split(/\r?\n/);
  const entries = scanToml(text);
  // Chunk boundaries: an `origin_resource` key at top level starts a new chunk unless the
  // current chunk has neither a table header nor an origin_resource yet (header data declared
  // before the first origin_resource line belongs to the first chunk).
  const starts: number[] = [1];
  let sawTable = false;
  let sawOrigin = false;
  for (const e of entries) {
    if (e.kind !== "key") {
      sawTable = true;
      continue;
    }
    if (e.path.length === 1 && e.path[0] === "origin_resource") {
      if (sawTable || sawOrigin) {
        starts.push(e.line);
        sawTable = false;
      }
      sawOrigin = true;
    }
  }
  // Each chunk parses its own lines only, and entries are consumed in order: linear in the file
  // (issue 16: blanking every other line per chunk took 75 s for 20 000 chunks).
  const chunks: RuleChunk[] = [];
  let next = 0;
  for (let c = 0; c < starts.length; c++) {
    const from = starts[c];
    const to = c + 1 < starts.length ? starts[c + 1] : lines.length + 1;
    const doc = parseChunk(lines.slice(from - 1, to - 1).join("\n"), from, file);
    const chunkEntries: ScanEntry[] = [];
    while (next < entries.length && entries[next].line < to) {
      if (entries[next].line >= from) chunkEntries.push(entries[next]);
      next++;
    }
    chunks.push(buildChunk(c + 1, from, doc, chunkEntries, file, options));
  }
  return { file, chunks };
}

/** Parses the text of a chunk starting at line `from`; error lines count from the file start. */
function parseChunk(text: string, from: number, file: string): Record<string, JsonValue> {
  try {
    return parseTomlDocument(text, file);
  } catch (e) {
    if (!(e instanceof ParseError) || e.line === undefined || from === 1) throw e;
    throw new ParseError(e.reason, e.file, e.line + from - 1, e.column, e.code);
  }
}

function buildChunk(
  number: number,
  startLine: number,
  doc: Record<string, JsonValue>,
  entries: ScanEntry[],
  file: string,
  options: RuleFileOptions,
): RuleChunk {
  const kinds = new Set(options.blockKinds);
  const tableKinds = new Set(options.tableKinds ?? []);
  const header: HeaderEntry[] = [];
  const blocks: RuleBlock[] = [];
  const seenHeader = new Set<string>();
  let originType: string | undefined;
  let originPosition: TextPosition | undefined;
  const counters = new Map<string, number>();
  let current: { kind: string; keys: Map<string, TextPosition>; prefix: string } | undefined;
  let topTable: string | undefined;
  for (const e of entries) {
    const pos = { line: e.line, column: e.column };
    if (e.kind === "array") {
      const kind = e.path[0];
      if (e.path.length === 1) {
        if (!kinds.has(kind)) {
          throw new ParseError(
            `unknown rule block [[${kind}]] (expected one of: ${options.blockKinds.join(", ")})`,
            file,
            e.line,
            e.column,
            "unknown_rule_block",
          );
        }
        const index = counters.get(kind) ?? 0;
        counters.set(kind, index + 1);
        const list = doc[kind];
        const body = Array.isArray(list) ? list[index] : undefined;
        if (!isTable(body)) {
          throw new ParseError(
            `[[${kind}]] must be a table`,
            file,
            e.line,
            e.column,
            "rule_block_shape",
          );
        }
        const keys = new Map<string, TextPosition>();
        blocks.push({ kind, index, position: pos, body, keys });
        current = { kind, keys, prefix: "" };
        topTable = undefined;
      } else if (current && kinds.has(kind)) {
        current = { ...current, prefix: e.path.slice(1).join(".") + "." };
        current.keys.set(e.path.slice(1).join("."), pos);
      }
      continue;
    }
    if (e.kind === "table") {
      const kind = e.path[0];
      if (e.path.length === 1 && tableKinds.has(kind)) {
        const body = doc[kind];
        if (!isTable(body)) continue;
        const keys = new Map<string, TextPosition>();
        blocks.push({ kind, index: 0, position: pos, body, keys });
        current = { kind, keys, prefix: "" };
        topTable = undefined;
      } else if (kinds.has(kind) && e.path.length === 1) {
        throw new ParseError(
          `[${kind}] must be an array of tables: write [[${kind}]]`,
          file,
          e.line,
          e.column,
          "rule_block_shape",
        );
      } else if (current && (kinds.has(kind) || tableKinds.has(kind)) && kind === current.kind) {
        const sub = e.path.slice(1).join(".");
        current = { ...current, prefix: sub + "." };
        current.keys.set(sub, pos);
      } else {
        // A plain `[table]` at top level is header data.
        current = undefined;
        topTable = kind;
        if (!seenHeader.has(kind)) {
          seenHeader.add(kind);
          header.push({ key: kind, value: doc[kind] ?? null, position: pos });
        }
      }
      continue;
    }
    // key
    if (current) {
      const key = current.prefix + e.path.join(".");
      if (!current.keys.has(key)) current.keys.set(key, pos);
      continue;
    }
    if (topTable !== undefined) continue;
    const key = e.path[0];
    if (key === "origin_resource") {
      const v = doc.origin_resource;
      if (typeof v !== "string") {
        throw new ParseError(
          "origin_resource must be a string (a resource type)",
          file,
          e.line,
          e.column,
          "rule_header",
        );
      }
      originType = v;
      originPosition = pos;
      continue;
    }
    if (!seenHeader.has(key)) {
      seenHeader.add(key);
      if (kinds.has(key) || tableKinds.has(key)) {
        throw new ParseError(
          `${key} must be written as [[${key}]] blocks`,
          file,
          e.line,
          e.column,
          "rule_block_shape",
        );
      }
      header.push({ key, value: doc[key] ?? null, position: pos });
    }
  }
  return { number, startLine, originType, originPosition, header, blocks };
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Scans TOML text for table headers and key lines at nesting depth 0 (values spanning several
 * lines, multi-line strings and comments are skipped). The scan is lenient: syntax errors are
 * left to the real parser.
 */
function scanToml(text: string): ScanEntry[] {
  const out: ScanEntry[] = [];
  const n = text.length;
  let i = 0;
  let line = 1;
  let lineStart = 0;
  let depth = 0;
  let atLineStart = true;
  const newline = () => {
    line++;
    lineStart = i + 1;
  };
  const skipString = () => {
    const q = text[i];
    const triple = text.startsWith(q + q + q, i);
    if (triple) {
      i += 3;
      while (i < n && !text.startsWith(q + q + q, i)) {
        if (q === '"' && text[i] === "\\") i++;
        if (text[i] === "\n") newline();
        i++;
      }
      i += 3;
      while (i < n && text[i] === q) i++; // up to two quotes may close the content
      return;
    }
    i++;
    while (i < n && text[i] !== q && text[i] !== "\n") {
      if (q === '"' && text[i] === "\\") i++;
      i++;
    }
    if (text[i] === q) i++;
  };
  while (i < n) {
    const ch = text[i];
    if (atLineStart && depth === 0) {
      if (ch === " " || ch === "\t" || ch === "\r") {
        i++;
        continue;
      }
      atLineStart = false;
      if (ch === "[") {
        const column = i - lineStart + 1;
        const isArray = text[i + 1] === "[";
        const end = text.indexOf("\n", i);
        const raw = text.slice(i, end < 0 ? n : end);
        const close = isArray ? raw.indexOf("]]") : raw.indexOf("]");
        const inner = raw.slice(isArray ? 2 : 1, close < 0 ? raw.length : close);
        out.push({ kind: isArray ? "array" : "table", path: splitKey(inner), line, column });
        i = end < 0 ? n : end;
        continue;
      }
      if (ch !== "#" && ch !== "\n") {
        const column = i - lineStart + 1;
        // read the key up to '=' (keys may be quoted)
        let j = i;
        let key = "";
        while (j < n && text[j] !== "=" && text[j] !== "\n") {
          if (text[j] === '"' || text[j] === "'") {
            const q = text[j];
            const k = text.indexOf(q, j + 1);
            if (k < 0) break;
            key += text.slice(j, k + 1);
            j = k + 1;
            continue;
          }
          key += text[j];
          j++;
        }
        if (text[j] === "=") {
          out.push({ kind: "key", path: splitKey(key), line, column });
          i = j + 1;
        }
        continue;
      }
    }
    if (ch === "\n") {
      newline();
      i++;
      if (depth === 0) atLineStart = true;
      continue;
    }
    if (ch === "#") {
      while (i < n && text[i] !== "\n") i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      skipString();
      continue;
    }
    if (ch === "[" || ch === "{") depth++;
    else if ((ch === "]" || ch === "}") && depth > 0) depth--;
    i++;
  }
  return out;
}

function splitKey(raw: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let i = 0;
  while (i < raw.length) {
    const c = raw[i];
    if (c === '"' || c === "'") {
      const k = raw.indexOf(c, i + 1);
      const end = k < 0 ? raw.length : k;
      cur += raw.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (c === ".") {
      parts.push(cur.trim());
      cur = "";
    } else cur += c;
    i++;
  }
  parts.push(cur.trim());
  return parts;
}
