/**
 * Dependency ordering of model chunks: a chunk that writes a resource type (creates it, sets its
 * properties or relations) runs before chunks that read that type (iterate it, join with it,
 * copy into it), so one pass plus a confirming pass suffice on real modules. Ties and cycles
 * keep document order (reference O9); the fixpoint loop covers what the analysis cannot see
 * (templated types, traversal inside templates).
 *
 * @module
 */
import type { ModelRule } from "./compile.ts";

/** Types a chunk reads and writes. */
export interface ChunkEffects {
  /** Types read. */
  reads: Set<string>;
  /** Types written: resources created, properties or relations set (`*` = unknown). */
  writes: Set<string>;
  /** Types whose resources the chunk creates (subset of `writes`). */
  creates: Set<string>;
}

/**
 * Computes the read/write sets of a chunk.
 *
 * @example
 * ```ts
 * import { chunkEffects } from "./order.ts";
 * const e = chunkEffects("server", [{ kind: "link_resources", with: "app", copyProperties: [] }]);
 * console.log([...e.reads], [...e.writes]); // ["server", "app"] ["server"]
 * ```
 */
export function chunkEffects(
  originType: string | undefined,
  rules: readonly ModelRule[],
): ChunkEffects {
  const reads = new Set<string>();
  const writes = new Set<string>();
  const creates = new Set<string>();
  if (originType) reads.add(originType);
  for (const r of rules) {
    switch (r.kind) {
      case "create_resource": {
        const t = r.createFrom?.as ?? r.resourceType ?? r.createFrom?.property;
        const created = t === undefined || t.includes("{") ? "*" : t;
        writes.add(created);
        creates.add(created);
        if (r.createFrom?.propertyOrigin) {
          for (const s of r.createFrom.propertyOrigin.split(".")) reads.add(s);
        }
        if (r.copyFrom) reads.add(r.copyFrom.property);
        break;
      }
      case "link_resources":
        // Pulled properties and new relations both show up in the origin's template view.
        reads.add(r.with);
        if (originType) writes.add(originType);
        if (r.createRelation) writes.add(r.with);
        break;
      case "copy_property":
        if (r.to) {
          reads.add(r.to);
          writes.add(r.to);
        } else if (r.from) {
          for (const s of r.from) reads.add(s);
          if (originType) writes.add(originType);
        }
        break;
      case "retype_relation":
        break;
    }
  }
  return { reads, writes, creates };
}

/**
 * Orders chunks so writers of a type precede its readers; returns indexes into `effects`.
 * Creating a type is a strong dependency, modifying one (properties, relations) a weak one.
 * Stable: among ready chunks the earliest in document order goes first; a cycle is broken by
 * ignoring weak dependencies, then at its earliest chunk.
 *
 * @example
 * ```ts
 * import { orderChunks } from "./order.ts";
 * const reader = { reads: new Set(["applications"]), writes: new Set(["connections"]), creates: new Set<string>() };
 * const writer = { reads: new Set(["applications"]), writes: new Set(["applications"]), creates: new Set<string>() };
 * console.log(orderChunks([reader, writer])); // [1, 0]
 * ```
 */
export function orderChunks(effects: readonly ChunkEffects[]): number[] {
  const n = effects.length;
  // strong: a creates a type b reads; weak: a modifies a type b only reads.
  const strong: Set<number>[] = effects.map(() => new Set());
  const weak: Set<number>[] = effects.map(() => new Set());
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      for (const t of effects[a].writes) {
        if (t === "*" || !effects[b].reads.has(t)) continue;
        if (effects[a].creates.has(t) && !effects[b].creates.has(t)) strong[b].add(a);
        else if (!effects[b].writes.has(t)) weak[b].add(a);
      }
    }
  }
  const done = new Set<number>();
  const order: number[] = [];
  const ready = (i: number, useWeak: boolean) =>
    !done.has(i) && [...strong[i]].every((p) => done.has(p)) &&
    (!useWeak || [...weak[i]].every((p) => done.has(p)));
  while (order.length < n) {
    // Prefer a chunk with every dependency met; in a cycle, drop the weak (modification)
    // edges first, then break at the earliest chunk in document order.
    let next = -1;
    for (const useWeak of [true, false]) {
      for (let i = 0; i < n && next < 0; i++) if (ready(i, useWeak)) next = i;
      if (next >= 0) break;
    }
    if (next < 0) { for (let i = 0; i < n && next < 0; i++) if (!done.has(i)) next = i; }
    done.add(next);
    order.push(next);
  }
  return order;
}
