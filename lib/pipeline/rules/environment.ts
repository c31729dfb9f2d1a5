/**
 * Shared machinery for phases that run TOML rule files (models, compliance, outputs): loading
 * and parsing the files with locations, template rendering with rule-aware errors, `json!`
 * reading with a per-build cache, and the per-origin template scope of a chunk (header data
 * evaluated in the iteration context).
 *
 * @module
 */
import type { JsonValue, Resource } from "../../graph/graph.ts";
import type { PhaseContext } from "../context.ts";
import type { SourceFile } from "../../workspace/sources.ts";
import { filesIn } from "../../workspace/sources.ts";
import { ParseError } from "../../formats/errors.ts";
import {
  parseRuleFile,
  type RuleChunk,
  type RuleFile,
  type RuleFileOptions,
} from "../../formats/toml.ts";
import { RuleError } from "./errors.ts";
import {
  type CompiledHeader,
  compileHeader,
  evaluateHeader,
  type HeaderEnv,
  JsonQueryCache,
} from "./header.ts";
import { buildContext, renderRuleString, type ScopeBase } from "./scope.ts";
import { ViewCache } from "./view.ts";

/** A parsed rule file with its source. */
export interface LoadedRuleFile {
  /** The file. */
  source: SourceFile;
  /** Its chunks. */
  parsed: RuleFile;
}

/**
 * Parses every `*.toml` of `folder` across layers (reference O9 order). Files that fail to parse
 * are reported as build errors (with line and column) and left out.
 *
 * @example
 * ```ts
 * import { loadRuleFiles } from "./environment.ts";
 * // const files = loadRuleFiles(ctx, "models", { blockKinds: ["create_resource"] }, "models");
 * console.log(typeof loadRuleFiles); // "function"
 * ```
 */
export function loadRuleFiles(
  ctx: PhaseContext,
  folder: string,
  options: RuleFileOptions,
  phase: string,
): LoadedRuleFile[] {
  const out: LoadedRuleFile[] = [];
  for (const source of filesIn(ctx.sources, folder, [".toml"])) {
    try {
      out.push({ source, parsed: parseRuleFile(source.text, source.displayPath, options) });
    } catch (e) {
      if (!(e instanceof ParseError)) throw e;
      ctx.issues.error(e.code, e.reason, {
        file: source.displayPath,
        line: e.line,
        column: e.column,
        phase,
      });
    }
  }
  return out;
}

/** A chunk prepared for evaluation: compiled header and its static part. */
export interface PreparedChunk {
  /** The file. */
  source: SourceFile;
  /** The chunk. */
  chunk: RuleChunk;
  /** Compiled header entries. */
  header: CompiledHeader[];
  /** Values of the static header entries (evaluated once, on first use). */
  staticVars?: Record<string, unknown>;
  /** Scope base (params, module identity). */
  base: ScopeBase;
}

/** Per-build rule evaluation environment. */
export class RuleEnvironment {
  /** The phase context. */
  readonly ctx: PhaseContext;
  /** Phase name used in issues. */
  readonly phase: string;
  readonly #json = new JsonQueryCache();
  /** Views of resources, shared while they do not change. */
  readonly views: ViewCache;

  /**
   * Creates the environment of one build phase.
   *
   * @param ctx phase context
   * @param phase phase name for issues (`models`, `compliance`, `outputs`)
   */
  constructor(ctx: PhaseContext, phase: string) {
    this.ctx = ctx;
    this.phase = phase;
    this.views = new ViewCache(ctx.graph);
  }

  /** Template scope base for a file: params and the `module` identity of its layer. */
  scopeBase(source: SourceFile): ScopeBase {
    const mod = this.ctx.manifest.modules.find((m) => m.layer === source.layer.id);
    return {
      params: this.ctx.params,
      module: mod
        ? {
          name: mod.name,
          version: mod.version,
          ...(mod.description ? { description: mod.description } : {}),
        }
        : undefined,
      resourceAliases: source.layer.resourceAliases,
    };
  }

  /** Renders a rule string (throws RuleError with `key`). */
  render(
    source: string,
    context: Record<string, unknown>,
    file: string,
    label: string,
    key: string,
  ): string {
    return renderRuleString(this.ctx.templates, source, context, `${file}: ${label}`, key);
  }

  /** Reads a `json!` file referenced from `from` (reference A25). */
  readJson(ref: string, from: SourceFile, key: string): JsonValue {
    let found: { path: string; value: JsonValue } | undefined;
    try {
      found = this.ctx.readInput(ref, from);
    } catch (e) {
      if (e instanceof ParseError) {
        throw new RuleError(`invalid JSON in '${e.file}': ${e.reason}`, key, "json_input_invalid");
      }
      throw e;
    }
    if (!found) {
      throw new RuleError(
        `json! file '${ref}' not found (looked in input/, next to the rule file, and the data directory)`,
        key,
        "json_input_missing",
      );
    }
    return found.value;
  }

  /**
   * Compiles a chunk's header. Throws RuleError for reserved names and malformed directives.
   * Static entries (inline values, `json!` files) are evaluated on first use, so a chunk whose
   * origin type has no resources never reads its files.
   */
  prepareChunk(source: SourceFile, chunk: RuleChunk): PreparedChunk {
    const header = compileHeader(chunk.header);
    for (const h of header) {
      for (const k of h.ignored ?? []) {
        const pos = chunk.header.find((e) => e.key === h.key)?.position;
        this.ctx.issues.warn(
          "unknown_key",
          `unknown key '${k}' next to "json!" is ignored (the query key is 'jmespath'); the whole file is used`,
          {
            file: source.displayPath,
            line: pos?.line,
            column: pos?.column,
            rule: `chunk ${chunk.number}, header ${h.key}.${k}`,
            phase: this.phase,
          },
        );
      }
    }
    return { source, chunk, header, base: this.scopeBase(source) };
  }

  #staticVars(prepared: PreparedChunk): Record<string, unknown> {
    if (prepared.staticVars) return prepared.staticVars;
    const context = buildContext(prepared.base, {}, {});
    const env = this.headerEnv(prepared.source, prepared.chunk, "header");
    prepared.staticVars = evaluateHeader(prepared.header, context, env, this.#json);
    return prepared.staticVars;
  }

  /** The {@link HeaderEnv} of a chunk. */
  headerEnv(source: SourceFile, chunk: RuleChunk, what: string): HeaderEnv {
    return {
      render: (s, c, key) =>
        this.render(s, c, source.displayPath, `chunk ${chunk.number}, ${what} ${key}`, key),
      readJson: (ref, key) => this.readJson(ref, source, key),
    };
  }

  /**
   * The template context of one iteration: parameters, header variables (dynamic ones rendered
   * now, with `origin_resource` in scope) and `extra`. Returns the context and the header vars.
   */
  iterationScope(
    prepared: PreparedChunk,
    origin: Resource | undefined,
    extra: Record<string, unknown> = {},
  ): { context: Record<string, unknown>; vars: Record<string, unknown> } {
    const e: Record<string, unknown> = { ...extra };
    if (origin) e.origin_resource = this.views.view(origin);
    const vars = { ...this.#staticVars(prepared) };
    const context = buildContext(prepared.base, vars, e);
    if (prepared.header.some((h) => !h.static)) {
      evaluateHeader(
        prepared.header,
        context,
        this.headerEnv(prepared.source, prepared.chunk, "header"),
        this.#json,
        vars,
        true,
      );
      // reserved variables win over header keys of the same name
      Object.assign(context, e);
    }
    return { context, vars };
  }
}
