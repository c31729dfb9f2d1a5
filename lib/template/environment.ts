/**
 * The template environment: built-ins plus caller-registered filters, tests and functions,
 * and a bounded cache of compiled templates.
 * @module
 */

import { parseTemplate } from "./parser.ts";
import { type Compiled, compileNodes } from "./compile_nodes.ts";
import { RenderFailure, SyntaxFailure, TemplateError } from "./errors.ts";
import { type FilterFn, type FunctionFn, type Registry, State, type TestFn } from "./runtime.ts";
import { textFilters } from "./builtins/text.ts";
import { collectionFilters } from "./builtins/collections.ts";
import { dateFilters } from "./builtins/date.ts";
import { builtinFunctions, builtinTests } from "./builtins/tests_fns.ts";
import { TeraFloat } from "./value.ts";

export type { FilterFn, FunctionFn, TestFn };

/** Options of a {@link TemplateEnvironment}. */
export interface EnvironmentOptions {
  /** Extra filters (override built-ins of the same name). */
  filters?: Record<string, FilterFn>;
  /** Extra tests. */
  tests?: Record<string, TestFn>;
  /** Extra functions. */
  functions?: Record<string, FunctionFn>;
  /** Variables visible to `get_env` (default: none; the process environment is never read). */
  env?: Record<string, string>;
  /** Maximum number of compiled templates kept (default 512). */
  cacheSize?: number;
}

const DEFAULT_NAME = "template";

function unwrap(v: unknown): unknown {
  return v instanceof TeraFloat ? v.value : v;
}

function unwrapArgs(a: Record<string, unknown>): Record<string, unknown> {
  for (const k in a) if (a[k] instanceof TeraFloat) a[k] = (a[k] as TeraFloat).value;
  return a;
}

/** A compiled template, renderable many times. */
export class CompiledTemplate {
  /** @internal */
  constructor(
    readonly name: string,
    readonly source: string,
    private readonly compiled: Compiled,
    private readonly registry: Registry,
  ) {}

  /** Renders with a context; throws {@link TemplateError}. */
  render(context: Record<string, unknown>): string {
    const st = new State(context, this.registry, this.compiled.macros);
    try {
      this.compiled.body(st);
      return st.out;
    } catch (e) {
      throw this.toError(e);
    }
  }

  private toError(e: unknown): TemplateError {
    if (e instanceof TemplateError) return e;
    if (e instanceof RenderFailure) {
      return new TemplateError("render", e.message, this.name, this.source, Math.max(0, e.pos), {
        cause: e.cause ?? e,
      });
    }
    const msg = e instanceof RangeError
      ? "template recursion or data nesting too deep"
      : `unexpected failure: ${e instanceof Error ? e.message : String(e)}`;
    return new TemplateError("render", msg, this.name, this.source, 0, { cause: e });
  }
}

/** Filters, tests, functions and a compile cache. */
export class TemplateEnvironment {
  private readonly registry: Registry;
  private readonly cache = new Map<string, CompiledTemplate>();
  private readonly cacheSize: number;

  constructor(options: EnvironmentOptions = {}) {
    const filters = new Map<string, FilterFn>();
    for (const t of [textFilters, collectionFilters, dateFilters]) {
      for (const [k, f] of Object.entries(t)) filters.set(k, f);
    }
    for (const [k, f] of Object.entries(options.filters ?? {})) {
      filters.set(k, (v, a) => f(unwrap(v), unwrapArgs(a)));
    }
    const tests = new Map<string, TestFn>(Object.entries(builtinTests));
    for (const [k, f] of Object.entries(options.tests ?? {})) {
      tests.set(k, (v, a) => f(unwrap(v), a.map(unwrap)));
    }
    const functions = new Map<string, FunctionFn>(
      Object.entries(builtinFunctions({ ...(options.env ?? {}) })),
    );
    for (const [k, f] of Object.entries(options.functions ?? {})) {
      functions.set(k, (a) => f(unwrapArgs(a)));
    }
    this.registry = { filters, tests, functions };
    this.cacheSize = Math.max(1, options.cacheSize ?? 512);
  }

  /** Parses and compiles a template (cached by name and source); throws {@link TemplateError}. */
  compile(source: string, name: string = DEFAULT_NAME): CompiledTemplate {
    const key = name + "\u0000" + source;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    let compiled: Compiled;
    try {
      compiled = compileNodes(parseTemplate(source));
    } catch (e) {
      if (e instanceof SyntaxFailure) {
        throw new TemplateError("syntax", e.message, name, source, e.pos, { cause: e });
      }
      if (e instanceof RangeError) {
        throw new TemplateError("syntax", "template nested too deeply", name, source, 0, {
          cause: e,
        });
      }
      throw e;
    }
    const t = new CompiledTemplate(name, source, compiled, this.registry);
    this.cache.set(key, t);
    if (this.cache.size > this.cacheSize) {
      this.cache.delete(this.cache.keys().next().value as string);
    }
    return t;
  }

  /** Compiles (or reuses) and renders. */
  render(source: string, context: Record<string, unknown>, name?: string): string {
    return this.compile(source, name).render(context);
  }
}
