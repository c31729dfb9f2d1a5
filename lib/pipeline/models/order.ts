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
        if (originType && r.relationType) writes.add(originType);
        break;
      }
      case "link_resources":
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
 * Stable: among ready chunks the earliest in document order goes first; a cycle is broken at
 * its earliest chunk.
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
  const preds: Set<number>[] = effects.map(() => new Set());
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b) continue;
      for (const t of effects[a].writes) {
        if (t === "*" || !effects[b].reads.has(t)) continue;
        // Creators of a type go before its readers; other writers only before pure readers
        // (two chunks that both modify a type keep document order).
        if (effects[a].creates.has(t) || !effects[b].writes.has(t)) {
          preds[b].add(a);
          break;
        }
      }
    }
  }
  const done = new Set<number>();
  const order: number[] = [];
  while (order.length < n) {
    let next = -1;
    for (let i = 0; i < n; i++) {
      if (done.has(i)) continue;
      if ([...preds[i]].every((p) => done.has(p))) {
        next = i;
        break;
      }
    }
    if (next < 0) {
      for (let i = 0; i < n; i++) {
        if (!done.has(i)) {
          next = i;
          break;
        }
      }
    }
    done.add(next);
    order.push(next);
  }
  return order;
}
