/**
 * Expression grammar of the Tera dialect (rule names follow Tera's `tera.pest`).
 * Precedence: `or` < `and` < `not` < `in` / comparison < `+ -` < `* / %` < filters on a
 * basic expression. Tera 1.20 additions: a parenthesised logic expression is a logic value,
 * and a test may apply to a subscripted path (`m[k] is defined`).
 * @module
 */

import { type Expr, type ExprVal, type FnCall, mkExpr } from "./ast.ts";
import { type Cursor, FAIL, type R } from "./lexer.ts";
import { SyntaxFailure } from "./errors.ts";

const MATH_PREC: Record<string, number> = { "+": 1, "-": 1, "*": 2, "/": 2, "%": 2 };

/** Parses expressions at a cursor. */
export class ExprParser {
  /**
   * Packrat memos of the context-free rules reached from several alternatives (issue 16:
   * without them `f(a=f(a=…))` took time exponential in its depth, 45 s at depth 12).
   */
  private readonly valMemo = new Map<number, { r: R<ExprVal>; end: number }>();
  private readonly callMemo = new Map<number, { r: R<FnCall>; end: number }>();

  constructor(readonly c: Cursor) {}

  private memo<T>(table: Map<number, { r: R<T>; end: number }>, f: () => R<T>): R<T> {
    const start = this.c.pos;
    const hit = table.get(start);
    if (hit) {
      this.c.pos = hit.end;
      return hit.r;
    }
    const r = f();
    table.set(start, { r, end: this.c.pos });
    return r;
  }

  private attempt<T>(f: () => R<T>): R<T> {
    const save = this.c.pos;
    const r = f();
    if (r === FAIL) this.c.pos = save;
    return r;
  }

  /** `logic_expr = logic_val ((op_or | op_and) logic_val)*`, `and` binding tighter. */
  logicExpr(): R<Expr> {
    return this.c.nested(() => this.logicExprInner());
  }

  private logicExprInner(): R<Expr> {
    const first = this.logicVal();
    if (first === FAIL) return FAIL;
    const operands: Expr[] = [first];
    const ops: string[] = [];
    for (;;) {
      const save = this.c.pos;
      this.c.ws();
      const op = this.wordOp("or") ? "or" : this.wordOp("and") ? "and" : null;
      if (op === null) {
        this.c.pos = save;
        break;
      }
      this.c.ws();
      const rhs = this.logicVal();
      if (rhs === FAIL) {
        this.c.pos = save;
        break;
      }
      ops.push(op);
      operands.push(rhs);
    }
    // precedence climbing: `and` before `or`
    const ors: Expr[] = [];
    let cur = operands[0];
    for (let i = 0; i < ops.length; i++) {
      if (ops[i] === "and") cur = logic("and", cur, operands[i + 1]);
      else {
        ors.push(cur);
        cur = operands[i + 1];
      }
    }
    ors.push(cur);
    return ors.reduce((a, b) => logic("or", a, b));
  }

  /** `op_or = @{ "or" ~ WHITESPACE }` and friends. */
  private wordOp(word: string): boolean {
    const c = this.c;
    if (!c.startsWith(word)) {
      c.expect("`" + word + "`");
      return false;
    }
    const n = c.src.charCodeAt(c.pos + word.length);
    if (n === 32 || n === 9 || n === 13 || n === 10) {
      c.pos += word.length + 1;
      return true;
    }
    c.expect("`" + word + "`");
    return false;
  }

  /** `logic_val = op_not? (in_cond | comparison_expr)`, plus 1.20's `op_not? "(" logic_expr ")"`. */
  logicVal(): R<Expr> {
    const c = this.c;
    const start = c.pos;
    let negated = false;
    if (this.wordOp("not")) {
      negated = true;
      c.ws();
    }
    let e = this.attempt(() => this.inCond());
    if (e === FAIL) e = this.attempt(() => this.comparisonExpr());
    if (e === FAIL) e = this.attempt(() => this.group());
    if (e === FAIL) {
      c.pos = start;
      return FAIL;
    }
    e.negated = negated;
    return e;
  }

  private group(): R<Expr> {
    const c = this.c;
    const pos = c.pos;
    if (!c.lit("(")) return FAIL;
    c.ws();
    const inner = this.logicExpr();
    if (inner === FAIL) return FAIL;
    c.ws();
    if (!c.lit(")")) return FAIL;
    return mkExpr({ k: "group", inner }, pos);
  }

  /** `in_cond = (string_expr_filter | basic_expr_filter) op_not? "in" in_cond_container` */
  private inCond(): R<Expr> {
    const c = this.c;
    const pos = c.pos;
    let lhs = this.attempt(() => this.stringExprFilter());
    if (lhs === FAIL) lhs = this.attempt(() => this.basicExprFilter());
    if (lhs === FAIL) return FAIL;
    c.ws();
    let negated = false;
    if (this.wordOp("not")) {
      negated = true;
      c.ws();
    }
    if (!c.lit("in")) return FAIL;
    c.ws();
    let rhs = this.attempt(() => this.stringExprFilter());
    if (rhs === FAIL) rhs = this.attempt(() => this.arrayFilter());
    if (rhs === FAIL) {
      const p = c.pos;
      const path = c.path();
      if (path === FAIL) return FAIL;
      rhs = mkExpr({ k: "ident", path }, p);
    }
    return mkExpr({ k: "in", lhs, rhs, negated }, pos);
  }

  /** `comparison_expr = operand (comparison_op operand)?` */
  private comparisonExpr(): R<Expr> {
    const c = this.c;
    const operand = (): R<Expr> => {
      const s = this.attempt(() => this.stringExprFilter());
      return s !== FAIL ? s : this.attempt(() => this.comparisonVal());
    };
    const lhs = operand();
    if (lhs === FAIL) return FAIL;
    const save = c.pos;
    c.ws();
    let op: string | null = null;
    for (const o of ["<=", ">=", ">", "<", "==", "!="]) {
      if (c.startsWith(o)) {
        op = o;
        break;
      }
    }
    if (op === null) {
      c.expect("a comparison operator");
      c.pos = save;
      return lhs;
    }
    c.pos += op.length;
    c.ws();
    const rhs = operand();
    if (rhs === FAIL) {
      c.pos = save;
      return lhs;
    }
    return logic(op, lhs, rhs);
  }

  /** `comparison_val = basic_expr_filter (basic_op basic_expr_filter)*` */
  private comparisonVal(): R<Expr> {
    const first = this.basicExprFilter();
    if (first === FAIL) return FAIL;
    return this.mathTail(first, () => this.basicExprFilter());
  }

  private mathOp(): string | null {
    const ch = this.c.src[this.c.pos];
    if (ch === "+" || ch === "-" || ch === "*" || ch === "/" || ch === "%") return ch;
    this.c.expect("a mathematical operator");
    return null;
  }

  private mathTail(first: Expr, operand: () => R<Expr>): Expr {
    const c = this.c;
    const operands = [first];
    const ops: string[] = [];
    for (;;) {
      const save = c.pos;
      c.ws();
      const op = this.mathOp();
      if (op === null) {
        c.pos = save;
        break;
      }
      c.pos++;
      c.ws();
      const rhs = this.attempt(operand);
      if (rhs === FAIL) {
        c.pos = save;
        break;
      }
      ops.push(op);
      operands.push(rhs);
    }
    if (ops.length === 0) return first;
    // two precedence levels, both left-associative: fold `* / %` first, then `+ -`
    const terms: Expr[] = [operands[0]];
    const addOps: string[] = [];
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i];
      if (MATH_PREC[op] === 2) {
        const lhs = terms[terms.length - 1];
        terms[terms.length - 1] = mkExpr({ k: "math", op, lhs, rhs: operands[i + 1] }, lhs.pos);
      } else {
        addOps.push(op);
        terms.push(operands[i + 1]);
      }
    }
    let acc = terms[0];
    for (let j = 0; j < addOps.length; j++) {
      acc = mkExpr({ k: "math", op: addOps[j], lhs: acc, rhs: terms[j + 1] }, acc.pos);
    }
    return acc;
  }

  /** `basic_expr_filter = basic_expr filter*` */
  basicExprFilter(): R<Expr> {
    const pos = this.c.pos;
    const val = this.basicExpr();
    if (val === FAIL) return FAIL;
    const e = mkExpr(val.val, pos);
    this.filters(e);
    return e;
  }

  /** `basic_expr = ("(" basic_expr ")" | basic_val) (basic_op ("(" basic_expr ")" | basic_val))*` */
  private basicExpr(): R<Expr> {
    return this.c.nested(() => this.basicExprInner());
  }

  private basicExprInner(): R<Expr> {
    const operand = (): R<Expr> => {
      const c = this.c;
      const pos = c.pos;
      if (c.peek() === 40) {
        c.pos++;
        c.ws();
        const inner = this.basicExpr();
        if (inner === FAIL) return FAIL;
        c.ws();
        if (!c.lit(")")) return FAIL;
        return mkExpr(inner.val, pos);
      }
      c.expect("`(`");
      const v = this.basicVal();
      return v === FAIL ? FAIL : mkExpr(v, pos);
    };
    const first = this.attempt(operand);
    if (first === FAIL) return FAIL;
    return this.mathTail(first, operand);
  }

  /** `basic_val = boolean | test_not | test | macro_call | fn_call | path | float | int` */
  private basicVal(): R<ExprVal> {
    return this.memo(this.valMemo, () => this.basicValInner());
  }

  private basicValInner(): R<ExprVal> {
    const c = this.c;
    for (const b of ["true", "false", "True", "False"]) {
      if (c.startsWith(b)) {
        c.pos += b.length;
        return { k: "bool", v: b === "true" || b === "True" };
      }
    }
    c.expect("`true` or `false`");
    const t = this.attempt(() => this.test());
    if (t !== FAIL) return t;
    const m = this.attempt(() => this.macroCall());
    if (m !== FAIL) return m;
    const f = this.attempt(() => this.fnCall());
    if (f !== FAIL) return { k: "fn", call: f };
    const p = this.attempt(() => c.path());
    if (p !== FAIL) return { k: "ident", path: p };
    const fl = this.attempt(() => c.float());
    if (fl !== FAIL) return { k: "float", v: Number(fl) };
    const i = this.attempt(() => c.int());
    if (i !== FAIL) {
      const v = Number(i);
      if (!Number.isSafeInteger(v)) {
        throw new SyntaxFailure(`Integer out of bounds: \`${i}\``, c.pos);
      }
      return { k: "int", v };
    }
    return FAIL;
  }

  /** `test = path "is" "not"? test_call` */
  private test(): R<ExprVal> {
    const c = this.c;
    const path = c.path();
    if (path === FAIL) return FAIL;
    c.ws();
    if (!c.lit("is")) return FAIL;
    c.ws();
    let negated = false;
    const save = c.pos;
    if (c.lit("not")) {
      c.ws();
      negated = true;
      const call = this.attempt(() => this.testCall());
      if (call !== FAIL) return { k: "test", path, negated, name: call.name, args: call.args };
      c.pos = save;
      negated = false;
    }
    const call = this.testCall();
    if (call === FAIL) return FAIL;
    return { k: "test", path, negated, name: call.name, args: call.args };
  }

  private testCall(): R<{ name: string; args: Expr[] }> {
    const c = this.c;
    const name = c.ident();
    if (name === FAIL) return FAIL;
    const args: Expr[] = [];
    const save = c.pos;
    c.ws();
    if (c.peek() === 40) {
      c.pos++;
      c.ws();
      const arg = (): R<Expr> => {
        const l = this.attempt(() => this.logicExpr());
        return l !== FAIL ? l : this.attempt(() => this.arrayFilter());
      };
      const first = arg();
      if (first !== FAIL) {
        args.push(first);
        for (;;) {
          const s2 = c.pos;
          c.ws();
          if (!c.lit(",")) {
            c.pos = s2;
            break;
          }
          c.ws();
          const next = arg();
          if (next === FAIL) {
            c.pos = s2;
            break;
          }
          args.push(next);
        }
        c.ws();
        if (c.lit(")")) return { name, args };
      }
      c.pos = save;
      return { name, args: [] };
    }
    c.pos = save;
    return { name, args };
  }

  /** `macro_call = ident "::" ident "(" kwargs? ")"` */
  private macroCall(): R<ExprVal> {
    const c = this.c;
    const ns = c.ident();
    if (ns === FAIL) return FAIL;
    c.ws();
    if (!c.lit("::")) return FAIL;
    c.ws();
    const name = c.ident();
    if (name === FAIL) return FAIL;
    c.ws();
    if (!c.lit("(")) return FAIL;
    const args = this.kwargs();
    if (!c.lit(")")) return FAIL;
    return { k: "macro", ns, name, args };
  }

  /** `fn_call = ident "(" kwargs? ")"` */
  fnCall(): R<FnCall> {
    return this.memo(this.callMemo, () => this.fnCallInner());
  }

  private fnCallInner(): R<FnCall> {
    const c = this.c;
    const pos = c.pos;
    const name = c.ident();
    if (name === FAIL) return FAIL;
    c.ws();
    if (!c.lit("(")) return FAIL;
    const args = this.kwargs();
    if (!c.lit(")")) return FAIL;
    return { name, args, pos };
  }

  /** `kwargs = kwarg ("," kwarg)* ","?` with surrounding whitespace; ends before `)`. */
  private kwargs(): Map<string, Expr> {
    const c = this.c;
    const args = new Map<string, Expr>();
    const kwarg = (): boolean => {
      const save = c.pos;
      const name = c.ident();
      if (name === FAIL) return false;
      c.ws();
      if (!c.lit("=")) {
        c.pos = save;
        return false;
      }
      c.ws();
      let v = this.attempt(() => this.logicExpr());
      if (v === FAIL) v = this.attempt(() => this.arrayFilter());
      if (v === FAIL) {
        c.pos = save;
        return false;
      }
      args.set(name, v);
      return true;
    };
    let save = c.pos;
    c.ws();
    if (!kwarg()) {
      c.pos = save;
      c.ws();
      return args;
    }
    for (;;) {
      save = c.pos;
      c.ws();
      if (!c.lit(",")) {
        c.pos = save;
        break;
      }
      const afterComma = c.pos;
      c.ws();
      if (!kwarg()) {
        c.pos = afterComma;
        break;
      }
    }
    c.ws();
    return args;
  }

  /** `filter*` appended to an expression. */
  private filters(e: Expr): void {
    const c = this.c;
    for (;;) {
      const save = c.pos;
      c.ws();
      if (!c.lit("|")) {
        c.pos = save;
        return;
      }
      c.ws();
      const f = this.attempt(() => this.fnCall());
      if (f !== FAIL) {
        e.filters.push(f);
        continue;
      }
      const pos = c.pos;
      const name = c.ident();
      if (name === FAIL) {
        c.pos = save;
        return;
      }
      e.filters.push({ name, args: new Map(), pos });
    }
  }

  /** `string_expr_filter = (string_concat | string) filter*` */
  private stringExprFilter(): R<Expr> {
    const c = this.c;
    const pos = c.pos;
    let val = this.attempt(() => this.stringConcat());
    if (val === FAIL) {
      const s = c.string();
      if (s === FAIL) return FAIL;
      val = { k: "str", v: s };
    }
    const e = mkExpr(val, pos);
    this.filters(e);
    return e;
  }

  /** `string_concat = part ("~" part)+` */
  private stringConcat(): R<ExprVal> {
    const c = this.c;
    const part = (): R<ExprVal> => {
      const f = this.attempt(() => this.fnCall());
      if (f !== FAIL) return { k: "fn", call: f };
      const fl = this.attempt(() => c.float());
      if (fl !== FAIL) return { k: "float", v: Number(fl) };
      const i = this.attempt(() => c.int());
      if (i !== FAIL) return { k: "int", v: Number(i) };
      const s = this.attempt(() => c.string());
      if (s !== FAIL) return { k: "str", v: s };
      const p = this.attempt(() => c.path());
      if (p !== FAIL) return { k: "ident", path: p };
      return FAIL;
    };
    const first = part();
    if (first === FAIL) return FAIL;
    const parts: ExprVal[] = [first];
    for (;;) {
      const save = c.pos;
      c.ws();
      if (!c.lit("~")) {
        c.pos = save;
        break;
      }
      c.ws();
      const p = part();
      if (p === FAIL) {
        c.pos = save;
        break;
      }
      parts.push(p);
    }
    if (parts.length < 2) return FAIL;
    // fold adjacent string literals, as Tera does
    const folded: ExprVal[] = [];
    for (const p of parts) {
      const last = folded[folded.length - 1];
      if (p.k === "str" && last && last.k === "str") {
        folded[folded.length - 1] = { k: "str", v: last.v + p.v };
      } else folded.push(p);
    }
    if (folded.length === 1) return folded[0];
    return { k: "concat", parts: folded };
  }

  /** `array_filter = array filter*` */
  arrayFilter(): R<Expr> {
    const c = this.c;
    const pos = c.pos;
    const items = this.array();
    if (items === FAIL) return FAIL;
    const e = mkExpr({ k: "array", items }, pos);
    this.filters(e);
    return e;
  }

  /** `array = "[" (logic_val ",")* logic_val? "]"` */
  private array(): R<Expr[]> {
    return this.c.nested(() => this.arrayInner());
  }

  private arrayInner(): R<Expr[]> {
    const c = this.c;
    if (!c.lit("[")) return FAIL;
    const items: Expr[] = [];
    for (;;) {
      c.ws();
      const v = this.attempt(() => this.logicVal());
      if (v === FAIL) break;
      items.push(v);
      c.ws();
      if (!c.lit(",")) break;
    }
    c.ws();
    if (!c.lit("]")) return FAIL;
    return items;
  }
}

function logic(op: string, lhs: Expr, rhs: Expr): Expr {
  return mkExpr({ k: "logic", op, lhs, rhs }, lhs.pos);
}
