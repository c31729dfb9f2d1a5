/**
 * Engine version constraints of `[module]` (reference MP4–MP6): comma-separated comparators
 * `>=`, `>`, `<=`, `<`, `=` and npm-style `^x.y.z` / `~x.y.z`.
 *
 * @module
 */

/** A constraint that cannot be parsed. */
export class VersionConstraintError extends Error {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "VersionConstraintError";
  }
}

type Triple = [number, number, number];

/**
 * Parses `x`, `x.y` or `x.y.z` (a leading `v` and any pre-release/build suffix are ignored).
 *
 * @example
 * ```ts
 * import { parseVersion } from "./version_constraint.ts";
 * parseVersion("v1.4"); // [1, 4, 0]
 * ```
 */
export function parseVersion(text: string): Triple {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(text.trim());
  if (!m) throw new VersionConstraintError(`'${text}' is not a version`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

/** Negative, zero or positive as `a` is lower than, equal to or higher than `b`. */
export function compareVersions(a: string | Triple, b: string | Triple): number {
  const x = typeof a === "string" ? parseVersion(a) : a;
  const y = typeof b === "string" ? parseVersion(b) : b;
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

/**
 * Whether `version` satisfies `constraint` (every comma-separated comparator must hold; a bare
 * version means `=`). Throws {@link VersionConstraintError} for a malformed constraint.
 *
 * @example
 * ```ts
 * import { satisfiesVersion } from "./version_constraint.ts";
 * satisfiesVersion("0.1.195", ">=0.1.193"); // true
 * satisfiesVersion("1.3.0", "^1.2.0, <1.3"); // false
 * ```
 */
export function satisfiesVersion(version: string, constraint: string): boolean {
  const v = parseVersion(version);
  const parts = constraint.split(",").map((p) => p.trim()).filter((p) => p !== "");
  if (parts.length === 0) throw new VersionConstraintError(`empty version constraint`);
  return parts.every((part) => {
    const m = /^(>=|<=|>|<|=|==|\^|~)?\s*(\S+)$/.exec(part);
    if (!m) throw new VersionConstraintError(`'${part}' is not a version comparator`);
    const op = m[1] ?? "=";
    const target = parseVersion(m[2]);
    const c = compareVersions(v, target);
    switch (op) {
      case ">=":
        return c >= 0;
      case ">":
        return c > 0;
      case "<=":
        return c <= 0;
      case "<":
        return c < 0;
      case "=":
      case "==":
        return c === 0;
      case "^": {
        // Same left-most non-zero component, not lower.
        if (c < 0) return false;
        if (target[0] > 0) return v[0] === target[0];
        if (target[1] > 0) return v[0] === 0 && v[1] === target[1];
        return v[0] === 0 && v[1] === 0 && v[2] === target[2];
      }
      default: // "~": same major.minor, not lower.
        return c >= 0 && v[0] === target[0] && v[1] === target[1];
    }
  });
}
