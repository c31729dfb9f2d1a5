/**
 * The `[module]` table and `[dependencies]` of one module's manifest, as module resolution reads
 * them (reference MP2, MP4–MP6, MP14): where the manifest is, name and version present, engine
 * version constraints satisfied, dependency specs parsed.
 *
 * @module
 */
import type { Workspace } from "./workspace.ts";
import { parseTomlDocument } from "./manifest.ts";
import type { JsonValue } from "../graph/graph.ts";
import { type DependencySpec, parseDependency } from "./module_source.ts";
import { satisfiesVersion, VersionConstraintError } from "./version_constraint.ts";

/** A resolution failure: a configuration error (exit 2 before any phase, CL21). */
export class ModuleResolutionError extends Error {
  /**
   * @param message what failed, naming the module or source
   * @param code `dependency_cycle`, `engine_version_unsatisfied`, `manifest_invalid`,
   *   `module_fetch_failed`, `invalid_source`, `unresolved_version`, `checksum_mismatch`
   */
  constructor(message: string, readonly code: string) {
    super(message);
    this.name = "ModuleResolutionError";
  }
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A module's manifest (MP2: at the root or under `data/`) and the root of the module. */
export async function readManifest(
  ws: Workspace,
  label: string,
): Promise<{ doc?: Record<string, JsonValue>; prefix: string; file: string; text?: string }> {
  for (const prefix of ["", "data/"]) {
    const text = await ws.readText(`${prefix}module.toml`);
    if (text !== undefined) {
      const file = `${label}/${prefix}module.toml`;
      return { doc: parseTomlDocument(text, file), prefix, file, text };
    }
  }
  return { prefix: "", file: `${label}/module.toml` };
}

/**
 * Checks `[module]` of a manifest: `name` and `version` present (MP5) and the engine version
 * constraints satisfied (MP6). Returns name and version. With `optional` (the data directory),
 * a manifest without a `[module]` table is accepted.
 */
export function checkModuleTable(
  doc: Record<string, JsonValue>,
  file: string,
  engine: { graphsvc: string; rescile: string },
  optional = false,
): { name: string; version: string } {
  const mod = isTable(doc.module) ? doc.module : undefined;
  // The data directory's manifest may hold declarations only (MP3): no [module] table.
  if (!mod && optional) return { name: "", version: "" };
  if (!mod) {
    throw new ModuleResolutionError(`${file}: [module] table is missing`, "manifest_invalid");
  }
  for (const k of ["name", "version"]) {
    if (typeof mod[k] !== "string" || (mod[k] as string).trim() === "") {
      throw new ModuleResolutionError(
        `${file}: [module] ${k} is missing (required, MP5)`,
        "manifest_invalid",
      );
    }
  }
  const checks: [string, string, string][] = [
    ["graphsvc_version", engine.graphsvc, "graphsvc"],
    ["rescile_version", engine.rescile, "the rescile compatibility level of graphsvc"],
  ];
  for (const [k, running, what] of checks) {
    const c = mod[k];
    if (c === undefined) continue;
    let ok: boolean;
    try {
      if (typeof c !== "string") throw new VersionConstraintError("must be a string");
      ok = satisfiesVersion(running, c);
    } catch (e) {
      throw new ModuleResolutionError(
        `${file}: [module] ${k} = ${JSON.stringify(c)} is not a version constraint: ${
          (e as Error).message
        }`,
        "manifest_invalid",
      );
    }
    if (!ok) {
      throw new ModuleResolutionError(
        `${file}: module '${mod.name}' requires ${k} ${c}, but ${what} is ${running}`,
        "engine_version_unsatisfied",
      );
    }
  }
  return { name: mod.name as string, version: mod.version as string };
}

export function dependenciesOf(doc: Record<string, JsonValue> | undefined, file: string) {
  const out: DependencySpec[] = [];
  if (!doc || doc.dependencies === undefined) return out;
  if (!isTable(doc.dependencies)) {
    throw new ModuleResolutionError(`${file}: [dependencies] must be a table`, "manifest_invalid");
  }
  for (const [key, value] of Object.entries(doc.dependencies)) {
    try {
      out.push(parseDependency(key, value, file));
    } catch (e) {
      throw new ModuleResolutionError((e as Error).message, "invalid_source");
    }
  }
  return out;
}
