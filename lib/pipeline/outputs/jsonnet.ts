/**
 * Jsonnet bodies of output rules (reference OU8, T34, spec §2.4 rule 4): external variables
 * (`origin_resource`, every header variable, params) and imports of `.libsonnet` files next to
 * the rule file, resolved over the in-memory layer (no file system access).
 * Relation expansion follows `plainResource` of the rule view (T34).
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import { relatedVia, relationKeys } from "../rules/view.ts";
import type { SourceFile } from "../../workspace/sources.ts";
import { type ImportResolver, JsonnetError, JsonnetVM, type ReadLog } from "../../jsonnet/mod.ts";
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
  readLog?: ReadLog,
): JsonValue {
  const vm = new JsonnetVM({
    extVars,
    readLog,
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

/**
 * Memoised plain JSON copies of resources ({@link plainResource} shape), valid while the graph
 * does not change — true during output evaluation, whose writes are deferred. Related resources
 * reached from many origins are copied once instead of once per origin.
 *
 * @example
 * ```ts ignore
 * const cache = new PlainResourceCache(graph);
 * cache.get(origin, VIEW_JSON_DEPTH); // same shape as plainResource(graph, origin, 2)
 * ```
 */
export class PlainResourceCache {
  readonly #graph: Graph;
  readonly #byDepth = new Map<number, Map<number, Record<string, JsonValue>>>();

  /** @param graph the graph to read */
  constructor(graph: Graph) {
    this.#graph = graph;
  }

  /** The plain copy of `resource` with relations expanded `depth` levels. */
  get(resource: Resource, depth: number): Record<string, JsonValue> {
    let m = this.#byDepth.get(depth);
    if (!m) this.#byDepth.set(depth, m = new Map());
    const hit = m.get(resource.id);
    if (hit) return hit;
    const out: Record<string, JsonValue> = { ...resource.properties };
    if (depth > 0) {
      for (const key of relationKeys(this.#graph, resource)) {
        out[key] = relatedVia(this.#graph, resource, key).map((x) =>
          this.get(x.resource, depth - 1)
        );
      }
    }
    m.set(resource.id, out);
    return out;
  }
}
