/**
 * `std.parseYaml(str)`: a YAML 1.2 subset sufficient for configuration files — block mappings
 * and sequences, flow collections, plain / single- / double-quoted scalars, literal and folded
 * block scalars (with chomping indicators), comments and multi-document streams (several
 * documents yield an array, as in go-jsonnet). Scalars resolve with the YAML 1.2 core schema.
 * Anchors, aliases, tags and complex keys are rejected with an error.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { typeOf } from "./values.ts";

interface Line {
  indent: number;
  text: string; // without indentation
  no: number;
}

function fail(msg: string, no?: number): never {
  throw new StdError(`parseYaml: ${msg}${no !== undefined ? ` (line ${no + 1})` : ""}`);
}

/** Strips a trailing ` # comment` outside quotes. */
function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === "\\" && q === '"') i++;
      else if (c === q) q = null;
    } else if (c === '"' || c === "'") {
      if (i === 0 || /[\s[{,:]/.test(s[i - 1])) q = c;
    } else if (c === "#" && (i === 0 || /\s/.test(s[i - 1]))) return s.slice(0, i).trimEnd();
  }
  return s.trimEnd();
}

/** Resolves a plain scalar with the YAML 1.2 core schema. */
export function resolvePlain(s: string): JsonValue {
  if (/^(null|Null|NULL|~|)$/.test(s)) return null;
  if (/^(true|True|TRUE)$/.test(s)) return true;
  if (/^(false|False|FALSE)$/.test(s)) return false;
  if (/^[-+]?[0-9]+$/.test(s)) return Number(s);
  if (/^0o[0-7]+$/.test(s)) return parseInt(s.slice(2), 8);
  if (/^0x[0-9a-fA-F]+$/.test(s)) return parseInt(s.slice(2), 16);
  if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(s)) return Number(s);
  return s;
}

function unescapeDouble(body: string, no: number): string {
  const map: Record<string, string> = {
    "0": "\0",
    a: "\x07",
    b: "\b",
    t: "\t",
    "\t": "\t",
    n: "\n",
    v: "\v",
    f: "\f",
    r: "\r",
    e: "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "\\": "\\",
    N: "\x85",
    _: "\xa0",
  }; // deno-fmt-ignore
  return body.replace(/\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_, e: string) => {
    if (e.length > 1) return String.fromCodePoint(parseInt(e.slice(1), 16));
    if (!Object.hasOwn(map, e)) fail(`invalid escape \\${e}`, no);
    return map[e];
  });
}

/** Folds the line breaks of a multi-line flow scalar (single newline -> space). */
function foldFlow(s: string): string {
  return s.replace(
    /[ \t]*\n[ \t]*((?:\n[ \t]*)*)/g,
    (_, extra: string) => extra ? "\n".repeat(extra.split("\n").length - 1) : " ",
  );
}

/** Parser over flow-style text (`[..]`, `{..}`, quoted and plain scalars). */
class Flow {
  i = 0;
  constructor(readonly s: string, readonly no: number) {}

  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i])) this.i++;
  }

  value(inFlow: boolean): JsonValue {
    this.ws();
    const c = this.s[this.i];
    if (c === "[") return this.seq();
    if (c === "{") return this.map();
    if (c === '"' || c === "'") return this.quoted();
    if (c === "&" || c === "*" || c === "!") {
      fail("anchors, aliases and tags are not supported", this.no);
    }
    const stop = inFlow ? /[,\]}]/ : /$^/;
    let j = this.i;
    while (j < this.s.length && !stop.test(this.s[j])) {
      if (
        inFlow && this.s[j] === ":" && (j + 1 >= this.s.length || /[\s,\]}]/.test(this.s[j + 1]))
      ) break;
      j++;
    }
    const raw = foldFlow(this.s.slice(this.i, j).trim());
    this.i = j;
    return resolvePlain(raw);
  }

  quoted(): string {
    const q = this.s[this.i++];
    let out = "";
    for (;;) {
      if (this.i >= this.s.length) fail("unterminated quoted scalar", this.no);
      const c = this.s[this.i++];
      if (q === "'" && c === "'") {
        if (this.s[this.i] === "'") {
          out += "'";
          this.i++;
          continue;
        }
        return foldFlow(out);
      }
      if (q === '"' && c === "\\") {
        out += c + (this.s[this.i++] ?? "");
        continue;
      }
      if (q === '"' && c === '"') return unescapeDouble(foldFlow(out), this.no);
      out += c;
    }
  }

  seq(): JsonValue[] {
    this.i++;
    const out: JsonValue[] = [];
    for (;;) {
      this.ws();
      if (this.s[this.i] === "]") {
        this.i++;
        return out;
      }
      out.push(this.value(true));
      this.ws();
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "]") fail("expected , or ] in flow sequence", this.no);
    }
  }

  map(): JsonObject {
    this.i++;
    const out: JsonObject = {};
    for (;;) {
      this.ws();
      if (this.s[this.i] === "}") {
        this.i++;
        return out;
      }
      const k = this.value(true);
      this.ws();
      let v: JsonValue = null;
      if (this.s[this.i] === ":") {
        this.i++;
        v = this.value(true);
        this.ws();
      }
      setField(out, keyString(k, this.no), v);
      if (this.s[this.i] === ",") this.i++;
      else if (this.s[this.i] !== "}") fail("expected , or } in flow mapping", this.no);
    }
  }
}

/** Sets a field as an own data property (safe for keys such as `__proto__`). */
function setField(o: JsonObject, k: string, v: JsonValue): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function keyString(k: JsonValue, no: number): string {
  if (k === null) return "null";
  if (typeof k === "object") fail("complex mapping keys are not supported", no);
  return String(k);
}

/** Finds `key: ` at the start of a block line; returns [key, rest] or null. */
function splitKey(text: string, no: number): [string, string] | null {
  if (text[0] === '"' || text[0] === "'") {
    const f = new Flow(text, no);
    const k = f.quoted();
    const rest = text.slice(f.i).trimStart();
    if (rest[0] === ":" && (rest.length === 1 || /\s/.test(rest[1]))) {
      return [k, rest.slice(1).trim()];
    }
    return null;
  }
  const m = /^([^#\s[\]{},"'&*!|>%@`][^#]*?|[^\s#]):(?:\s+(.*))?$/.exec(text);
  if (!m || text.startsWith("- ") || text === "-") return null;
  return [keyString(resolvePlain(m[1].trim()), no), (m[2] ?? "").trim()];
}

/**
 * The reference's (rapidyaml's) report of `a: b:`, line and column of the character after the
 * second colon, with the line and a caret under that column.
 */
function twoColons(l: Line, rest: string): never {
  const line = " ".repeat(l.indent) + l.text;
  const col = l.indent + l.text.lastIndexOf(rest) + rest.search(/:(\s|$)/) + 2;
  const at = `${l.no + 1}:${col}: `;
  throw new StdError(
    `YAML error: ${at}ERROR: two colons on same line\n${at}${line}  (size=${line.length})\n` +
      `${" ".repeat(at.length + col - 1)}^  (cols ${col}-${col})\n`,
  );
}

class Block {
  pos = 0;
  constructor(readonly lines: Line[]) {}

  /** The next non-blank line (blank lines only matter inside block scalars). */
  peek(): Line | undefined {
    while (this.pos < this.lines.length && this.lines[this.pos].text === "") this.pos++;
    return this.lines[this.pos];
  }

  /** Parses the node whose lines are indented more than `parent`. */
  node(parent: number): JsonValue {
    const l = this.peek();
    if (!l || l.indent <= parent) return null;
    if (l.text === "-" || l.text.startsWith("- ")) return this.seq(l.indent);
    if (splitKey(l.text, l.no)) return this.map(l.indent);
    return this.scalarLines(parent);
  }

  /** A multi-line plain or flow value continuing over more-indented lines. */
  scalarLines(parent: number, first?: string, no?: number): JsonValue {
    const parts: string[] = first !== undefined ? [first] : [];
    let lineNo = no ?? this.peek()!.no;
    while (this.peek() && this.peek()!.indent > parent) {
      const l = this.lines[this.pos++];
      parts.push(l.text);
      lineNo = l.no;
    }
    const text = parts.join("\n");
    const f = new Flow(text, lineNo);
    const v = f.value(false);
    return v;
  }

  inline(rest: string, indent: number, no: number): JsonValue {
    if (rest === "") return this.node(indent);
    if (/^[|>]/.test(rest)) return this.blockScalar(rest, indent, no);
    return this.scalarLines(indent, rest, no);
  }

  blockScalar(header: string, indent: number, no: number): string {
    const m = /^([|>])([-+]?)([1-9]?)([-+]?)$/.exec(header);
    if (!m) fail(`invalid block scalar header ${header}`, no);
    const folded = m[1] === ">";
    const chomp = m[2] || m[4];
    const raw: Line[] = [];
    while (this.pos < this.lines.length) {
      const l = this.lines[this.pos];
      if (l.text !== "" && l.indent <= indent) break;
      raw.push(l);
      this.pos++;
    }
    const content = raw.filter((l) => l.text !== "");
    const base = m[3] ? indent + Number(m[3]) : content.length ? content[0].indent : indent + 1;
    const body = raw.map((l) => (l.text === "" ? "" : " ".repeat(l.indent - base) + l.text));
    let trailing = 0;
    while (body.length && body[body.length - 1] === "") {
      body.pop();
      trailing++;
    }
    let text: string;
    if (folded) {
      text = "";
      body.forEach((line, i) => {
        if (i === 0) text = line;
        else if (line === "" || line.startsWith(" ") || body[i - 1].startsWith(" ")) {
          text += "\n" + line;
        } else if (body[i - 1] === "") text += line;
        else text += " " + line;
      });
    } else text = body.join("\n");
    if (body.length === 0) return chomp === "+" ? "\n".repeat(trailing) : "";
    if (chomp === "-") return text;
    if (chomp === "+") return text + "\n" + "\n".repeat(trailing);
    return text + "\n";
  }

  seq(indent: number): JsonValue[] {
    const out: JsonValue[] = [];
    for (;;) {
      const l = this.peek();
      if (!l || l.indent !== indent || !(l.text === "-" || l.text.startsWith("- "))) break;
      const rest = l.text.slice(1).trimStart();
      if (rest === "") {
        this.pos++;
        out.push(this.node(indent));
      } else {
        // "- key: v" or "- - x" starts a nested node at the column after "- ".
        const col = indent + (l.text.length - rest.length);
        this.lines[this.pos] = { indent: col, text: rest, no: l.no };
        out.push(this.nested(col, indent));
      }
    }
    const l = this.peek();
    if (l && l.indent > indent) fail("bad indentation of a sequence entry", l.no);
    return out;
  }

  /** Parses a node starting on the current (rewritten) line at column `col`. */
  nested(col: number, parent: number): JsonValue {
    const l = this.peek()!;
    if (l.text === "-" || l.text.startsWith("- ")) return this.seq(col);
    if (splitKey(l.text, l.no)) return this.map(col);
    this.pos++;
    return this.inline(l.text, parent, l.no);
  }

  map(indent: number): JsonObject {
    const out: JsonObject = {};
    for (;;) {
      const l = this.peek();
      if (!l || l.indent !== indent) break;
      const kv = splitKey(l.text, l.no);
      if (!kv) fail(`expected a mapping entry, got ${JSON.stringify(l.text)}`, l.no);
      this.pos++;
      const [k, rest] = kv;
      // `a: b:` (or `a: b: c`): a plain value that itself reads as `key:` would open a second
      // mapping on the same line, which YAML forbids (the reference's rapidyaml says "two colons
      // on same line"); quoted and flow values may hold `: ` freely.
      if (rest !== "" && !/^["'[{|>]/.test(rest) && splitKey(rest, l.no)) twoColons(l, rest);
      if (Object.hasOwn(out, k)) fail(`duplicate key ${JSON.stringify(k)}`, l.no);
      if (rest === "" && this.peek()?.indent === indent && this.peek()!.text.startsWith("-")) {
        setField(out, k, this.seq(indent)); // "key:\n- a" (sequence at the key's column)
      } else setField(out, k, this.inline(rest, indent, l.no));
    }
    const l = this.peek();
    if (l && l.indent > indent) fail("bad indentation of a mapping entry", l.no);
    return out;
  }
}

function parseDocument(lines: Line[]): JsonValue {
  const b = new Block(lines);
  const v = b.node(-1);
  const rest = b.peek();
  if (rest) fail(`unexpected content ${JSON.stringify(rest.text)}`, rest.no);
  return v;
}

/** Parses YAML text; several documents yield an array of their values. */
export function parseYaml(input: JsonValue): JsonValue {
  if (typeof input !== "string") {
    throw new StdError(`Builtin function parseYaml expected (string) but got (${typeOf(input)})`);
  }
  const docs: Line[][] = [];
  let cur: Line[] = [];
  let started = false;
  input.replace(/\r\n?/g, "\n").split("\n").forEach((raw, no) => {
    if (/^---(\s|$)/.test(raw)) {
      if (started || cur.some((l) => l.text !== "")) docs.push(cur);
      cur = [];
      started = true;
      const rest = raw.slice(3).trim();
      if (rest) cur.push({ indent: 0, text: stripComment(rest), no });
      return;
    }
    if (/^\.\.\.(\s|$)/.test(raw)) return;
    if (/^%/.test(raw) && !started) return;
    if (/^\s*\t/.test(raw) && raw.trim() !== "") fail("tabs are not allowed for indentation", no);
    const indent = raw.length - raw.trimStart().length;
    const text = stripComment(raw.trimStart());
    if (text === "" && raw.trim().startsWith("#")) return;
    cur.push({ indent, text, no });
  });
  docs.push(cur);
  const values = docs.map((d) => {
    while (d.length && d[d.length - 1].text === "") d.pop();
    while (d.length && d[0].text === "") d.shift();
    return parseDocument(d);
  });
  return values.length === 1 ? values[0] : values;
}
