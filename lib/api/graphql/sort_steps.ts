/**
 * Sorting resources by name in time slices (issue 15: readers never wait): runs of a few thousand
 * are sorted natively, then merged pairwise with a pause every few thousand elements, so a type
 * with 100k resources is ordered beside readers instead of in one ~50 ms block.
 *
 * @module
 */
import { compareStrings, type Resource } from "../../graph/graph.ts";
import type { Steps } from "../../pipeline/slicing.ts";

/** Elements sorted natively at once, and merged between two pauses. */
const RUN = 4096;

const byName = (a: Resource, b: Resource) => compareStrings(a.name, b.name);

/**
 * `resources` ordered by name (code-unit order, as `Graph.resourcesOfSorted`), as steps; the
 * input is not changed. Names must be unique (they are within a type).
 *
 * @example
 * ```ts
 * import { runSteps } from "../../pipeline/slicing.ts";
 * import { sortByNameSteps } from "./sort_steps.ts";
 * const r = (name: string, id: number) => ({ id, type: "t", name, properties: { name } });
 * console.log(runSteps(sortByNameSteps([r("b", 0), r("a", 1)])).map((x) => x.name)); // ["a", "b"]
 * ```
 */
export function* sortByNameSteps(resources: readonly Resource[]): Steps<Resource[]> {
  const n = resources.length;
  let from: Resource[] = resources.slice();
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(n, lo + RUN);
    const run = from.slice(lo, hi).sort(byName);
    for (let i = 0; i < run.length; i++) from[lo + i] = run[i];
    if (hi < n) yield;
  }
  let to: Resource[] = new Array(n);
  let budget = RUN;
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width);
      const hi = Math.min(n, lo + 2 * width);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        to[k++] = compareStrings(from[j].name, from[i].name) < 0 ? from[j++] : from[i++];
        if (--budget === 0) {
          budget = RUN;
          yield;
        }
      }
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  return from;
}
