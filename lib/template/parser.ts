/**
 * Template structure of the Tera dialect: text, `{{ }}`, `{% %}` tags, `{# #}` comments and
 * `raw` blocks. Which tags are allowed depends on where they appear, as in Tera: `break` and
 * `continue` only inside `for`, macro definitions only at the top level, etc.
 * @module
 */

import type { Expr, FnCall, Node, WS } from "./ast.ts";
import { mkExpr } from "./ast.ts";
import { Cursor, FAIL, type R } from "./lexer.ts";
import { ExprParser } from "./parser_expr.ts";
import { SyntaxFailure } from "./errors.ts";
import { removeWhitespace } from "./whitespace.ts";

/** Where a body appears; decides which tags are allowed. */
type Ctx = "content" | "for" | "macro" | "block" | "filter";

/** Keywords closing a body. */
const ENDERS = new Set(["elif", "else", "endif", "endfor", "endmacro", "endblock", "endfilter"]);

/** Parses a template into nodes (whitespace control already applied). */
export function parseTemplate(src: string): Node[] {
  const p = new TemplateParser(src);
  const nodes = removeWhitespace(p.parseTop(), null);
  checkTreeDepth(nodes);
  return nodes;
}

/**
 * Deepest syntax tree (counted in objects, arrays and maps) the compiler and renderer, which
 * recurse over it, are given. The parser bounds nesting (`MAX_NESTING` in lexer.ts); this also
 * bounds operator chains, which it builds as left-deep trees (`1 + 1 + …` 10 000 times, issue
 * 16).
 */
export const MAX_TREE_DEPTH = 1200;

/** Throws a located SyntaxFailure when the tree is deeper than {@link MAX_TREE_DEPTH}. */
function checkTreeDepth(nodes: Node[]): void {
  const stack: [unknown, number, number][] = [[nodes, 1, 0]];
  while (stack.length > 0) {
    const [v, depth, at] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    const here = typeof (v as { pos?: unknown }).pos === "number" ? (v as { pos: number }).pos : at;
    if (depth > MAX_TREE_DEPTH) {
      throw new SyntaxFailure(
        `expression or block nested too deeply (more than ${MAX_TREE_DEPTH} levels, operator chains included)`,
        here,
      );
    }
    const children = v instanceof Map ? v.values() : Array.isArray(v) ? v : Object.values(v);
    for (const child of children) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1, here]);
    }
  }
}

class TemplateParser {
  readonly c: Cursor;
  readonly e: ExprParser;

  constructor(src: string) {
    this.c = new Cursor(src);
    this.e = new ExprParser(this.c);
  }

  fail(): never {
    throw this.c.failure();
  }

  parseTop(): Node[] {
    const c = this.c;
    // leading comments are dropped entirely (Tera: `SOI ~ comment_tag* ~ ...`)
    for (;;) {
      const save = c.pos;
      if (this.comment() === FAIL) {
        c.pos = save;
        break;
      }
    }
    const nodes = this.body("content");
    if (c.pos < c.src.length) {
      c.expect("some content");
      this.fail();
    }
    return nodes;
  }

  /** Parses `content*` for a context; stops before a closing tag or at the end. */
  body(ctx: Ctx): Node[] {
    return this.c.nested(() => this.bodyInner(ctx));
  }

  private bodyInner(ctx: Ctx): Node[] {
    const c = this.c;
    const nodes: Node[] = [];
    const src = c.src;
    while (c.pos < src.length) {
      const ch = src.charCodeAt(c.pos);
      const next = src.charCodeAt(c.pos + 1);
      if (ch === 123 && (next === 123 || next === 37 || next === 35)) {
        if (next === 35) {
          const save = c.pos;
          const n = this.comment();
          if (n === FAIL) {
            c.pos = save;
            this.fail();
          }
          nodes.push(n);
          continue;
        }
        if (next === 123) {
          nodes.push(this.variableTag(ctx));
          continue;
        }
        const kw = this.peekKeyword();
        if (ENDERS.has(kw)) return nodes;
        nodes.push(this.tag(kw, ctx));
        continue;
      }
      // text: everything up to the next `{{`, `{%` or `{#`
      let end = c.pos;
      for (;;) {
        end = src.indexOf("{", end);
        if (end < 0) {
          end = src.length;
          break;
        }
        const n2 = src.charCodeAt(end + 1);
        if (n2 === 123 || n2 === 37 || n2 === 35) break;
        end++;
      }
      nodes.push({ t: "text", s: src.slice(c.pos, end) });
      c.pos = end;
    }
    return nodes;
  }

  /** The keyword after `{%`/`{%-` and whitespace, without consuming anything. */
  private peekKeyword(): string {
    const c = this.c;
    const save = c.pos;
    this.tagStart();
    c.ws();
    let p = c.pos;
    while (p < c.src.length && /[a-z_]/.test(c.src[p])) p++;
    const kw = c.src.slice(c.pos, p);
    c.pos = save;
    return kw;
  }

  private tagStart(): boolean {
    const c = this.c;
    if (c.startsWith("{%-")) {
      c.pos += 3;
      return true;
    }
    c.pos += 2;
    return false;
  }

  private tagEnd(): R<boolean> {
    const c = this.c;
    if (c.startsWith("-%}")) {
      c.pos += 3;
      return true;
    }
    if (c.startsWith("%}")) {
      c.pos += 2;
      return false;
    }
    c.expect("`%}` or `-%}`");
    return FAIL;
  }

  /** `{% kw %}` with no arguments (else, endif, break...): `!{ tag_start ~ kw ~ tag_end }`. */
  simpleTag(kw: string, allowIdent = false): WS {
    const c = this.c;
    const left = this.tagStart();
    c.ws();
    if (!c.lit(kw)) this.fail();
    c.ws();
    if (allowIdent && c.ident() !== FAIL) c.ws();
    const right = this.tagEnd();
    if (right === FAIL) this.fail();
    return { left, right };
  }

  /** Opening of a keyword tag with mandatory whitespace after the keyword. */
  private open(kw: string): boolean {
    const c = this.c;
    const left = this.tagStart();
    c.ws();
    if (!c.lit(kw) || !c.ws1()) this.fail();
    return left;
  }

  private close(): boolean {
    this.c.ws();
    const r = this.tagEnd();
    if (r === FAIL) this.fail();
    return r;
  }

  private need<T>(r: R<T>): T {
    if (r === FAIL) this.fail();
    return r;
  }

  private expr(): Expr {
    const c = this.c;
    const save = c.pos;
    const l = this.e.logicExpr();
    if (l !== FAIL) return l;
    c.pos = save;
    return this.need(this.e.arrayFilter());
  }

  private tag(kw: string, ctx: Ctx): Node {
    const c = this.c;
    const pos = c.pos;
    switch (kw) {
      case "if":
        return this.ifNode(ctx);
      case "for":
        return this.forNode();
      case "set":
      case "set_global": {
        const left = this.open(kw);
        const key = this.need(c.ident());
        c.ws();
        if (!c.lit("=")) this.fail();
        c.ws();
        const value = this.expr();
        const right = this.close();
        return { t: "set", ws: { left, right }, key, value, global: kw === "set_global", pos };
      }
      case "raw":
        return this.rawNode();
      case "filter": {
        const left = this.open("filter");
        const filter = this.filterCall();
        const startRight = this.close();
        const body = this.body("filter");
        const end = this.endTag("endfilter");
        return { t: "filter", start: { left, right: startRight }, filter, body, end, pos };
      }
      case "break":
      case "continue": {
        if (ctx !== "for") break;
        const ws = this.simpleTag(kw);
        return kw === "break" ? { t: "break", ws, pos } : { t: "continue", ws, pos };
      }
      case "macro": {
        if (ctx !== "content") break;
        return this.macroNode();
      }
      case "block": {
        if (ctx !== "content" && ctx !== "block" && ctx !== "filter") break;
        const left = this.open("block");
        const name = this.need(c.ident());
        const startRight = this.close();
        const body = this.body("block");
        const end = this.endTag("endblock", true);
        return { t: "block", start: { left, right: startRight }, name, body, end };
      }
      case "include":
        return this.includeNode();
      case "extends":
      case "import":
        throw new SyntaxFailure(
          `\`${kw}\` is not supported: inline templates have no other templates to load`,
          pos,
        );
    }
    c.pos += 2;
    c.expect("tag");
    c.pos = pos;
    c.expect("some content");
    return this.fail();
  }

  private filterCall(): FnCall {
    const c = this.c;
    const save = c.pos;
    const f = this.e.fnCall();
    if (f !== FAIL) return f;
    c.pos = save;
    const name = this.need(c.ident());
    return { name, args: new Map(), pos: save };
  }

  private endTag(kw: string, allowIdent = false): WS {
    const c = this.c;
    if (c.pos >= c.src.length || this.peekKeyword() !== kw) {
      c.expect("`{% " + kw + " %}`");
      this.fail();
    }
    return this.simpleTag(kw, allowIdent);
  }

  private ifNode(ctx: Ctx): Node {
    const c = this.c;
    const conds: { ws: WS; expr: Expr; body: Node[] }[] = [];
    let kw = "if";
    for (;;) {
      const left = this.open(kw);
      const expr = this.need(this.e.logicExpr());
      const right = this.close();
      conds.push({ ws: { left, right }, expr, body: this.body(ctx) });
      if (c.pos >= c.src.length) {
        c.expect("an endif tag (`{% endif %}`)");
        this.fail();
      }
      kw = this.peekKeyword();
      if (kw !== "elif") break;
    }
    let otherwise: { ws: WS; body: Node[] } | null = null;
    if (kw === "else") {
      const ws = this.simpleTag("else");
      otherwise = { ws, body: this.body(ctx) };
    }
    const end = this.endTag("endif");
    return { t: "if", conds, otherwise, end };
  }

  private forNode(): Node {
    const c = this.c;
    const pos = c.pos;
    const left = this.open("for");
    const first = this.need(c.ident());
    let key: string | null = null;
    let value = first;
    if (c.peek() === 44) {
      c.pos++;
      c.ws();
      key = first;
      value = this.need(c.ident());
    }
    if (!c.ws1() || !c.lit("in") || !c.ws1()) this.fail();
    const save = c.pos;
    let container: R<Expr> = this.e.basicExprFilter();
    if (container === FAIL) {
      c.pos = save;
      container = this.need(this.e.arrayFilter());
    }
    const startRight = this.close();
    const body = this.body("for");
    let empty: Node[] | null = null;
    while (c.pos < c.src.length && this.peekKeyword() === "else") {
      this.simpleTag("else");
      empty = this.body("for");
    }
    const end = this.endTag("endfor");
    return {
      t: "for",
      start: { left, right: startRight },
      key,
      value,
      container,
      body,
      empty,
      end,
      pos,
    };
  }

  private macroNode(): Node {
    const c = this.c;
    const pos = c.pos;
    const left = this.open("macro");
    const name = this.need(c.ident());
    c.ws();
    if (!c.lit("(")) this.fail();
    c.ws();
    const params: { name: string; def: Expr | null }[] = [];
    const param = (): boolean => {
      const pname = c.ident();
      if (pname === FAIL) return false;
      let def: Expr | null = null;
      if (c.peek() === 61) {
        const save = c.pos;
        c.pos++;
        const lp = c.pos;
        def = this.macroDefault(lp);
        if (def === null) c.pos = save;
      }
      params.push({ name: pname, def });
      return true;
    };
    if (param()) {
      for (;;) {
        const save = c.pos;
        c.ws();
        if (!c.lit(",")) {
          c.pos = save;
          break;
        }
        c.ws();
        if (!param()) this.fail();
      }
    }
    c.ws();
    if (!c.lit(")")) this.fail();
    const startRight = this.close();
    const body = this.body("macro");
    const end = this.endTag("endmacro", true);
    return { t: "macro", start: { left, right: startRight }, name, params, body, end, pos };
  }

  /** A macro default: a literal only (boolean, string, float, int), no whitespace. */
  private macroDefault(pos: number): Expr | null {
    const c = this.c;
    for (const b of ["true", "false", "True", "False"]) {
      if (c.startsWith(b)) {
        c.pos += b.length;
        return mkExpr({ k: "bool", v: b === "true" || b === "True" }, pos);
      }
    }
    const s = c.string();
    if (s !== FAIL) return mkExpr({ k: "str", v: s }, pos);
    const f = c.float();
    if (f !== FAIL) return mkExpr({ k: "float", v: Number(f) }, pos);
    const i = c.int();
    if (i !== FAIL) return mkExpr({ k: "int", v: Number(i) }, pos);
    return null;
  }

  private includeNode(): Node {
    const c = this.c;
    const pos = c.pos;
    const left = this.open("include");
    const names: string[] = [];
    const s = c.string();
    if (s !== FAIL) names.push(s);
    else {
      if (!c.lit("[")) this.fail();
      for (;;) {
        c.ws();
        const n = c.string();
        if (n === FAIL) break;
        names.push(n);
        c.ws();
        if (!c.lit(",")) break;
      }
      c.ws();
      if (!c.lit("]")) this.fail();
    }
    c.ws();
    let ignoreMissing = false;
    if (c.startsWith("ignore")) {
      c.pos += 6;
      c.ws();
      if (!c.lit("missing")) this.fail();
      ignoreMissing = true;
    }
    const right = this.close();
    return { t: "include", ws: { left, right }, names, ignoreMissing, pos };
  }

  private rawNode(): Node {
    const c = this.c;
    const start = this.simpleTag("raw");
    const re = /\{%(-?)[ \t\r\n]*endraw[ \t\r\n]*(-?)%\}/g;
    re.lastIndex = c.pos;
    const m = re.exec(c.src);
    if (!m) {
      c.pos = c.src.length;
      c.expect("`{% endraw %}`");
      this.fail();
    }
    const s = c.src.slice(c.pos, m.index);
    c.pos = m.index + m[0].length;
    return { t: "raw", start, s, end: { left: m[1] === "-", right: m[2] === "-" } };
  }

  private variableTag(ctx: Ctx): Node {
    const c = this.c;
    const pos = c.pos;
    if (ctx === "block") {
      const m = /^\{\{-?[ \t\r\n]*super\(\)[ \t\r\n]*-?\}\}/.exec(c.src.slice(pos, pos + 64));
      if (m) {
        c.pos += m[0].length;
        return { t: "super", pos };
      }
    }
    let left = false;
    if (c.startsWith("{{-")) {
      left = true;
      c.pos += 3;
    } else c.pos += 2;
    c.ws();
    const expr = this.expr();
    c.ws();
    let right = false;
    if (c.startsWith("-}}")) {
      right = true;
      c.pos += 3;
    } else if (c.startsWith("}}")) c.pos += 2;
    else {
      c.expect("a variable end (`}}`)");
      this.fail();
    }
    return { t: "var", ws: { left, right }, expr, pos };
  }

  /** `comment_tag = ${ ("{#-" | "{#") (!comment_end ANY)+ ("-#}" | "#}") }` */
  private comment(): R<Node> {
    const c = this.c;
    if (!c.startsWith("{#")) return c.expect("a comment");
    const left = c.startsWith("{#-");
    const textStart = c.pos + (left ? 3 : 2);
    const close = c.src.indexOf("#}", textStart);
    if (close < 0) {
      c.pos = c.src.length;
      return c.expect("a comment end (`#}`)");
    }
    const right = close > textStart && c.src.charCodeAt(close - 1) === 45;
    const textEnd = right ? close - 1 : close;
    if (textEnd <= textStart) {
      c.pos = textStart;
      return c.expect("the content of a comment");
    }
    c.pos = close + 2;
    return { t: "comment", ws: { left, right } };
  }
}
