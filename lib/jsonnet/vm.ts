/**
 * The Jsonnet virtual machine: configuration (imports, external variables, TLAs, limits),
 * parse caching and the top-level evaluation/manifestation entry points.
 *
 * @module
 */
import { type ReadLog, trackedExtVar } from "./read_tracking.ts";
import type { Loc, Node } from "./ast.ts";
import { analyze } from "./analyze.ts";
import { JsonnetError } from "./errors.ts";
import { type EvalHost, Evaluator, isStackOverflow, typeName } from "./evaluator.ts";
import type { JsonValue } from "./json_value.ts";
import { fromJson, manifestMultiline, toJson } from "./manifest_json.ts";
import { parse } from "./parser.ts";
import { stdForFile } from "./std_bridge.ts";
import { withAllocGuard } from "./std/limits.ts";
import { Env, Thunk, type Value, VArray, VFunc } from "./values.ts";

/**
 * What an import resolver returns: the resolved path and the file content.
 *
 * @example
 * ```ts
 * import type { ImportResult } from "./vm.ts";
 * const r: ImportResult = { foundAt: "lib/util.libsonnet", content: "{ x: 1 }" };
 * ```
 */
export interface ImportResult {
  /** The resolved path (used for relative imports inside it, errors and `std.thisFile`). */
  foundAt: string;
  /** Text (import, importstr) or bytes (importbin); either is accepted for every kind. */
  content: string | Uint8Array;
}

/**
 * Resolves `import "path"` written in file `importedFrom`; undefined when not found.
 *
 * @example
 * ```ts
 * import type { ImportResolver } from "./vm.ts";
 * const resolver: ImportResolver = (_from, path) =>
 *   path === "k.libsonnet" ? { foundAt: path, content: "{ k: 1 }" } : undefined;
 * ```
 */
export type ImportResolver = (importedFrom: string, path: string) => ImportResult | undefined;

/**
 * Options of {@link JsonnetVM}.
 *
 * @example
 * ```ts
 * import type { JsonnetVMOptions } from "./vm.ts";
 * const opts: JsonnetVMOptions = { extVars: { origin: { name: "x" } }, budget: { timeoutMs: 500 } };
 * ```
 */
export interface JsonnetVMOptions {
  /** Resolves imports; without it every import fails. */
  importResolver?: ImportResolver;
  /** External variables given as JSON values (no re-parsing). */
  extVars?: Record<string, JsonValue>;
  /** External variables given as strings (`--ext-str`). */
  extStr?: Record<string, string>;
  /** External variables given as Jsonnet code (`--ext-code`). */
  extCode?: Record<string, string>;
  /** Top-level arguments as strings (`--tla-str`). */
  tlaStr?: Record<string, string>;
  /** Top-level arguments as Jsonnet code (`--tla-code`). */
  tlaCode?: Record<string, string>;
  /** Top-level arguments as JSON values. */
  tlaVars?: Record<string, JsonValue>;
  /** Maximum stack depth (default 500). */
  maxStack?: number;
  /**
   * Evaluation budget per evaluation: maximum steps (work done inside std functions counts too),
   * wall-clock milliseconds, and `maxMemory`, the largest single array or string (elements or
   * code units, default 10 000 000) a program may build. Exceeding any of them raises a
   * {@link JsonnetError} with code `budget_exceeded`.
   */
  budget?: { maxSteps?: number; timeoutMs?: number; maxMemory?: number };
  /**
   * Notes what the evaluation reads of `extVars` (`read_tracking.ts`): another set of JSON
   * variables on which every noted read gives the same answer gives the same result.
   */
  readLog?: ReadLog;
  /** Receives `std.trace` output (default: console.error). */
  trace?: (message: string) => void;
}

const PARSE_CACHE = new Map<string, Node>();
const PARSE_CACHE_MAX = 512;

/** Parses and statically checks a program, memoized by (filename, source). */
export function compile(source: string, filename: string): Node {
  const key = filename + "\u0000" + source;
  const hit = PARSE_CACHE.get(key);
  if (hit) return hit;
  const ast = parse(source, filename);
  analyze(ast);
  if (PARSE_CACHE.size >= PARSE_CACHE_MAX) {
    PARSE_CACHE.delete(PARSE_CACHE.keys().next().value!);
  }
  PARSE_CACHE.set(key, ast);
  return ast;
}

const TOP: Loc = { file: "During manifestation", line: 0, col: 0, endLine: 0, endCol: 0 };

/**
 * A reusable interpreter configuration. Each evaluate call is independent; parsed programs are
 * cached by source text, so evaluating the same program repeatedly is cheap.
 *
 * @example
 * ```ts
 * import { JsonnetVM } from "./vm.ts";
 * const vm = new JsonnetVM({ extVars: { n: 2 } });
 * vm.evaluate("{ double: std.extVar('n') * 2 }"); // { double: 4 }
 * vm.evaluateToString("[1]"); // "[\n   1\n]\n"
 * ```
 */
export class JsonnetVM {
  /** Creates a VM with the given configuration. */
  constructor(private readonly opts: JsonnetVMOptions = {}) {}

  /** Evaluates a program and returns its value as plain JSON. */
  evaluate(source: string, filename = "<cmdline>"): JsonValue {
    return this.run(source, filename, (ev, v) => toJson(ev, v, TOP));
  }

  /** Evaluates a program and returns what the `jsonnet` CLI would print on stdout. */
  evaluateToString(source: string, filename = "<cmdline>", stringOutput = false): string {
    return this.run(source, filename, (ev, v) => {
      if (stringOutput) {
        if (typeof v !== "string") {
          ev.error(undefined, "expected string result, got: " + typeName(v));
        }
        return v + "\n";
      }
      return manifestMultiline(ev, v, TOP) + "\n";
    });
  }

  /** Shared driver: evaluates, calls a top-level function with TLAs, then converts. */
  private run<T>(source: string, filename: string, out: (ev: Evaluator, v: Value) => T): T {
    const o = this.opts;
    const imports = new Map<string, Value>();
    const extCache = new Map<string, Value>();
    const deadline = o.budget?.timeoutMs !== undefined
      ? Date.now() + o.budget.timeoutMs
      : undefined;
    const evalFile = (src: string, file: string): Value =>
      ev.eval(compile(src, file), rootEnv(file));
    const host: EvalHost = {
      importFile: (kind, path, from, loc) => {
        let r: ImportResult | undefined;
        try {
          r = o.importResolver?.(from, path);
        } catch (e) {
          if (e instanceof JsonnetError || isStackOverflow(e)) throw e;
          const why = e instanceof Error ? e.message : String(e);
          ev.error(loc, `couldn't open import "${path}": ${why}`);
        }
        if (!r) {
          ev.error(
            loc,
            `couldn't open import "${path}": no match locally or in the Jsonnet library paths.`,
          );
        }
        const key = kind + "\u0000" + r.foundAt;
        const hit = imports.get(key);
        if (hit !== undefined) return hit;
        let v: Value;
        if (kind === "importbin") {
          const bytes = typeof r.content === "string"
            ? new TextEncoder().encode(r.content)
            : r.content;
          ev.alloc(bytes.length, loc);
          v = new VArray(Array.from(bytes, (b) => Thunk.of(b)));
        } else {
          // Invalid UTF-8 becomes U+FFFD, as the reference binary reads it.
          const text = typeof r.content === "string"
            ? r.content
            : new TextDecoder().decode(r.content);
          v = kind === "importstr" ? text : evalFile(text, r.foundAt);
        }
        imports.set(key, v);
        return v;
      },
      extVar: (name) => {
        const hit = extCache.get(name);
        if (hit !== undefined) return hit;
        let v: Value | undefined;
        if (o.extVars && Object.hasOwn(o.extVars, name)) {
          v = o.readLog
            ? trackedExtVar(name, o.extVars[name], o.readLog)
            : fromJson(o.extVars[name]);
        } else if (o.extStr && Object.hasOwn(o.extStr, name)) v = o.extStr[name];
        else if (o.extCode && Object.hasOwn(o.extCode, name)) {
          v = evalFile(o.extCode[name], `<extvar:${name}>`);
        }
        if (v !== undefined) extCache.set(name, v);
        return v;
      },
      trace: o.trace ?? ((m) => console.error(m)),
    };
    const ev: Evaluator = new Evaluator(host, {
      maxStack: o.maxStack,
      maxSteps: o.budget?.maxSteps,
      maxMemory: o.budget?.maxMemory,
      deadline,
    });
    try {
      return withAllocGuard((n) => ev.alloc(n, ev.stack.at(-1)?.loc ?? TOP), () => {
        let v = evalFile(source, filename);
        if (v instanceof VFunc) v = this.callTopLevel(ev, v, evalFile);
        return out(ev, v);
      });
    } catch (e) {
      if (e instanceof JsonnetError) throw e;
      const top = ev.stack.at(-1)?.loc;
      // The JS stack ran out before the Jsonnet stack limit (deep data, deep parse trees).
      if (isStackOverflow(e)) ev.error(top, "max stack frames exceeded.", "max_stack");
      // Other RangeErrors are allocations beyond what the JS engine allows.
      if (e instanceof RangeError) ev.error(top, e.message, "budget_exceeded");
      throw e;
    }
  }

  /** Calls a top-level function with the configured TLAs (named arguments). */
  private callTopLevel(
    ev: Evaluator,
    fn: VFunc,
    evalFile: (src: string, file: string) => Value,
  ): Value {
    const o = this.opts;
    const named: [string, Thunk][] = [];
    for (const [k, v] of Object.entries(o.tlaVars ?? {})) named.push([k, Thunk.of(fromJson(v))]);
    for (const [k, v] of Object.entries(o.tlaStr ?? {})) named.push([k, Thunk.of(v)]);
    for (const [k, v] of Object.entries(o.tlaCode ?? {})) {
      named.push([k, new Thunk(() => evalFile(v, `<top-level-arg:${k}>`))]);
    }
    return ev.call(fn, [], named, TOP);
  }
}

function rootEnv(file: string): Env {
  const env = new Env(null, new Map());
  env.set("std", Thunk.of(stdForFile(file)));
  return env;
}

/**
 * Builds an import resolver with the CLI's search order: the importing file's directory, then the
 * jpath directories right-most first.
 *
 * @example
 * ```ts
 * import { fileImportResolver, JsonnetVM } from "./vm.ts";
 * const files: Record<string, string> = { "/lib/a.libsonnet": "{ a: 1 }" };
 * const vm = new JsonnetVM({ importResolver: fileImportResolver((p) => files[p], ["/lib"]) });
 * vm.evaluate("(import 'a.libsonnet').a", "/src/main.jsonnet"); // 1
 * ```
 */
export function fileImportResolver(
  readFile: (path: string) => string | Uint8Array | undefined,
  jpath: string[] = [],
): ImportResolver {
  return (from, path) => {
    const candidates: string[] = [];
    if (path.startsWith("/")) candidates.push(path);
    else {
      const slash = from.lastIndexOf("/");
      candidates.push(slash >= 0 ? from.slice(0, slash + 1) + path : path);
      for (let i = jpath.length - 1; i >= 0; i--) {
        const dir = jpath[i];
        candidates.push(dir.endsWith("/") ? dir + path : `${dir}/${path}`);
      }
    }
    for (const c of candidates) {
      const content = readFile(c);
      if (content !== undefined) return { foundAt: c, content };
    }
    return undefined;
  };
}

export { JsonnetError };
