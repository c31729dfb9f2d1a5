/**
 * Auto-linking replayed from the previous build (reference M60–M64, A16–A20), for an asset replay
 * (`asset_replay.ts`) in which every changed file kept its keys in their order: the new graph
 * then has the previous graph's resources under the same ids, and a resource whose row did not
 * change links exactly as before. Valid only when the previous build reported no missing link
 * target (so every unchanged resource resolved all its names) and there are no retype rules.
 *
 * The three link runs of a build become: after assets, the unchanged resources get copies of
 * their previous relations and the fresh rows are linked as auto-linking does, walking the
 * resources in id order (the order of relation creation in a full build); after models, nothing
 * (no rule ran, no target appeared); after compliance, the names of fresh rows that resolve to
 * nothing are reported, in id order.
 *
 * @module
 */
import type { Graph, Resource } from "../../graph/graph.ts";
import type { IssueCollector } from "../issues.ts";
import { splitNames } from "../linking.ts";
import type { Steps } from "../slicing.ts";

/** A missing link target of a fresh row: the property, the name and the target type. */
type Missing = [key: string, name: string, type: string];

/** Resources linked between two pause points. */
const RESOURCES_PER_STEP = 64;

/** State shared by the three replayed link runs of one build. */
export class LinkReplay {
  readonly #prev: Graph;
  readonly #fresh: ReadonlySet<number>;
  readonly #missing = new Map<number, Missing[]>();

  /**
   * @param prev the previous build's graph
   * @param fresh ids (in the new graph) of the resources of rows converted afresh
   */
  constructor(prev: Graph, fresh: ReadonlySet<number>) {
    this.#prev = prev;
    this.#fresh = fresh;
  }

  /** The link run after the phase `phase` (`assets`, `models`, `compliance`). */
  *run(graph: Graph, issues: IssueCollector, phase: string, warnMissing: boolean): Steps<void> {
    if (phase === "assets") yield* this.#linkAll(graph);
    if (!warnMissing) return;
    for (const id of [...this.#missing.keys()].sort((a, b) => a - b)) {
      const resource = graph.getResourceById(id)!;
      for (const [key, name, type] of this.#missing.get(id)!) {
        issues.warn(
          "relation_target_missing",
          `${resource.type} '${resource.name}': ${key} = '${name}' names no ${type}`,
          { phase },
        );
      }
    }
  }

  *#linkAll(graph: Graph): Steps<void> {
    const types = new Set(graph.types());
    let tick = 0;
    for (const resource of graph.resources()) {
      if (++tick === RESOURCES_PER_STEP) {
        tick = 0;
        yield;
      }
      if (this.#fresh.has(resource.id)) {
        this.#linkFresh(graph, types, resource);
        continue;
      }
      const before = this.#prev.getResourceById(resource.id)!;
      for (const relation of this.#prev.outgoing(before)) {
        graph.ensureRelation(resource, relation.type, graph.getResourceById(relation.target.id)!);
      }
    }
  }

  /** Links a fresh row's resource as auto-linking does (no retype rules). */
  #linkFresh(graph: Graph, types: ReadonlySet<string>, resource: Resource): void {
    const missing: Missing[] = [];
    for (const key in resource.properties) {
      if (key === "name" || key === "original_name" || key.startsWith("_")) continue;
      if (!types.has(key)) continue;
      for (const name of splitNames(resource.properties[key])) {
        if (key === resource.type && name === resource.name) continue;
        const target = graph.getResource(key, name);
        if (!target) missing.push([key, name, key]);
        else graph.ensureRelation(resource, key, target);
      }
    }
    if (missing.length > 0) this.#missing.set(resource.id, missing);
  }
}
