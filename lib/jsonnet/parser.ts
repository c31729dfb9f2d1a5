/**
 * Recursive-descent Jsonnet parser producing the AST in ast.ts (light desugaring: method and
 * local-function sugar, implicit `+` for `a { ... }`, `.id` to indexing by a string literal).
 *
 * @module
 */
import {
  type AssertAst,
  type Bind,
  type CompSpec,
  type FieldAst,
  Hide,
  type Loc,
  type Node,
  type Param,
} from "./ast.ts";
import { JsonnetError } from "./errors.ts";
import { lex, type Token } from "./lexer.ts";

const BINARY_PREC: Record<string, number> = {
  "*": 5,
  "/": 5,
  "%": 5,
  "+": 6,
  "-": 6,
  "<<": 7,
  ">>": 7,
  "<": 8,
  "<=": 8,
  ">": 8,
  ">=": 8,
  "in": 8,
  "==": 9,
  "!=": 9,
  "&": 10,
  "^": 11,
  "|": 12,
  "&&": 13,
  "||": 14,
};
const MAX_PREC = 15;

function span(a: Loc, b: Loc): Loc {
  return { file: a.file, line: a.line, col: a.col, endLine: b.endLine, endCol: b.endCol };
}

/** Parses a whole Jsonnet program. Throws a static JsonnetError on syntax errors. */
export function parse(src: string, file: string): Node {
  return new Parser(lex(src, file)).program();
}

class Parser {
  private p = 0;
  private objDepth = 0;
  constructor(private readonly toks: Token[]) {}

  program(): Node {
    const e = this.expr();
    const t = this.peek();
    if (t.kind !== "eof") this.fail(t, `did not expect: ${describe(t)}`);
    return e;
  }

  private peek(o = 0): Token {
    return this.toks[Math.min(this.p + o, this.toks.length - 1)];
  }
  private next(): Token {
    const t = this.toks[this.p];
    if (this.p < this.toks.length - 1) this.p++;
    return t;
  }
  private prevLoc(): Loc {
    return this.toks[Math.max(0, this.p - 1)].loc;
  }
  private is(kind: Token["kind"], value?: string, o = 0): boolean {
    const t = this.peek(o);
    return t.kind === kind && (value === undefined || t.value === value);
  }
  private accept(kind: Token["kind"], value: string): boolean {
    if (this.is(kind, value)) {
      this.next();
      return true;
    }
    return false;
  }
  private expect(kind: Token["kind"], value?: string): Token {
    const t = this.peek();
    if (t.kind !== kind || (value !== undefined && t.value !== value)) {
      this.fail(t, `expected token ${value ?? kind} but got ${describe(t)}`);
    }
    return this.next();
  }
  private fail(t: Token, msg: string): never {
    throw new JsonnetError("STATIC ERROR", msg, t.loc);
  }
  private ident(): string {
    const t = this.peek();
    if (t.kind !== "id") this.fail(t, `Expected token IDENTIFIER but got ${describe(t)}`);
    return this.next().value;
  }

  expr(prec = MAX_PREC): Node {
    const t = this.peek();
    if (t.kind === "kw") {
      switch (t.value) {
        case "local":
          return this.local();
        case "if":
          return this.ifExpr();
        case "function": {
          this.next();
          this.expect("punc", "(");
          const params = this.params();
          const body = this.expr();
          return { k: "func", params, body, name: "anonymous", loc: span(t.loc, body.loc) };
        }
        case "assert": {
          this.next();
          const cond = this.expr();
          const msg = this.accept("op", ":") ? this.expr() : undefined;
          this.expect("punc", ";");
          const body = this.expr();
          return { k: "assert", cond, msg, body, loc: span(t.loc, body.loc) };
        }
        case "error": {
          this.next();
          const e = this.expr();
          return { k: "error", e, loc: span(t.loc, e.loc) };
        }
        case "import":
        case "importstr":
        case "importbin": {
          this.next();
          const s = this.peek();
          if (s.kind !== "str") this.fail(s, "computed imports are not allowed.");
          this.next();
          return { k: "import", kind: t.value, path: s.value, loc: span(t.loc, s.loc) };
        }
      }
    }
    let lhs = this.unary();
    while (true) {
      const op = this.peek();
      let name: string | undefined;
      if (op.kind === "op") name = op.value;
      else if (op.kind === "kw" && op.value === "in") name = "in";
      const pr = name !== undefined ? BINARY_PREC[name] : undefined;
      if (pr === undefined || pr >= prec) break;
      this.next();
      if (name === "in" && this.is("kw", "super")) {
        const s = this.next();
        lhs = { k: "insuper", key: lhs, loc: span(lhs.loc, s.loc) };
        if (this.objDepth === 0) this.fail(s, "Can't use super outside of an object.");
        continue;
      }
      const rhs = this.expr(pr);
      lhs = { k: "bin", op: name!, l: lhs, r: rhs, loc: span(lhs.loc, rhs.loc) };
    }
    return lhs;
  }

  private unary(): Node {
    const t = this.peek();
    if (
      t.kind === "op" && (t.value === "-" || t.value === "+" || t.value === "!" || t.value === "~")
    ) {
      this.next();
      const e = this.unary();
      return { k: "un", op: t.value, e, loc: span(t.loc, e.loc) };
    }
    if (t.kind === "kw" && ["local", "if", "function", "assert", "error"].includes(t.value)) {
      return this.expr();
    }
    return this.postfix(this.primary());
  }

  private postfix(e: Node): Node {
    while (true) {
      const t = this.peek();
      if (t.kind === "punc" && t.value === ".") {
        this.next();
        const id = this.peek();
        const name = this.ident();
        e = {
          k: "index",
          target: e,
          index: { k: "lit", v: name, loc: id.loc },
          loc: span(e.loc, id.loc),
        };
      } else if (t.kind === "punc" && t.value === "[") {
        this.next();
        e = this.indexOrSlice(e);
      } else if (t.kind === "punc" && t.value === "(") {
        this.next();
        const { args, named } = this.args();
        const tailstrict = this.accept("kw", "tailstrict");
        e = { k: "apply", fn: e, args, named, tailstrict, loc: span(e.loc, this.prevLoc()) };
      } else if (t.kind === "punc" && t.value === "{") {
        const o = this.primary();
        e = { k: "bin", op: "+", l: e, r: o, loc: span(e.loc, o.loc) };
      } else return e;
    }
  }

  private indexOrSlice(target: Node): Node {
    const parts: (Node | undefined)[] = [undefined];
    let colons = 0;
    while (!this.is("punc", "]")) {
      if (this.is("op", ":") || this.is("op", "::")) {
        const c = this.next().value.length;
        colons += c;
        if (colons > 2) this.fail(this.peek(), "Invalid slice");
        for (let k = 0; k < c; k++) parts.push(undefined);
        continue;
      }
      if (parts[parts.length - 1] !== undefined) {
        this.fail(this.peek(), `Expected token "]" but got ${describe(this.peek())}`);
      }
      parts[parts.length - 1] = this.expr();
    }
    const close = this.next();
    const loc = span(target.loc, close.loc);
    if (colons === 0) {
      if (!parts[0]) this.fail(close, "Expected an expression in index");
      return { k: "index", target, index: parts[0]!, loc };
    }
    return { k: "slice", target, start: parts[0], end: parts[1], step: parts[2], loc };
  }

  private args(): { args: Node[]; named: [string, Node][] } {
    const args: Node[] = [];
    const named: [string, Node][] = [];
    while (!this.is("punc", ")")) {
      if (this.is("id") && this.is("op", "=", 1)) {
        const name = this.next().value;
        this.next();
        named.push([name, this.expr()]);
      } else {
        if (named.length) {
          this.fail(this.peek(), "Positional argument after a named argument is not allowed");
        }
        args.push(this.expr());
      }
      if (!this.accept("punc", ",")) break;
    }
    this.expect("punc", ")");
    return { args, named };
  }

  private params(): Param[] {
    const ps: Param[] = [];
    while (!this.is("punc", ")")) {
      const name = this.ident();
      const def = this.accept("op", "=") ? this.expr() : undefined;
      ps.push({ name, def });
      if (!this.accept("punc", ",")) break;
    }
    this.expect("punc", ")");
    return ps;
  }

  private bind(): Bind {
    const t = this.peek();
    const name = this.ident();
    if (this.accept("punc", "(")) {
      const params = this.params();
      this.expect("op", "=");
      const body = this.expr();
      return {
        name,
        body: { k: "func", params, body, name, loc: span(t.loc, body.loc) },
        loc: span(t.loc, body.loc),
      };
    }
    this.expect("op", "=");
    const body = this.expr();
    if (body.k === "func" && body.name === "anonymous") body.name = name;
    return { name, body, loc: span(t.loc, body.loc) };
  }

  private local(): Node {
    const t = this.next();
    const binds = [this.bind()];
    while (this.accept("punc", ",")) binds.push(this.bind());
    this.expect("punc", ";");
    const body = this.expr();
    return { k: "local", binds, body, loc: span(t.loc, body.loc) };
  }

  private ifExpr(): Node {
    const t = this.next();
    const cond = this.expr();
    this.expect("kw", "then");
    const then = this.expr();
    if (this.accept("kw", "else")) {
      const els = this.expr();
      return { k: "if", cond, then, else: els, loc: span(t.loc, els.loc) };
    }
    return { k: "if", cond, then, loc: span(t.loc, then.loc) };
  }

  private primary(): Node {
    const t = this.next();
    switch (t.kind) {
      case "num":
        // A literal beyond the double range (`1e309`) is an error when evaluated, located at
        // the literal, as in the reference ("Overflow"); an unused one is harmless.
        if (!Number.isFinite(t.num!)) {
          return { k: "error", e: { k: "lit", v: "Overflow", loc: t.loc }, loc: t.loc };
        }
        return { k: "lit", v: t.num!, loc: t.loc };
      case "str":
        return { k: "lit", v: t.value, loc: t.loc };
      case "id":
        return { k: "var", name: t.value, loc: t.loc };
      case "kw":
        switch (t.value) {
          case "null":
            return { k: "lit", v: null, loc: t.loc };
          case "true":
            return { k: "lit", v: true, loc: t.loc };
          case "false":
            return { k: "lit", v: false, loc: t.loc };
          case "self":
            if (this.objDepth === 0) this.fail(t, "Can't use self outside of an object.");
            return { k: "self", loc: t.loc };
          case "$":
            if (this.objDepth === 0) this.fail(t, "No top-level object found.");
            return { k: "dollar", loc: t.loc };
          case "super": {
            if (this.objDepth === 0) this.fail(t, "Can't use super outside of an object.");
            if (this.accept("punc", ".")) {
              const id = this.peek();
              const name = this.ident();
              return {
                k: "superidx",
                index: { k: "lit", v: name, loc: id.loc },
                loc: span(t.loc, id.loc),
              };
            }
            this.expect("punc", "[");
            const index = this.expr();
            const close = this.expect("punc", "]");
            return { k: "superidx", index, loc: span(t.loc, close.loc) };
          }
        }
        break;
      case "punc":
        if (t.value === "(") {
          const e = this.expr();
          this.expect("punc", ")");
          return e;
        }
        if (t.value === "[") return this.array(t);
        if (t.value === "{") return this.object(t);
        break;
    }
    this.fail(t, `Unexpected: ${describe(t)}`);
  }

  private array(open: Token): Node {
    const elems: Node[] = [];
    while (!this.is("punc", "]")) {
      elems.push(this.expr());
      if (this.is("kw", "for") && elems.length === 1) {
        const specs = this.compSpecs();
        const close = this.expect("punc", "]");
        return { k: "arrcomp", body: elems[0], specs, loc: span(open.loc, close.loc) };
      }
      if (!this.accept("punc", ",")) break;
      if (this.is("kw", "for") && elems.length === 1) {
        const specs = this.compSpecs();
        const close = this.expect("punc", "]");
        return { k: "arrcomp", body: elems[0], specs, loc: span(open.loc, close.loc) };
      }
    }
    const close = this.expect("punc", "]");
    return { k: "arr", elems, loc: span(open.loc, close.loc) };
  }

  private compSpecs(): CompSpec[] {
    const specs: CompSpec[] = [];
    while (true) {
      const t = this.peek();
      if (this.accept("kw", "for")) {
        const name = this.ident();
        this.expect("kw", "in");
        const arr = this.expr();
        specs.push({ k: "for", name, arr, loc: span(t.loc, arr.loc) });
      } else if (this.accept("kw", "if")) {
        const cond = this.expr();
        specs.push({ k: "if", cond, loc: span(t.loc, cond.loc) });
      } else return specs;
    }
  }

  private object(open: Token): Node {
    const outer = this.objDepth === 0;
    this.objDepth++;
    const fields: FieldAst[] = [];
    const locals: Bind[] = [];
    const asserts: AssertAst[] = [];
    let specs: CompSpec[] | undefined;
    while (!this.is("punc", "}")) {
      const t = this.peek();
      if (this.accept("kw", "local")) {
        locals.push(this.bind());
      } else if (this.accept("kw", "assert")) {
        const cond = this.expr();
        const msg = this.accept("op", ":") ? this.expr() : undefined;
        asserts.push({ cond, msg, loc: span(t.loc, (msg ?? cond).loc) });
      } else {
        fields.push(this.field());
      }
      if (this.is("kw", "for")) {
        specs = this.compSpecs();
        break;
      }
      if (!this.accept("punc", ",")) break;
      if (this.is("kw", "for")) {
        specs = this.compSpecs();
        break;
      }
    }
    const close = this.expect("punc", "}");
    this.objDepth--;
    const loc = span(open.loc, close.loc);
    if (specs) {
      if (fields.length !== 1 || asserts.length) {
        this.fail(close, "object comprehension can only have one field.");
      }
      if (fields[0].hide !== Hide.Inherit) {
        throw new JsonnetError(
          "STATIC ERROR",
          "object comprehensions cannot have hidden fields.",
          fields[0].loc,
        );
      }
      if (fields[0].name.k === "lit" && !fields[0].dyn) {
        this.fail(close, "Object comprehensions can only have [e] fields.");
      }
      return { k: "objcomp", locals, field: fields[0], specs, dollar: outer, loc };
    }
    const seen = new Set<string>();
    for (const f of fields) {
      if (f.name.k === "lit" && !f.dyn) {
        const nm = String(f.name.v);
        if (seen.has(nm)) throw new JsonnetError("STATIC ERROR", `duplicate field: ${nm}`, f.loc);
        seen.add(nm);
      }
    }
    return { k: "obj", fields, locals, asserts, dollar: outer, loc };
  }

  private field(): FieldAst {
    const t = this.next();
    let name: Node;
    let dyn = false;
    if (t.kind === "id" || t.kind === "str") name = { k: "lit", v: t.value, loc: t.loc };
    else if (t.kind === "punc" && t.value === "[") {
      name = this.expr();
      dyn = true;
      this.expect("punc", "]");
    } else this.fail(t, `Unexpected: ${describe(t)} while parsing field definition`);
    let method: Param[] | undefined;
    if (this.accept("punc", "(")) method = this.params();
    const op = this.peek();
    const ops: Record<string, [boolean, Hide]> = {
      ":": [false, Hide.Inherit],
      "::": [false, Hide.Hidden],
      ":::": [false, Hide.Visible],
      "+:": [true, Hide.Inherit],
      "+::": [true, Hide.Hidden],
      "+:::": [true, Hide.Visible],
    };
    if (op.kind !== "op" || !ops[op.value]) {
      this.fail(op, `Expected one of :, ::, :::, +:, +::, +:::, got: ${describe(op)}`);
    }
    this.next();
    const [plus, hide] = ops[op.value];
    if (plus && method) this.fail(op, "Cannot use +: syntax sugar in a method");
    let value = this.expr();
    if (method) {
      const fname = name.k === "lit" ? String(name.v) : "anonymous";
      value = { k: "func", params: method, body: value, name: fname, loc: span(t.loc, value.loc) };
    } else if (value.k === "func" && value.name === "anonymous" && name.k === "lit") {
      value.name = String(name.v);
    }
    const f: FieldAst = { name, hide, plus, value, loc: span(t.loc, value.loc) };
    if (dyn) f.dyn = true;
    return f;
  }
}

function describe(t: Token): string {
  if (t.kind === "eof") return "end of file";
  if (t.kind === "str") return `STRING_DOUBLE`;
  return `(${
    t.kind === "id" ? "IDENTIFIER" : t.kind === "num" ? "NUMBER" : "OPERATOR"
  }, "${t.value}")`;
}
