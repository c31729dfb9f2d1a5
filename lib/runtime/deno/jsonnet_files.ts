/**
 * Deno runtime adapter for Jsonnet imports: reads `import`, `importstr` and `importbin` targets
 * from the file system. The interpreter core (lib/jsonnet) stays pure and takes a resolver; this
 * file (with lib/workspace/deno_fs.ts) is the only place under lib/ that uses `Deno.*`.
 *
 * @module
 */
import {
  evaluateJsonnet as evaluatePure,
  type EvaluateJsonnetOptions,
  fileImportResolver,
  type ImportResolver,
} from "../../jsonnet/mod.ts";

/**
 * Why a file exists but cannot be imported (a directory, no permission, an I/O failure). The
 * Jsonnet VM turns it into a runtime `JsonnetError` located at the import expression.
 *
 * @example
 * ```ts
 * import { ImportReadError } from "./jsonnet_files.ts";
 * new ImportReadError("lib", "Is a directory").message; // "lib: Is a directory"
 * ```
 */
export class ImportReadError extends Error {
  /** The path that failed. */
  readonly path: string;
  /** Creates the error. @param path the file @param reason why it failed */
  constructor(path: string, reason: string) {
    super(`${path}: ${reason}`);
    this.name = "ImportReadError";
    this.path = path;
  }
}

/**
 * Reads an import candidate's bytes: `undefined` when it does not exist (the search goes on
 * with the next library path), an {@link ImportReadError} for every other failure — never a raw
 * `Deno.errors.*`. Text is decoded by the VM (invalid UTF-8 becomes U+FFFD, like the reference
 * binary); `importbin` gets the raw bytes.
 *
 * @example
 * ```ts ignore
 * import { readImportFile } from "./jsonnet_files.ts";
 * readImportFile("lib/util.libsonnet"); // Uint8Array, or undefined when missing
 * ```
 */
export function readImportFile(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound || e instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    if (e instanceof Deno.errors.IsADirectory) throw new ImportReadError(path, "Is a directory");
    if (e instanceof Deno.errors.PermissionDenied || e instanceof Deno.errors.NotCapable) {
      throw new ImportReadError(path, "permission denied");
    }
    throw new ImportReadError(path, e instanceof Error ? e.message : String(e));
  }
}

/**
 * An import resolver over the file system with the reference CLI's search order: the importing
 * file's directory, then the `jpath` directories right-most first.
 *
 * @example
 * ```ts ignore
 * import { JsonnetVM } from "../../jsonnet/mod.ts";
 * import { denoImportResolver } from "./jsonnet_files.ts";
 * const vm = new JsonnetVM({ importResolver: denoImportResolver(["vendor"]) });
 * vm.evaluate("import 'k.libsonnet'", "main.jsonnet");
 * ```
 */
export function denoImportResolver(jpath: string[] = []): ImportResolver {
  return fileImportResolver(readImportFile, jpath);
}

/**
 * {@link evaluatePure | evaluateJsonnet} reading imports from the file system by default (relative
 * to `options.filename`, then `options.jpath`). An explicit `importResolver` or `readFile` still
 * takes precedence.
 *
 * @example
 * ```ts ignore
 * import { evaluateJsonnet } from "./jsonnet_files.ts";
 * evaluateJsonnet("(import 'lib.libsonnet').x", { filename: "dir/main.jsonnet" });
 * ```
 */
export function evaluateJsonnet(source: string, options: EvaluateJsonnetOptions = {}): string {
  if (options.importResolver || options.readFile) return evaluatePure(source, options);
  return evaluatePure(source, { ...options, readFile: readImportFile });
}
