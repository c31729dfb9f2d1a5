/**
 * Syntax tree of the Tera dialect, shaped like Tera's own AST so that evaluation follows the
 * same rules (an expression carries its filters and a `not` flag).
 * @module
 */

/** A variable path: a root name and keys; a key is a literal string or a nested path. */
export interface Path {
  root: string;
  segs: (string | Path)[];
  /** The source text, for messages. */
  raw: string;
}

/** A filter or function call with named arguments (last duplicate wins, as in Tera). */
export interface FnCall {
  name: string;
  args: Map<string, Expr>;
  pos: number;
}

/** The value part of an expression. */
export type ExprVal =
  | { k: "str"; v: string }
  | { k: "int"; v: number }
  | { k: "float"; v: number }
  | { k: "bool"; v: boolean }
  | { k: "ident"; path: Path }
  | { k: "math"; op: string; lhs: Expr; rhs: Expr }
  | { k: "logic"; op: string; lhs: Expr; rhs: Expr }
  | { k: "test"; path: Path; negated: boolean; name: string; args: Expr[] }
  | { k: "fn"; call: FnCall }
  | { k: "macro"; ns: string; name: string; args: Map<string, Expr> }
  | { k: "concat"; parts: ExprVal[] }
  | { k: "array"; items: Expr[] }
  | { k: "in"; lhs: Expr; rhs: Expr; negated: boolean }
  | { k: "group"; inner: Expr };

/** An expression: a value, its filters and an optional `not`. */
export interface Expr {
  val: ExprVal;
  negated: boolean;
  filters: FnCall[];
  pos: number;
}

/** Whitespace-control flags of a tag (`{%-` = left, `-%}` = right). */
export interface WS {
  left: boolean;
  right: boolean;
}

/** A template node. */
export type Node =
  | { t: "text"; s: string }
  | { t: "var"; ws: WS; expr: Expr; pos: number }
  | { t: "comment"; ws: WS }
  | { t: "set"; ws: WS; key: string; value: Expr; global: boolean; pos: number }
  | { t: "raw"; start: WS; s: string; end: WS }
  | {
    t: "if";
    conds: { ws: WS; expr: Expr; body: Node[] }[];
    otherwise: { ws: WS; body: Node[] } | null;
    end: WS;
  }
  | {
    t: "for";
    start: WS;
    key: string | null;
    value: string;
    container: Expr;
    body: Node[];
    empty: Node[] | null;
    end: WS;
    pos: number;
  }
  | { t: "break"; ws: WS; pos: number }
  | { t: "continue"; ws: WS; pos: number }
  | { t: "filter"; start: WS; filter: FnCall; body: Node[]; end: WS; pos: number }
  | {
    t: "macro";
    start: WS;
    name: string;
    params: { name: string; def: Expr | null }[];
    body: Node[];
    end: WS;
    pos: number;
  }
  | { t: "block"; start: WS; name: string; body: Node[]; end: WS }
  | { t: "include"; ws: WS; names: string[]; ignoreMissing: boolean; pos: number }
  | { t: "super"; pos: number };

/** Creates an expression without filters. */
export function mkExpr(val: ExprVal, pos: number): Expr {
  return { val, negated: false, filters: [], pos };
}
