/**
 * The lazy evaluator core: expressions, function calls (with tail calls for `tailstrict`),
 * stack-depth accounting, evaluation budget and error traces.
 *
 * @module
 */
import type { Bind, CompSpec, Loc, Node } from "./ast.ts";
import { BuiltinError, JsonnetError, type JsonnetErrorCode, type TraceFrame } from "./errors.ts";
import { Env, Thunk, type Value, VArray, VFunc, VObject } from "./values.ts";
import { applyBinary, binary, unary } from "./operators.ts";
import {
  checkAsserts,
  hasField,
  lookupField,
  makeObject,
  makeObjectComprehension,
} from "./objects.ts";
import { indexValue, sliceValue } from "./indexing.ts";
import { manifestCompact } from "./manifest_json.ts";
import {
  DEFAULT_MAX_MEMORY,
  type EvalHost,
  type EvalLimits,
  isStackOverflow,
} from "./eval_host.ts";

export {
  DEFAULT_MAX_MEMORY,
  type EvalHost,
  type EvalLimits,
  isStackOverflow,
} from "./eval_host.ts";

class TailCall {
  constructor(
    readonly fn: VFunc,
    readonly args: Thunk[],
    readonly named: [string, Thunk][],
    readonly loc: Loc,
  ) {}
}

/** Evaluates AST nodes. One instance per evaluation (it carries the stack). */
export class Evaluator {
  depth = 0;
  steps = 0;
  readonly stack: TraceFrame[] = [];
  /** The Jsonnet stack limit (frames). */
  readonly maxStack: number;
  /** The memory limit (elements or code units of one value). */
  readonly maxMemory: number;
  private readonly maxSteps: number;
  private readonly deadline: number;
  private nextCheck = 4096;

  constructor(readonly host: EvalHost, limits: EvalLimits = {}) {
    this.maxStack = limits.maxStack ?? 500;
    this.maxSteps = limits.maxSteps ?? Infinity;
    this.deadline = limits.deadline ?? Infinity;
    this.maxMemory = limits.maxMemory ?? DEFAULT_MAX_MEMORY;
  }

  /** Throws a runtime JsonnetError at `loc` with the current stack trace. */
  error(loc: Loc | undefined, msg: string, code?: JsonnetErrorCode): never {
    const frames: TraceFrame[] = [];
    if (loc) {
      frames.push({ loc, name: this.stack.length ? this.stack[this.stack.length - 1].name : "" });
    }
    for (let i = this.stack.length - 1; i >= 0; i--) {
      frames.push({ loc: this.stack[i].loc, name: i > 0 ? this.stack[i - 1].name : "" });
    }
    throw new JsonnetError("RUNTIME ERROR", msg, loc, frames, code);
  }

  /** Enters a Jsonnet stack frame (function call, thunk, field). */
  enter(loc: Loc, name: string): void {
    if (++this.depth > this.maxStack) this.error(loc, "max stack frames exceeded.", "max_stack");
    this.stack.push({ loc, name });
  }
  /** Leaves the innermost frame. */
  leave(): void {
    this.depth--;
    this.stack.pop();
  }

  private budget(loc: Loc): void {
    this.nextCheck = this.steps + 4096;
    if (this.steps > this.maxSteps) {
      this.error(loc, "evaluation budget exceeded (max steps)", "budget_exceeded");
    }
    if (this.deadline !== Infinity && Date.now() > this.deadline) {
      this.error(loc, "evaluation budget exceeded (deadline)", "budget_exceeded");
    }
  }

  /** Charges `n` steps of work done inside a builtin (loops over arrays, string building). */
  charge(n: number, loc: Loc): void {
    this.steps += n;
    if (this.steps >= this.nextCheck) this.budget(loc);
  }

  /**
   * Charges building an array or string of `n` elements/code units before it is allocated:
   * fails when `n` exceeds the memory limit, else counts `n` steps.
   */
  alloc(n: number, loc: Loc): void {
    if (!(n <= this.maxMemory)) {
      this.error(
        loc,
        `evaluation budget exceeded (memory: a value of ${n} elements, limit ${this.maxMemory})`,
        "budget_exceeded",
      );
    }
    this.charge(n, loc);
  }

  /** A thunk evaluating `n` in `env`, counted as a stack frame when forced. */
  thunk(n: Node, env: Env): Thunk {
    switch (n.k) {
      case "lit":
        return Thunk.of(n.v);
      case "var": {
        const t = env.lookup(n.name);
        if (t) return t;
        break;
      }
    }
    return Thunk.expr(this, n, env);
  }

  /** Binds `local` definitions (mutually recursive) in a fresh scope. */
  bindLocals(binds: Bind[], env: Env): Env {
    const e = new Env(env, new Map());
    for (const b of binds) e.set(b.name, this.thunk(b.body, e));
    return e;
  }

  /** Evaluates an expression to a value. */
  eval(n: Node, env: Env): Value {
    if (++this.steps >= this.nextCheck) this.budget(n.loc);
    switch (n.k) {
      case "lit":
        return n.v;
      case "var": {
        const t = env.lookup(n.name);
        if (!t) this.error(n.loc, `Unknown variable: ${n.name}`);
        return t.force();
      }
      case "self":
        return env.self!;
      case "dollar":
        return env.dollar!;
      case "arr":
        return new VArray(n.elems.map((e) => this.thunk(e, env)));
      case "arrcomp": {
        const out: Thunk[] = [];
        this.comprehension(n.specs, 0, env, (e) => {
          if (out.length >= this.maxMemory) this.alloc(out.length + 1, n.loc);
          out.push(this.thunk(n.body, e));
        });
        return new VArray(out);
      }
      case "obj":
        return makeObject(this, n, env);
      case "objcomp":
        return makeObjectComprehension(this, n, env);
      case "index": {
        const target = this.eval(n.target, env);
        const idx = this.eval(n.index, env);
        return indexValue(this, target, idx, n.loc);
      }
      case "superidx": {
        const self = env.self!;
        const name = this.eval(n.index, env);
        if (typeof name !== "string") {
          this.error(n.loc, `super index must be string, got ${typeName(name)}.`);
        }
        if (env.superIdx === 0) {
          this.error(n.loc, "attempt to use super when there is no super class.");
        }
        const v = lookupField(this, self, name, env.superIdx - 1, n.loc);
        if (v === undefined) this.error(n.loc, `field does not exist: ${name}`);
        return v;
      }
      case "insuper": {
        const name = this.eval(n.key, env);
        if (typeof name !== "string") {
          this.error(n.loc, `field name must be string, got ${typeName(name)}.`);
        }
        return env.superIdx > 0 && hasField(env.self!, name, env.superIdx - 1, true);
      }
      case "slice":
        return sliceValue(
          this,
          this.eval(n.target, env),
          n.start ? this.eval(n.start, env) : null,
          n.end ? this.eval(n.end, env) : null,
          n.step ? this.eval(n.step, env) : null,
          n.loc,
        );
      case "apply": {
        const fn = this.eval(n.fn, env);
        if (!(fn instanceof VFunc)) {
          this.error(n.loc, `only functions can be called, got ${typeName(fn)}`);
        }
        const args = n.args.map((a) => this.thunk(a, env));
        const named = n.named.map(([k, a]): [string, Thunk] => [k, this.thunk(a, env)]);
        if (n.tailstrict) {
          for (const a of args) a.force();
          for (const a of named) a[1].force();
        }
        return this.call(fn, args, named, n.loc);
      }
      case "bin":
        return n.l.k === "bin"
          ? binary(this, n, env)
          : applyBinary(this, n, this.eval(n.l, env), env);
      case "un":
        return unary(this, n.op, this.eval(n.e, env), n.loc);
      case "local":
        return this.eval(n.body, this.bindLocals(n.binds, env));
      case "if": {
        const c = this.eval(n.cond, env);
        if (typeof c !== "boolean") {
          this.error(n.cond.loc, `condition must be boolean, got ${typeName(c)}.`);
        }
        if (c) return this.eval(n.then, env);
        return n.else ? this.eval(n.else, env) : null;
      }
      case "func":
        return new VFunc(n.name, n.params, n.body, env);
      case "assert": {
        this.assertion(n.cond, n.msg, env, n.loc);
        return this.eval(n.body, env);
      }
      case "error": {
        const m = this.eval(n.e, env);
        this.error(n.loc, typeof m === "string" ? m : this.toStr(m, n.loc));
        break;
      }
      case "import":
        return this.host.importFile(n.kind, n.path, n.loc.file, n.loc);
    }
    throw new Error("unreachable");
  }

  /** Evaluates an assertion; throws the (stringified) message when it is false. */
  assertion(
    cond: Node,
    msg: Node | undefined,
    env: Env,
    loc: Loc,
    dflt = "Assertion failed.",
  ): void {
    const c = this.eval(cond, env);
    if (typeof c !== "boolean") {
      this.error(cond.loc, `condition must be boolean, got ${typeName(c)}.`);
    }
    if (!c) {
      if (!msg) this.error(loc, dflt);
      const m = this.eval(msg, env);
      this.error(loc, typeof m === "string" ? m : this.toStr(m, loc));
    }
  }

  /** Runs comprehension specs, calling `emit` with the environment of each produced element. */
  comprehension(specs: CompSpec[], i: number, env: Env, emit: (e: Env) => void): void {
    if (i === specs.length) return emit(env);
    const s = specs[i];
    if (s.k === "if") {
      const c = this.eval(s.cond, env);
      if (typeof c !== "boolean") {
        this.error(s.loc, `condition must be boolean, got ${typeName(c)}.`);
      }
      if (c) this.comprehension(specs, i + 1, env, emit);
      return;
    }
    const arr = this.eval(s.arr, env);
    if (!(arr instanceof VArray)) {
      this.error(s.arr.loc, `In comprehension, can only iterate over array.`);
    }
    for (const t of arr.elems) {
      if (++this.steps >= this.nextCheck) this.budget(s.loc);
      const e = new Env(env, new Map([[s.name, t]]));
      this.comprehension(specs, i + 1, e, emit);
    }
  }

  /** Calls a function value with positional and named argument thunks. */
  call(fn: VFunc, args: Thunk[], named: [string, Thunk][], loc: Loc): Value {
    this.enter(loc, `function <${fn.name}>`);
    while (true) {
      const r = fn.native
        ? this.callNative(fn, args, named, loc)
        : this.evalTail(fn.body!, this.bindArgs(fn, args, named, loc));
      if (!(r instanceof TailCall)) {
        this.leave();
        return r;
      }
      this.stack[this.stack.length - 1] = { loc: r.loc, name: `function <${r.fn.name}>` };
      ({ fn, args, named, loc } = r);
    }
  }

  private bound(
    fn: VFunc,
    args: Thunk[],
    named: [string, Thunk][],
    loc: Loc,
  ): (Thunk | undefined)[] {
    const params = fn.params;
    if (args.length > params.length) {
      this.error(loc, `too many args, function has ${params.length} parameter(s)`);
    }
    const bound: (Thunk | undefined)[] = args.slice();
    for (const [name, t] of named) {
      const i = params.findIndex((p) => p.name === name);
      if (i < 0) this.error(loc, `function has no parameter ${name}`);
      if (bound[i]) this.error(loc, `binding parameter a second time: ${name}`);
      bound[i] = t;
    }
    return bound;
  }

  private callNative(fn: VFunc, args: Thunk[], named: [string, Thunk][], loc: Loc): Value {
    const params = fn.params;
    let full = args;
    if (named.length !== 0 || args.length !== params.length) {
      const bound = this.bound(fn, args, named, loc);
      full = [];
      for (let i = 0; i < params.length; i++) {
        let t = bound[i];
        if (!t) {
          const d = fn.nativeDefaults[i];
          if (d === undefined) {
            this.error(loc, `function parameter ${params[i].name} not bound in call.`);
          }
          t = Thunk.of(d);
        }
        full.push(t);
      }
    }
    try {
      return fn.native!(this, full, loc);
    } catch (e) {
      if (e instanceof BuiltinError) this.error(loc, e.message);
      if (e instanceof RangeError && !isStackOverflow(e)) {
        // "Invalid array length", "Invalid string length", toFixed digits...: never raw.
        this.error(loc, `${e.message} in std.${fn.name}`, "budget_exceeded");
      }
      throw e;
    }
  }

  private bindArgs(fn: VFunc, args: Thunk[], named: [string, Thunk][], loc: Loc): Env {
    const params = fn.params;
    const bound = named.length === 0 && args.length === params.length
      ? args
      : this.bound(fn, args, named, loc);
    const env = new Env(fn.env, new Map());
    for (let i = 0; i < params.length; i++) {
      const t = bound[i];
      if (t) env.set(params[i].name, t);
      else if (params[i].def) env.set(params[i].name, this.thunk(params[i].def!, env));
      else this.error(loc, `function parameter ${params[i].name} not bound in call.`);
    }
    return env;
  }

  /** Evaluates a function body; `tailstrict` calls in tail position become TailCall records. */
  private evalTail(n: Node, env: Env): Value | TailCall {
    while (true) {
      switch (n.k) {
        case "local":
          env = this.bindLocals(n.binds, env);
          n = n.body;
          continue;
        case "if": {
          if (++this.steps >= this.nextCheck) this.budget(n.loc);
          const c = this.eval(n.cond, env);
          if (typeof c !== "boolean") {
            this.error(n.cond.loc, `condition must be boolean, got ${typeName(c)}.`);
          }
          if (c) n = n.then;
          else if (n.else) n = n.else;
          else return null;
          continue;
        }
        case "apply": {
          if (!n.tailstrict) return this.eval(n, env);
          if (++this.steps >= this.nextCheck) this.budget(n.loc);
          const fn = this.eval(n.fn, env);
          if (!(fn instanceof VFunc)) {
            this.error(n.loc, `only functions can be called, got ${typeName(fn)}`);
          }
          const args = n.args.map((a) => Thunk.of(this.eval(a, env)));
          const named = n.named.map(([k, a]): [string, Thunk] => [k, Thunk.of(this.eval(a, env))]);
          return new TailCall(fn, args, named, n.loc);
        }
        default:
          return this.eval(n, env);
      }
    }
  }

  /** Checks object assertions (once per object). */
  checkAsserts(o: VObject, loc: Loc): void {
    if (!o.assertsChecked) checkAsserts(this, o, loc);
  }

  /** Converts a value to a string like `std.toString` (strings unchanged). */
  toStr(v: Value, loc: Loc): string {
    return typeof v === "string" ? v : manifestCompact(this, v, loc);
  }
}

/** The Jsonnet type name of a value. */
export function typeName(v: Value): string {
  if (v === null) return "null";
  if (typeof v === "object") {
    return v instanceof VArray ? "array" : v instanceof VObject ? "object" : "function";
  }
  return typeof v;
}
