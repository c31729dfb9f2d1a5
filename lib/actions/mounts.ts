/**
 * `[[mount]]` resolution (reference AC15: mounted output artifacts in the bundle's `files/`):
 * which output artifact of the build a mount of a concrete action receives. An action expanded
 * on an origin resource receives that origin's own artifact when the artifacts are per resource
 * of its origin type; otherwise the mount must name exactly one artifact. A missing or ambiguous
 * artifact is an {@link ActionBundleError} naming the action file and the mount, never a silent
 * skip or somebody else's artifact.
 *
 * @module
 */
import type { Artifact } from "../pipeline/context.ts";
import type { MountDeclaration } from "./declarations.ts";
import { ActionBundleError } from "./errors.ts";

/** The action a mount belongs to: its file and, for an expanded action, its origin. */
export interface MountingAction {
  /** Display path of the action file (for messages). */
  file: string;
  /** Origin resource of the concrete action (AC4), absent for a global action. */
  origin?: { type: string; name: string };
}

function describe(m: MountDeclaration): string {
  const of = m.originResource !== undefined ? ` of a ${m.originResource}` : "";
  return `artifact '${m.filename}' of output '${m.resourceType}'${of}`;
}

/**
 * The artifact that mount number `index` of `action` receives; throws {@link ActionBundleError}
 * when there is none (or, for a mount not tied to the action's origin, more than one).
 *
 * @example
 * ```ts
 * import { mountedArtifact } from "./mounts.ts";
 * const artifacts = [
 *   { type: "cfg", name: "a", filename: "c.txt", body: "A", origin: { type: "host", name: "web-1" } },
 *   { type: "cfg", name: "b", filename: "c.txt", body: "B", origin: { type: "host", name: "web-2" } },
 * ];
 * const mount = { resourceType: "cfg", filename: "c.txt", mountPath: "c.txt" };
 * const hit = mountedArtifact({ file: "actions/a.toml", origin: { type: "host", name: "web-2" } }, mount, 0, artifacts);
 * console.log(hit.body); // "B"
 * ```
 */
export function mountedArtifact(
  action: MountingAction,
  mount: MountDeclaration,
  index: number,
  artifacts: readonly Artifact[],
): Artifact {
  const where = `${action.file}: mount[${index}]`;
  const candidates = artifacts.filter((a) =>
    a.type === mount.resourceType && a.filename === mount.filename &&
    (mount.originResource === undefined || a.origin?.type === mount.originResource)
  );
  const origin = action.origin;
  if (origin && (mount.originResource === undefined || mount.originResource === origin.type)) {
    const perOrigin = candidates.filter((a) => a.origin?.type === origin.type);
    if (perOrigin.length > 0 || mount.originResource !== undefined) {
      const own = perOrigin.find((a) => a.origin!.name === origin.name);
      if (own) return own;
      throw new ActionBundleError(
        `${where}: no ${describe(mount)} for ${origin.type} '${origin.name}' in this build`,
      );
    }
  }
  if (candidates.length === 1) return candidates[0];
  if (candidates.length === 0) {
    throw new ActionBundleError(`${where}: no ${describe(mount)} in this build`);
  }
  const names = candidates.map((a) => `'${a.name}'`).join(", ");
  throw new ActionBundleError(
    `${where}: ${candidates.length} outputs match ${describe(mount)} (${names}); ` +
      "set 'origin_resource' or give the artifacts distinct file names",
  );
}
