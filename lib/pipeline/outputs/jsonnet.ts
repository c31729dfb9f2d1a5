/**
 * Jsonnet bodies of output rules (reference OU8, T34, spec §2.4 rule 4): external variables
 * (`origin_resource`, every header variable, params) and imports of `.libsonnet` files next to
 * the rule file, resolved over the in-memory layer (no file system access).
 *
 * @module
 */
import type { JsonValue } from "../../graph/graph.ts";
import type { SourceFile } from "../../workspace/sources.ts";
import { type ImportResolver, JsonnetError, JsonnetVM } from "../../jsonnet/mod.ts";
import { RuleError } from "../rules/errors.ts";

/** Evaluation budget of one Jsonnet body (a runaway program fails the rule, not the build). */
export const JSONNET_BUDGET = { maxSteps: 50_000_000 } as const;

/**
 * An import resolver over the files of `rule`'s layer: `import "x.libsonnet"` in the program
 * resolves next to the rule file, imports inside an imported file next to that file.
 *
 * @example
 * ```ts ignore
 * const resolve = layerImportResolver(ruleFile, "output/a.toml#output[0]");
 * resolve("output/a.toml#output[0]", "lib.libsonnet"); // { foundAt: "output/lib.libsonnet", ... }
 * ```
 */
export function layerImportResolver(rule: SourceFile, programName: string): ImportResolver {
  const files = rule.layer.files;
  return (from, path) => {
    const base = from === programName ? rule.relPath : from;
    const dir = base.includes("/") ? base.slice(0, base.lastIndexOf("/")) : "";
    const resolved = normalize(
      path.startsWith("/") ? path.slice(1) : dir ? `${dir}/${path}` : path,
    );
    if (resolved === undefined) return undefined;
    const content = files.get(resolved);
    return content === undefined ? undefined : { foundAt: resolved, content };
  };
}

function normalize(path: string): string | undefined {
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length === 0) return undefined; // never leave the layer
      out.pop();
    } else out.push(seg);
  }
  return out.join("/");
}

/**
 * Evaluates `source` with `extVars` and returns its JSON value. Jsonnet failures become a
 * {@link RuleError} (key `jsonnet`, code `jsonnet_error`) carrying the program line/column.
 *
 * @example
 * ```ts ignore
 * evaluateOutputJsonnet("std.extVar('x') + 1", { x: 1 }, "prog", undefined); // 2
 * ```
 */
export function evaluateOutputJsonnet(
  source: string,
  extVars: Record<string, JsonValue>,
  programName: string,
  importResolver: ImportResolver | undefined,
): JsonValue {
  const vm = new JsonnetVM({
    extVars,
    importResolver,
    budget: JSONNET_BUDGET,
    trace: () => {},
  });
  try {
    return vm.evaluate(source, programName) as JsonValue;
  } catch (e) {
    if (e instanceof JsonnetError) {
      const inProgram = e.loc?.file === programName;
      throw new RuleError(
        `jsonnet error: ${e.message}`,
        "jsonnet",
        "jsonnet_error",
        inProgram && e.line > 0
          ? { name: programName, line: e.line, column: e.column || undefined }
          : undefined,
      );
    }
    throw e;
  }
}
