/**
 * Render-time state: the call stack of frames (origin, for loops, macros), variable lookup
 * with Tera's scoping rules, and the registry of filters, tests and functions.
 * @module
 */

import type { Path } from "./ast.ts";
import { RenderFailure } from "./errors.ts";
import { getOwn, isNumber, numberToString, type TeraFloat } from "./value.ts";

/** A filter: receives the piped value and the named arguments. */
export type FilterFn = (value: unknown, args: Record<string, unknown>) => unknown;
/** A test: receives the value (`undefined` when not defined) and positional arguments. */
export type TestFn = (value: unknown, args: unknown[]) => boolean;
/** A function: receives the named arguments. */
export type FunctionFn = (args: Record<string, unknown>) => unknown;

/** Callables available to a render. */
export interface Registry {
  filters: Map<string, FilterFn>;
  tests: Map<string, TestFn>;
  functions: Map<string, FunctionFn>;
}

/** State of a running `for` loop. */
export interface LoopState {
  keyName: string | null;
  valueName: string;
  /** Object keys (key/value loops) or null. */
  keys: string[] | null;
  /** Array elements / grapheme strings, or the object (key/value loops). */
  items: unknown[] | Record<string, unknown>;
  len: number;
  i: number;
  /** 0 normal, 1 break, 2 continue */
  state: number;
}

/** Frame kinds. */
export const ORIGIN = 0, LOOP = 1, MACRO = 2;

/** One frame of the call stack. */
export interface Frame {
  kind: number;
  vars: Map<string, unknown> | null;
  loop: LoopState | null;
}

/** A macro definition compiled for calls. */
export interface MacroImpl {
  params: { name: string; def: ((st: State) => unknown) | null }[];
  body: (st: State) => void;
}

/** The mutable state of one render. */
export class State {
  out = "";
  readonly frames: Frame[] = [{ kind: ORIGIN, vars: null, loop: null }];
  top: Frame = this.frames[0];

  constructor(
    readonly context: Record<string, unknown>,
    readonly registry: Registry,
    readonly macros: Map<string, MacroImpl>,
  ) {}

  push(frame: Frame): void {
    this.frames.push(frame);
    this.top = frame;
  }

  pop(): void {
    this.frames.pop();
    this.top = this.frames[this.frames.length - 1];
  }

  /** Assigns a variable (`set` in the current frame, `set_global` in the nearest non-loop one). */
  assign(key: string, value: unknown, global: boolean): void {
    let frame = this.top;
    if (global && frame.kind === LOOP) {
      for (let i = this.frames.length - 1; i >= 0; i--) {
        if (this.frames[i].kind !== LOOP) {
          frame = this.frames[i];
          break;
        }
      }
    }
    (frame.vars ??= new Map()).set(key, value);
  }

  /** Resolves a path; `undefined` when it is not defined. Throws on a bad dynamic key. */
  lookup(path: Path): unknown {
    const segs = path.segs;
    let keys: string[];
    if (segs.length === 0) keys = EMPTY;
    else {
      keys = new Array(segs.length);
      for (let i = 0; i < segs.length; i++) {
        const s = segs[i];
        keys[i] = typeof s === "string" ? s : this.subKey(s, path);
      }
    }
    return this.lookupKeys(path.root, keys);
  }

  private subKey(sub: Path, whole: Path): string {
    const v = this.lookup(sub);
    if (v === undefined) {
      throw new RenderFailure(
        `Variable ${whole.raw} can not be evaluated because: Variable \`${sub.raw}\` not found in context`,
      );
    }
    if (typeof v === "string") return v;
    if (isNumber(v)) return numberToString(v as number | TeraFloat);
    throw new RenderFailure(
      `Only variables evaluating to String or Number can be used as index (\`${sub.raw}\` of \`${whole.raw}\`)`,
    );
  }

  lookupKeys(root: string, keys: string[]): unknown {
    const frames = this.frames;
    for (let f = frames.length - 1; f >= 0; f--) {
      const frame = frames[f];
      if (frame.vars !== null && frame.vars.has(root)) {
        const v = pointer(frame.vars.get(root), keys);
        if (v !== undefined) return v;
      }
      const loop = frame.loop;
      if (loop !== null) {
        const v = loopValue(loop, root, keys);
        if (v !== undefined) return v;
      }
      if (frame.kind !== LOOP) break;
    }
    return pointer(getOwn(this.context, root), keys);
  }
}

const EMPTY: string[] = [];

function loopValue(loop: LoopState, root: string, keys: string[]): unknown {
  if (loop.keyName !== null && keys.length === 0 && root === loop.keyName) {
    return (loop.keys as string[])[loop.i];
  }
  if (root === "loop") {
    if (keys.length !== 1) return undefined;
    switch (keys[0]) {
      case "index":
        return loop.i + 1;
      case "index0":
        return loop.i;
      case "first":
        return loop.i === 0;
      case "last":
        return loop.i === loop.len - 1;
    }
    return undefined;
  }
  if (root === loop.valueName) return pointer(currentValue(loop), keys);
  return undefined;
}

/** The current element of a loop. */
export function currentValue(loop: LoopState): unknown {
  if (loop.keys !== null) {
    return (loop.items as Record<string, unknown>)[loop.keys[loop.i]];
  }
  return (loop.items as unknown[])[loop.i];
}

/** JSON-pointer style traversal (object keys; array indices without sign or leading zeros). */
export function pointer(v: unknown, keys: string[]): unknown {
  for (let i = 0; i < keys.length && v !== undefined; i++) v = getOwn(v, keys[i]);
  return v;
}
