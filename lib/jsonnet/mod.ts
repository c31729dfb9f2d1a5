/**
 * A Jsonnet interpreter in pure web-standard TypeScript (targets Jsonnet 0.21 and its official
 * test suite, see `scripts/jsonnet-suite.ts`; output is byte-identical to the reference `jsonnet`
 * CLI except that non-integer numbers are printed in the shortest round-trip form).
 *
 * @example
 * ```ts
 * import { evaluateJsonnet } from "./mod.ts";
 * evaluateJsonnet("{ a: 1 + 2 }"); // '{\n   "a": 3\n}\n'
 * ```
 *
 * @module
 */
import { fileImportResolver, type ImportResolver, JsonnetVM } from "./vm.ts";

export { JsonnetError, type TraceFrame } from "./errors.ts";
export type { JsonArray, JsonObject, JsonPrimitive, JsonValue } from "./json_value.ts";
export type { Loc } from "./ast.ts";
export { type JsonRead, ReadLog, readsHold } from "./read_tracking.ts";
export {
  fileImportResolver,
  type ImportResolver,
  type ImportResult,
  JsonnetVM,
  type JsonnetVMOptions,
} from "./vm.ts";

/**
 * Options of {@link evaluateJsonnet}, mirroring the CLI flags.
 *
 * @example
 * ```ts
 * import { evaluateJsonnet, type EvaluateJsonnetOptions } from "./mod.ts";
 * const opts: EvaluateJsonnetOptions = { extStr: { env: "prod" }, stringOutput: true };
 * evaluateJsonnet("std.extVar('env')", opts); // "prod\n"
 * ```
 */
export interface EvaluateJsonnetOptions {
  /** Name used in error messages, `std.thisFile` and relative imports (default `<cmdline>`). */
  filename?: string;
  /** `--ext-str name=value`. */
  extStr?: Record<string, string>;
  /** `--ext-code name=code`. */
  extCode?: Record<string, string>;
  /** `--tla-str name=value`. */
  tlaStr?: Record<string, string>;
  /** `--tla-code name=code`. */
  tlaCode?: Record<string, string>;
  /** `-S`: the result must be a string and is printed raw. */
  stringOutput?: boolean;
  /** `-J dir` library search paths (right-most wins); used with `readFile`. */
  jpath?: string[];
  /** Reads a file for imports (returns undefined when missing). */
  readFile?: (path: string) => string | Uint8Array | undefined;
  /** Full control over import resolution (takes precedence over `readFile`/`jpath`). */
  importResolver?: ImportResolver;
  /** Maximum stack depth (default 500). */
  maxStack?: number;
  /**
   * Evaluation budget: steps (work inside std functions included), wall-clock milliseconds and
   * `maxMemory`, the largest single array/string (default 10 000 000 elements or code units).
   * Exceeding one raises a {@link JsonnetError} with code `budget_exceeded`.
   */
  budget?: { maxSteps?: number; timeoutMs?: number; maxMemory?: number };
}

/**
 * Evaluates a Jsonnet program and returns exactly what `jsonnet` prints on stdout (including the
 * trailing newline). Throws {@link JsonnetError} on static or runtime errors.
 *
 * @example
 * ```ts
 * import { evaluateJsonnet } from "./mod.ts";
 * evaluateJsonnet("local x = 'hi'; x", { stringOutput: true }); // "hi\n"
 * ```
 */
export function evaluateJsonnet(source: string, options: EvaluateJsonnetOptions = {}): string {
  const importResolver = options.importResolver ??
    (options.readFile ? fileImportResolver(options.readFile, options.jpath ?? []) : undefined);
  const vm = new JsonnetVM({
    importResolver,
    extStr: options.extStr,
    extCode: options.extCode,
    tlaStr: options.tlaStr,
    tlaCode: options.tlaCode,
    maxStack: options.maxStack,
    budget: options.budget,
  });
  return vm.evaluateToString(
    source,
    options.filename ?? "<cmdline>",
    options.stringOutput ?? false,
  );
}
