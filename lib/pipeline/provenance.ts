/**
 * Provenance of resources: which files created a resource or changed it during a build — the
 * asset file it was loaded from, the model rule files that created it, set its properties or
 * linked it, and the compliance files that wrote onto it.
 *
 * Kept off the graph: a side table on the build result, with one small array of numbers per
 * resource a rule touched (file strings are interned) and nothing per asset resource (the asset
 * phase creates the first resources of the graph: a resource whose id is below the count after
 * that phase came from the asset file(s) of its type).
 *
 * @module
 */
import { ChunkedById } from "../graph/dense.ts";

/** How a file took part in a resource: created it, set its properties, related it, governed it. */
export type ProvenanceKind = "created" | "changed" | "linked" | "compliance";

/** One file that created or changed a resource. */
export interface ProvenanceEntry {
  /** The file, as builds show files: `models/net.toml`, `assets/host.csv`, `base/compliance/x.toml`. */
  rule: string;
  /** What it did. */
  kind: ProvenanceKind;
}

const KINDS: readonly ProvenanceKind[] = ["created", "changed", "linked", "compliance"];
const KIND_CODE: Readonly<Record<ProvenanceKind, number>> = {
  created: 0,
  changed: 1,
  linked: 2,
  compliance: 3,
};

/** {@link Provenance} as plain data (the snapshot format's), resource ids renumbered. */
export interface ProvenanceData {
  /** Rule files, numbered by position. */
  files: string[];
  /** Resources below this index were created by asset files. */
  assetResources: number;
  /** Pairs of resource index and its codes (file number × 4 + kind). */
  entries: [number, number[]][];
  /** Resources a rule created in the global context (no origin), ascending; absent when none. */
  global?: number[];
}

/**
 * The provenance side table of one build. Phases record with {@link Provenance.note}; readers
 * ask {@link Provenance.entriesOf}.
 *
 * @example
 * ```ts
 * import { Provenance } from "./provenance.ts";
 * const p = new Provenance();
 * p.note(0, "models/net.toml", "created");
 * p.note(0, "models/net.toml", "created"); // recorded once
 * console.log(p.entriesOf({ id: 0, type: "net" }, [])); // [{ rule: "models/net.toml", kind: "created" }]
 * ```
 */
export class Provenance {
  readonly #files: string[] = [];
  readonly #fileIds = new Map<string, number>();
  /** Resource id -> codes (file number * 4 + kind), in the order first recorded. */
  readonly #byResource = new ChunkedById<number[]>();
  /** Resource ids with codes, in the order first recorded. */
  readonly #recorded: number[] = [];
  #assetResources = 0;
  readonly #global = new Set<number>();

  /** Records that `file` did `kind` to the resource with id `resourceId` (once per pair). */
  note(resourceId: number, file: string, kind: ProvenanceKind): void {
    let n = this.#fileIds.get(file);
    if (n === undefined) {
      n = this.#files.length;
      this.#files.push(file);
      this.#fileIds.set(file, n);
    }
    const code = n * 4 + KIND_CODE[kind];
    const codes = this.#byResource.get(resourceId);
    if (!codes) {
      this.#byResource.set(resourceId, [code]);
      this.#recorded.push(resourceId);
    } else if (!codes.includes(code)) codes.push(code);
  }

  /**
   * Records that a rule without `origin_resource` created the resource `resourceId`: the
   * original hangs such resources off the root of its graph export (reference M15).
   */
  createdGlobally(resourceId: number): void {
    this.#global.add(resourceId);
  }

  /** True when a rule created the resource in the global context ({@link createdGlobally}). */
  isGlobal(resourceId: number): boolean {
    return this.#global.has(resourceId);
  }

  /**
   * Marks the end of the asset phase: resources with an id below `count` (the graph's resource
   * count then) were created by asset files.
   */
  assetsLoaded(count: number): void {
    this.#assetResources = count;
  }

  /**
   * This provenance as plain data, each resource id mapped by `index` (ids the mapping does not
   * know are left out) — for the snapshot format, which numbers resources densely.
   */
  toData(index: (id: number) => number | undefined): ProvenanceData {
    const entries: [number, number[]][] = [];
    for (const id of this.#recorded) {
      const codes = this.#byResource.get(id)!;
      const i = index(id);
      if (i !== undefined) entries.push([i, [...codes]]);
    }
    let assetResources = 0;
    for (let id = 0; id < this.#assetResources; id++) if (index(id) !== undefined) assetResources++;
    const global: number[] = [];
    for (const id of this.#global) {
      const i = index(id);
      if (i !== undefined) global.push(i);
    }
    global.sort((a, b) => a - b);
    const data: ProvenanceData = { files: [...this.#files], assetResources, entries };
    if (global.length > 0) data.global = global;
    return data;
  }

  /** The provenance `data` describes, for a graph of `resourceCount` resources. */
  static fromData(data: ProvenanceData, resourceCount: number): Provenance {
    const p = new Provenance();
    data.files.forEach((f, i) => {
      p.#files.push(f);
      p.#fileIds.set(f, i);
    });
    for (const [id, codes] of data.entries) {
      if (id >= resourceCount || codes.some((c) => c >= data.files.length * 4 || c < 0)) {
        throw new RangeError(`provenance of resource ${id} is out of range`);
      }
      if (p.#byResource.get(id) === undefined) p.#recorded.push(id);
      p.#byResource.set(id, [...codes]);
    }
    p.#assetResources = Math.min(data.assetResources, resourceCount);
    for (const id of data.global ?? []) {
      if (!Number.isInteger(id) || id < 0 || id >= resourceCount) {
        throw new RangeError(`provenance: global resource ${id} is out of range`);
      }
      p.#global.add(id);
    }
    return p;
  }

  /** Number of resources with rule entries (asset provenance is not stored per resource). */
  get size(): number {
    return this.#recorded.length;
  }

  /**
   * The provenance of `resource`: the asset file(s) of its type when the asset phase created it
   * (`assetFiles`: paths relative to `assets/` with their types, as the build result lists them),
   * then the rule files in the order they first touched it.
   */
  entriesOf(
    resource: { readonly id: number; readonly type: string },
    assetFiles: readonly { readonly type: string; readonly file: string }[],
  ): ProvenanceEntry[] {
    const out: ProvenanceEntry[] = [];
    if (resource.id < this.#assetResources) {
      for (const a of assetFiles) {
        if (a.type === resource.type) out.push({ rule: `assets/${a.file}`, kind: "created" });
      }
    }
    for (const code of this.#byResource.get(resource.id) ?? []) {
      out.push({ rule: this.#files[Math.floor(code / 4)], kind: KINDS[code % 4] });
    }
    return out;
  }
}
