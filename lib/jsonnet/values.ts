/**
 * Runtime values of the lazy evaluator: thunks, arrays, objects (as inheritance layers),
 * functions and lexical environments.
 *
 * @module
 */
import type { AssertAst, Bind, Hide, Loc, Node, Param } from "./ast.ts";
import type { Evaluator } from "./evaluator.ts";

/** A forced Jsonnet value. Primitives are represented by JS primitives. */
export type Value = null | boolean | number | string | VArray | VObject | VFunc;

/**
 * A lazily computed value; forced at most once. Either a closure or an (expression, environment)
 * pair evaluated directly — the latter saves a JS stack frame per forced thunk, which matters for
 * deep recursion.
 */
export class Thunk {
  private v: Value | undefined;
  private f: (() => Value) | null;
  private n: Node | null = null;
  private e: Env | null = null;
  private ev: Evaluator | null = null;
  constructor(f: (() => Value) | null, v?: Value) {
    this.f = f;
    this.v = v;
  }
  /** A thunk that is already evaluated. */
  static of(v: Value): Thunk {
    return new Thunk(null, v);
  }
  /** A thunk evaluating `n` in `env` (counted as a Jsonnet stack frame when forced). */
  static expr(ev: Evaluator, n: Node, env: Env): Thunk {
    const t = new Thunk(null);
    t.n = n;
    t.e = env;
    t.ev = ev;
    return t;
  }
  /** Evaluates (once) and returns the value. */
  force(): Value {
    if (this.n !== null) {
      const ev = this.ev!;
      if (++ev.depth > ev.maxStack) {
        ev.error(this.n.loc, "max stack frames exceeded.", "max_stack");
      }
      const v = ev.eval(this.n, this.e!);
      ev.depth--;
      this.v = v;
      this.n = null;
      this.e = null;
      this.ev = null;
      return v;
    }
    const f = this.f;
    if (f !== null) {
      this.v = f();
      this.f = null;
    }
    return this.v as Value;
  }
}

/** A lexical environment: variable bindings plus the current `self`/`super`/`$`. */
export class Env {
  vars: Map<string, Thunk> | null;
  readonly parent: Env | null;
  self: VObject | undefined;
  superIdx: number;
  dollar: VObject | undefined;
  constructor(parent: Env | null, vars: Map<string, Thunk> | null = null) {
    this.parent = parent;
    this.vars = vars;
    this.self = parent?.self;
    this.superIdx = parent ? parent.superIdx : 0;
    this.dollar = parent?.dollar;
  }
  /** Finds a binding; undefined when unbound. */
  lookup(name: string): Thunk | undefined {
    const own = this.vars?.get(name);
    if (own !== undefined) return own;
    for (let e = this.parent; e !== null; e = e.parent) {
      const t = e.vars?.get(name);
      if (t !== undefined) return t;
    }
    return undefined;
  }
  /** Adds a binding to this scope. */
  set(name: string, t: Thunk): void {
    (this.vars ??= new Map()).set(name, t);
  }
}

/** An array of lazily evaluated elements. */
export class VArray {
  constructor(readonly elems: Thunk[]) {}
}

/** One field definition inside an object layer. */
export interface FieldDef {
  hide: Hide;
  plus: boolean;
  expr?: Node;
  /** A precomputed value (std functions, values converted from JSON). */
  thunk?: Thunk;
  /** Overrides the layer environment (object comprehensions bind loop variables here). */
  env?: Env;
  loc?: Loc;
}

/** One object literal's contribution to an object (objects are lists of layers). */
export interface Layer {
  fields: Map<string, FieldDef>;
  asserts: AssertAst[];
  locals: Bind[];
  env: Env | null;
  /** Whether this literal binds `$` (it is the outermost literal). */
  dollar: boolean;
}

/** An object: an inheritance chain of layers, base first; `a + b` concatenates chains. */
export class VObject {
  readonly cache = new Map<string, Value>();
  readonly envs: (Env | undefined)[] = [];
  assertsChecked: boolean;
  visible: Map<string, boolean> | undefined;
  sortedVisible: string[] | undefined;
  sortedAll: string[] | undefined;
  constructor(readonly layers: Layer[]) {
    this.assertsChecked = !layers.some((l) => l.asserts.length > 0);
  }
}

/** A native (std) function implementation; receives thunks in parameter order. */
export type NativeFn = (ev: Evaluator, args: Thunk[], loc: Loc) => Value;

/** A function value: either a closure over a `func` node or a native builtin. */
export class VFunc {
  constructor(
    readonly name: string,
    readonly params: Param[],
    readonly body: Node | null,
    readonly env: Env | null,
    readonly native: NativeFn | null = null,
    /** Default values for trailing native parameters. */
    readonly nativeDefaults: (Value | undefined)[] = [],
  ) {}
}

/** Jsonnet type name of a value, as returned by `std.type`. */
export function typeOf(v: Value): string {
  if (v === null) return "null";
  switch (typeof v) {
    case "boolean":
      return "boolean";
    case "number":
      return "number";
    case "string":
      return "string";
  }
  if (v instanceof VArray) return "array";
  if (v instanceof VObject) return "object";
  return "function";
}
