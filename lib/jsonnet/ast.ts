/**
 * Abstract syntax tree of Jsonnet programs, with precise source locations.
 *
 * @module
 */

/**
 * A source span: 1-based line and column; `endCol` is exclusive like the reference binary.
 *
 * @example
 * ```ts
 * import type { Loc } from "./ast.ts";
 * const here: Loc = { file: "main.jsonnet", line: 3, col: 5, endLine: 3, endCol: 12 };
 * ```
 */
export interface Loc {
  /** File name as given to the evaluator or import resolver. */
  file: string;
  /** First line (1-based). */
  line: number;
  /** First column (1-based). */
  col: number;
  /** Last line. */
  endLine: number;
  /** Column after the last character. */
  endCol: number;
}

/** Field visibility: `:` inherits, `::` hides, `:::` forces visible. */
export const enum Hide {
  Inherit = 0,
  Hidden = 1,
  Visible = 2,
}

/** A function parameter with an optional default expression. */
export interface Param {
  name: string;
  def?: Node;
}

/** `name = body` inside `local` or an object local. Function sugar is already desugared. */
export interface Bind {
  name: string;
  body: Node;
  loc: Loc;
}

/** A field of an object literal. `name` is a literal string node for static names. */
export interface FieldAst {
  name: Node;
  hide: Hide;
  plus: boolean;
  value: Node;
  loc: Loc;
  /** True for `[expr]` names (even when expr is a literal). */
  dyn?: boolean;
}

/** An object-level `assert cond : msg`. */
export interface AssertAst {
  cond: Node;
  msg?: Node;
  loc: Loc;
}

/** `for x in arr` / `if cond` of a comprehension. */
export type CompSpec =
  | { k: "for"; name: string; arr: Node; loc: Loc }
  | { k: "if"; cond: Node; loc: Loc };

/** Every expression form. */
export type Node =
  | { k: "lit"; v: null | boolean | number | string; loc: Loc }
  | { k: "self"; loc: Loc }
  | { k: "dollar"; loc: Loc }
  | { k: "var"; name: string; loc: Loc }
  | { k: "arr"; elems: Node[]; loc: Loc }
  | { k: "arrcomp"; body: Node; specs: CompSpec[]; loc: Loc }
  | {
    k: "obj";
    fields: FieldAst[];
    locals: Bind[];
    asserts: AssertAst[];
    dollar: boolean;
    loc: Loc;
  }
  | {
    k: "objcomp";
    locals: Bind[];
    field: FieldAst;
    specs: CompSpec[];
    dollar: boolean;
    loc: Loc;
  }
  | { k: "index"; target: Node; index: Node; loc: Loc }
  | { k: "superidx"; index: Node; loc: Loc }
  | { k: "insuper"; key: Node; loc: Loc }
  | { k: "slice"; target: Node; start?: Node; end?: Node; step?: Node; loc: Loc }
  | {
    k: "apply";
    fn: Node;
    args: Node[];
    named: [string, Node][];
    tailstrict: boolean;
    loc: Loc;
  }
  | { k: "bin"; op: string; l: Node; r: Node; loc: Loc }
  | { k: "un"; op: string; e: Node; loc: Loc }
  | { k: "local"; binds: Bind[]; body: Node; loc: Loc }
  | { k: "if"; cond: Node; then: Node; else?: Node; loc: Loc }
  | { k: "func"; params: Param[]; body: Node; name: string; loc: Loc }
  | { k: "assert"; cond: Node; msg?: Node; body: Node; loc: Loc }
  | { k: "error"; e: Node; loc: Loc }
  | { k: "import"; kind: "import" | "importstr" | "importbin"; path: string; loc: Loc };

/** Formats a location like the reference binary: `file:1:2-5` or `file:(1:2)-(3:4)`. */
export function formatLoc(loc: Loc): string {
  if (loc.line === 0) return loc.file;
  if (loc.line === loc.endLine) {
    return loc.endCol > loc.col + 1
      ? `${loc.file}:${loc.line}:${loc.col}-${loc.endCol}`
      : `${loc.file}:${loc.line}:${loc.col}`;
  }
  return `${loc.file}:(${loc.line}:${loc.col})-(${loc.endLine}:${loc.endCol})`;
}
