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
import {
  BudgetFailure,
  checkValue,
  DEFAULT_LIMITS,
  step,
  type TemplateLimits,
  withBudget,
} from "./budget.ts";

export type { FilterFn, FunctionFn, TemplateLimits, TestFn };

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
  /** Maximum number of compiled templates kept (default 4096). */
  cacheSize?: number;
  /**
   * Evaluation budget of each render (defaults: {@link DEFAULT_LIMITS}); exceeding it is a
   * located {@link TemplateError} with code `budget_exceeded`.
   */
  limits?: Partial<TemplateLimits>;
}

const DEFAULT_NAME = "template";

function unwrap(v: unknown): unknown {
  return v instanceof TeraFloat ? v.value : v;
}

/** A copy of the arguments with floats unwrapped (literal argument objects are shared). */
function unwrapArgs(a: Record<string, unknown>): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const k in a) o[k] = a[k] instanceof TeraFloat ? (a[k] as TeraFloat).value : a[k];
  return o;
}

/** A compiled template, renderable many times. */
export class CompiledTemplate {
  /** @internal */
  constructor(
    readonly name: string,
    readonly source: string,
    private readonly compiled: Compiled,
    private readonly registry: Registry,
    private readonly limits: TemplateLimits = DEFAULT_LIMITS,
  ) {}

  /** Renders with a context; throws {@link TemplateError}. */
  render(context: Record<string, unknown>): string {
    return renderCompiled(
      this.compiled,
      this.registry,
      context,
      this.name,
      this.source,
      this.limits,
    );
  }
}

function renderCompiled(
  compiled: Compiled,
  registry: Registry,
  context: Record<string, unknown>,
  name: string,
  source: string,
  limits: TemplateLimits,
): string {
  const st = new State(context, registry, compiled.macros);
  try {
    withBudget(limits, () => compiled.body(st));
    return st.out;
  } catch (e) {
    throw toRenderError(e, name, source);
  }
}

/** Counts a call against the render's step budget and checks the size of what it returned. */
function budgeted<X, Y, R>(name: string, f: (x: X, y: Y) => R): (x: X, y: Y) => R {
  const what = `the result of \`${name}\``;
  return (x, y) => {
    step();
    const r = f(x, y);
    checkValue(r, what);
    return r;
  };
}

function toRenderError(e: unknown, name: string, source: string): TemplateError {
  if (e instanceof TemplateError) return e;
  if (e instanceof BudgetFailure) {
    return new TemplateError("render", e.message, name, source, Math.max(0, e.pos), {
      cause: e,
      code: e.code,
    });
  }
  if (e instanceof RenderFailure) {
    return new TemplateError("render", e.message, name, source, Math.max(0, e.pos), {
      cause: e.cause ?? e,
    });
  }
  const msg = e instanceof RangeError
    ? "template recursion or data nesting too deep"
    : `unexpected failure: ${e instanceof Error ? e.message : String(e)}`;
  return new TemplateError("render", msg, name, source, 0, { cause: e });
}

/** A cached compile result: the program or why the source does not parse, plus wrappers. */
interface CacheEntry {
  compiled?: Compiled;
  failure?: SyntaxFailure | RangeError;
  /** {@link CompiledTemplate}s handed out by `compile`, by name (same name, same object). */
  templates?: Map<string, CompiledTemplate>;
}

/** Filters, tests, functions and a compile cache. */
export class TemplateEnvironment {
  private readonly registry: Registry;
  private readonly cache = new Map<string, CacheEntry>();
  private readonly cacheSize: number;
  private readonly limits: TemplateLimits;

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
    for (const [k, f] of filters) filters.set(k, budgeted(k, f));
    for (const [k, f] of tests) tests.set(k, budgeted(k, f));
    for (const [k, f] of functions) functions.set(k, budgeted(k, f) as FunctionFn);
    this.registry = { filters, tests, functions };
    this.cacheSize = Math.max(1, options.cacheSize ?? 4096);
    this.limits = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /**
   * Parses and compiles a template (cached by source; `name` only labels errors); throws
   * {@link TemplateError}.
   */
  compile(source: string, name: string = DEFAULT_NAME): CompiledTemplate {
    const compiled = this.#compiled(source, name);
    const entry = this.cache.get(source)!;
    entry.templates ??= new Map();
    let t = entry.templates.get(name);
    if (!t) {
      t = new CompiledTemplate(name, source, compiled, this.registry, this.limits);
      entry.templates.set(name, t);
    }
    return t;
  }

  #compiled(source: string, name: string): Compiled {
    let entry = this.cache.get(source);
    if (entry === undefined) {
      try {
        entry = { compiled: compileNodes(parseTemplate(source)) };
      } catch (e) {
        if (!(e instanceof SyntaxFailure) && !(e instanceof RangeError)) throw e;
        entry = { failure: e };
      }
      // First in, first out: hits cost one lookup (the working set of a build is its rules).
      this.cache.set(source, entry);
      if (this.cache.size > this.cacheSize) {
        this.cache.delete(this.cache.keys().next().value as string);
      }
    }
    if (entry.compiled) return entry.compiled;
    const e = entry.failure;
    if (e instanceof SyntaxFailure) {
      throw new TemplateError("syntax", e.message, name, source, e.pos, { cause: e });
    }
    throw new TemplateError("syntax", "template nested too deeply", name, source, 0, {
      cause: e,
    });
  }

  /** Compiles (or reuses) and renders. */
  render(source: string, context: Record<string, unknown>, name: string = DEFAULT_NAME): string {
    return renderCompiled(
      this.#compiled(source, name),
      this.registry,
      context,
      name,
      source,
      this.limits,
    );
  }
}
