/**
 * Error types raised by the Jsonnet interpreter.
 *
 * @module
 */
import { formatLoc, type Loc } from "./ast.ts";

/**
 * One entry of a Jsonnet stack trace.
 *
 * @example
 * ```ts
 * import type { TraceFrame } from "./errors.ts";
 * const f: TraceFrame = {
 *   loc: { file: "a.jsonnet", line: 1, col: 1, endLine: 1, endCol: 5 },
 *   name: "function <f>",
 * };
 * ```
 */
export interface TraceFrame {
  /** Source span of the active expression (a call site for outer frames). */
  loc: Loc;
  /** Description of the enclosing context, e.g. `function <f>` or `object <anonymous>`. */
  name: string;
}

/**
 * Why the host stopped an evaluation: a step/time/memory budget or the stack depth limit.
 *
 * @example
 * ```ts
 * import type { JsonnetErrorCode } from "./errors.ts";
 * const c: JsonnetErrorCode = "budget_exceeded";
 * ```
 */
export type JsonnetErrorCode = "budget_exceeded" | "max_stack";

/**
 * A static (lexing/parsing) or runtime Jsonnet error with its source location and stack trace.
 * `message` is formatted like the reference binary's stderr output.
 *
 * @example
 * ```ts
 * import { evaluateJsonnet, JsonnetError } from "./mod.ts";
 * try {
 *   evaluateJsonnet("error 'boom'");
 * } catch (e) {
 *   if (e instanceof JsonnetError) console.log(e.detail, e.line, e.column); // boom 1 1
 * }
 * ```
 */
export class JsonnetError extends Error {
  /** `"STATIC ERROR"` or `"RUNTIME ERROR"`. */
  readonly kind: "STATIC ERROR" | "RUNTIME ERROR";
  /** The bare message without location or trace. */
  readonly detail: string;
  /** Where the error occurred (undefined when unknown, e.g. during manifestation). */
  readonly loc?: Loc;
  /** The stack trace, innermost first. */
  readonly frames: TraceFrame[];
  /**
   * A machine-readable reason for errors raised by the host's limits rather than the program:
   * `budget_exceeded` (step, time or memory budget) or `max_stack` (stack depth); else undefined.
   */
  readonly code?: "budget_exceeded" | "max_stack";

  /** Creates an error; `message` is rendered from the parts. */
  constructor(
    kind: "STATIC ERROR" | "RUNTIME ERROR",
    detail: string,
    loc?: Loc,
    frames: TraceFrame[] = [],
    code?: JsonnetErrorCode,
  ) {
    super(JsonnetError.render(kind, detail, loc, frames));
    this.name = "JsonnetError";
    this.kind = kind;
    this.detail = detail;
    this.loc = loc;
    this.frames = frames;
    if (code !== undefined) this.code = code;
  }

  /** File of the error location ("" when unknown). */
  get file(): string {
    return this.loc?.file ?? "";
  }
  /** 1-based line of the error location (0 when unknown). */
  get line(): number {
    return this.loc?.line ?? 0;
  }
  /** 1-based column of the error location (0 when unknown). */
  get column(): number {
    return this.loc?.col ?? 0;
  }

  /** Formats the message like the reference binary (long traces are elided in the middle). */
  private static render(
    kind: string,
    detail: string,
    loc: Loc | undefined,
    frames: TraceFrame[],
  ): string {
    if (kind === "STATIC ERROR") {
      return `${kind}: ${loc ? formatLoc(loc) + ": " : ""}${detail}`;
    }
    const lines = [`${kind}: ${detail}`];
    const shown = frames.length > 20
      ? [...frames.slice(0, 10), null, ...frames.slice(-10)]
      : frames;
    for (const f of shown) {
      lines.push(f ? `\t${formatLoc(f.loc)}\t${f.name}` : "\t...");
    }
    return lines.join("\n");
  }
}

/** Internal: thrown by builtins without location; the evaluator attaches one. */
export class BuiltinError extends Error {
  /** @param message the reason */
  constructor(message: string) {
    super(message);
    this.name = "BuiltinError";
  }
}
