/**
 * Built-in tests (`defined`, `containing`, `matching`...) and functions (`range`, `now`,
 * `throw`, `get_random`, `get_env`).
 * @module
 */

import type { FunctionFn, TestFn } from "../runtime.ts";
import { describe, isFloat, isInt, isNumber, isObject, num, strictEquals } from "../value.ts";
import { nowRfc3339 } from "./date.ts";
import { checkItems } from "../budget.ts";
import {
  compileUserRegex,
  RegexTranslationError,
  type UserRegex,
} from "../extensions/user_regex.ts";

function maxArgs(name: string, max: number, args: unknown[]): void {
  if (args.length > max) {
    throw new Error(
      max === 0
        ? `Tester \`${name}\` was called with some args but this test doesn't take args`
        : `Tester \`${name}\` was called with ${args.length} args, the max number is ${max}`,
    );
  }
}

function defined(name: string, v: unknown): void {
  if (v === undefined) throw new Error(`Tester \`${name}\` was called on an undefined variable`);
}

function str(name: string, part: string, v: unknown): string {
  if (typeof v === "string") return v;
  throw new Error(`Tester \`${name}\` was called ${part} that isn't a string`);
}

function numberOf(name: string, v: unknown, what: string): number {
  if (isNumber(v)) return num(v);
  throw new Error(`Tester \`${name}\` was called ${what} that isn't a number`);
}

function simple(name: string, f: (v: unknown) => boolean): TestFn {
  return (v, args) => {
    maxArgs(name, 0, args);
    defined(name, v);
    return f(v);
  };
}

/**
 * Compiles the pattern of `is matching` (Rust syntax, linear-time engine, cached); an invalid
 * pattern is a render error naming it.
 */
export function rustRegex(src: string): UserRegex {
  try {
    return compileUserRegex(src);
  } catch (e) {
    if (e instanceof RegexTranslationError) {
      throw new Error(`Tester \`matching\`: ${e.message}`, { cause: e });
    }
    throw e;
  }
}

/** The built-in tests. */
export const builtinTests: Record<string, TestFn> = {
  defined: (v, args) => {
    maxArgs("defined", 0, args);
    return v !== undefined;
  },
  undefined: (v, args) => {
    maxArgs("undefined", 0, args);
    return v === undefined;
  },
  string: simple("string", (v) => typeof v === "string"),
  number: simple("number", (v) => isNumber(v)),
  odd: simple("odd", (v) => numberOf("odd", v, "on a variable") % 2 !== 0),
  even: simple("even", (v) => numberOf("even", v, "on a variable") % 2 === 0),
  iterable: simple("iterable", (v) => Array.isArray(v) || isObject(v)),
  object: simple("object", (v) => isObject(v)),
  divisibleby: (v, args) => {
    maxArgs("divisibleby", 1, args);
    defined("divisibleby", v);
    const x = numberOf("divisibleby", v, "on a variable");
    const p = numberOf("divisibleby", args[0], "with a parameter");
    return x % p === 0;
  },
  starting_with: (v, args) => {
    maxArgs("starting_with", 1, args);
    defined("starting_with", v);
    const s = str("starting_with", "on a variable", v);
    return s.startsWith(str("starting_with", "with a parameter", args[0]));
  },
  ending_with: (v, args) => {
    maxArgs("ending_with", 1, args);
    defined("ending_with", v);
    const s = str("ending_with", "on a variable", v);
    return s.endsWith(str("ending_with", "with a parameter", args[0]));
  },
  containing: (v, args) => {
    maxArgs("containing", 1, args);
    defined("containing", v);
    if (typeof v === "string") return v.includes(str("containing", "with a parameter", args[0]));
    if (Array.isArray(v)) {
      if (args.length === 0) throw new Error("Tester `containing` needs a parameter");
      return v.some((x) => strictEquals(x, args[0]));
    }
    if (isObject(v)) {
      const k = str("containing", "with a parameter", args[0]);
      return Object.prototype.hasOwnProperty.call(v, k) && v[k] !== undefined;
    }
    throw new Error("Tester `containing` can only be used on string, array or map");
  },
  matching: (v, args) => {
    maxArgs("matching", 1, args);
    defined("matching", v);
    const s = str("matching", "on a variable", v);
    return rustRegex(str("matching", "with a parameter", args[0])).test(s);
  },
};

function usizeArg(fn: string, name: string, v: unknown, what: string): number {
  if (isInt(v) && v >= 0) return v;
  throw new Error(
    `Function \`${fn}\` received ${name}=${describe(v)} but \`${what}\` can only be a number`,
  );
}

function boolArg(fn: string, name: string, v: unknown): boolean {
  if (typeof v === "boolean") return v;
  throw new Error(
    `Function \`${fn}\` received ${name}=${describe(v)} but \`${name}\` can only be a boolean`,
  );
}

/** Creates the built-in functions; `get_env` reads the given map, never the process. */
export function builtinFunctions(env: Record<string, string>): Record<string, FunctionFn> {
  return {
    range: (a) => {
      const start = a.start === undefined ? 0 : usizeArg("range", "start", a.start, "start");
      const step = a.step_by === undefined ? 1 : usizeArg("range", "step_by", a.step_by, "step");
      if (a.end === undefined) {
        throw new Error("Function `range` was called without a `end` argument");
      }
      const end = usizeArg("range", "end", a.end, "end");
      if (start > end) {
        throw new Error(
          "Function `range` was called with a `start` argument greater than the `end` one",
        );
      }
      if (step === 0) throw new Error("Function `range` was called with `step_by=0`");
      // Checked before allocating: range(end=100000000) must not build 10^8 items first.
      checkItems(Math.ceil((end - start) / step), "`range`");
      const out: number[] = [];
      for (let i = start; i < end; i += step) out.push(i);
      return out;
    },
    now: (a) => {
      const utc = a.utc === undefined ? false : boolArg("now", "utc", a.utc);
      const ts = a.timestamp === undefined ? false : boolArg("now", "timestamp", a.timestamp);
      if (ts) return Math.floor(Date.now() / 1000);
      return nowRfc3339(utc);
    },
    throw: (a) => {
      if (a.message === undefined) {
        throw new Error("Function `throw` was called without a `message` argument");
      }
      if (typeof a.message !== "string") {
        throw new Error(
          `Function \`throw\` received message=${
            describe(a.message)
          } but \`message\` can only be a string`,
        );
      }
      throw new Error(a.message);
    },
    get_random: (a) => {
      const int = (name: string, v: unknown) => {
        if (isInt(v) && !isFloat(v)) return v;
        throw new Error(
          `Function \`get_random\` received ${name}=${
            describe(v)
          } but \`${name}\` can only be a number`,
        );
      };
      const start = a.start === undefined ? 0 : int("start", a.start);
      if (a.end === undefined) {
        throw new Error("Function `get_random` didn't receive an `end` argument");
      }
      const end = int("end", a.end);
      if (start >= end) throw new Error("Function `get_random`: `start` must be lower than `end`");
      const span = end - start;
      const buf = new Uint32Array(2);
      crypto.getRandomValues(buf);
      const r = (buf[0] * 0x100000000 + buf[1]) % span;
      return start + r;
    },
    get_env: (a) => {
      if (a.name === undefined) {
        throw new Error("Function `get_env` didn't receive a `name` argument");
      }
      if (typeof a.name !== "string") {
        throw new Error(
          `Function \`get_env\` received name=${
            describe(a.name)
          } but \`name\` can only be a string`,
        );
      }
      if (Object.prototype.hasOwnProperty.call(env, a.name)) return env[a.name];
      if (a.default !== undefined) return a.default;
      throw new Error(`Environment variable \`${a.name}\` not found`);
    },
  };
}
