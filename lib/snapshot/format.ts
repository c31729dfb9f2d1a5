/**
 * The snapshot format: a built graph with everything a server needs to answer from it — its
 * artifacts, issues, manifest (the GraphQL schema's inputs with the graph), parameters, asset
 * tables and provenance — as one compact, versioned, checksummed byte string. `build --snapshot
 * FILE` writes it; `GraphEngine`'s `snapshot` option serves it without building, so a fleet of
 * edge workers can serve a graph built elsewhere (bundled, or fetched from object storage).
 *
 * Layout (little-endian), version 1:
 *
 * ```text
 * "GSVCSNAP"  8 bytes magic
 * u32         format version (1)
 * u32         length of the compressed body
 * 32 bytes    SHA-256 of the compressed body
 * body        deflate (RFC 1951) of the sections below
 * ```
 *
 * The body is a sequence of sections, each `u32 tag, u32 byte length, bytes` padded to 4 bytes,
 * so that every column can be viewed in place as a typed array (and transferred to or from a
 * Worker without copying):
 *
 * - `STRINGS`: `u32 n`, `u32 offsets[n + 1]`, UTF-8 bytes — every distinct type, name, key
 *   and value text, once;
 * - `RESOURCES`: `u32 n`, then the columns `type[n]`, `name[n]` (string ids) and
 *   `propertyStart[n + 1]` (into PROPERTIES), in resource-id order;
 * - `RELATIONS`: `u32 n`, then `source[n]`, `target[n]` (resource indexes), `type[n]` (string
 *   id) and `propertyStart[n + 1]`, in relation-id order;
 * - `PROPERTIES`: `u32 n`, then `key[n]` and `value[n]` (string ids) and `kind[n]` (u8: 0 a
 *   string value, 1 a JSON text: numbers, booleans, null, lists, objects);
 * - `META`: UTF-8 JSON of the rest (generation, issues, artifacts, manifest, params, stats,
 *   assets, provenance, builtAt).
 *
 * @module
 */
import { deflateSync, inflateSync } from "fflate";
import { Graph, type JsonValue, type Properties, type Resource } from "../graph/graph.ts";
import { Provenance, type ProvenanceData } from "../pipeline/provenance.ts";
import type { Snapshot } from "../engine.ts";

/** The format version this code writes, and the only one it reads. */
export const SNAPSHOT_VERSION = 1;

const MAGIC = "GSVCSNAP";
const HEADER = 8 + 4 + 4 + 32;
const TAG_STRINGS = 1;
const TAG_RESOURCES = 2;
const TAG_RELATIONS = 3;
const TAG_PROPERTIES = 4;
const TAG_META = 5;

/** A snapshot that cannot be read: not one, another version, damaged, or inconsistent. */
export class SnapshotError extends Error {
  /** Creates the error. @param message what is wrong with the bytes */
  constructor(message: string) {
    super(`snapshot: ${message}`);
    this.name = "SnapshotError";
  }
}

class StringTable {
  readonly ids = new Map<string, number>();
  readonly list: string[] = [];
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.list.length;
      this.list.push(s);
      this.ids.set(s, id);
    }
    return id;
  }
}

class PropertyColumns {
  readonly keys: number[] = [];
  readonly values: number[] = [];
  readonly kinds: number[] = [];
  constructor(readonly strings: StringTable) {}
  add(properties: Properties): void {
    for (const key in properties) {
      const value = properties[key];
      this.keys.push(this.strings.id(key));
      if (typeof value === "string") {
        this.values.push(this.strings.id(value));
        this.kinds.push(0);
      } else {
        this.values.push(this.strings.id(JSON.stringify(value)));
        this.kinds.push(1);
      }
    }
  }
}

function section(tag: number, payload: Uint8Array): Uint8Array {
  const padded = (payload.length + 3) & ~3;
  const out = new Uint8Array(8 + padded);
  const view = new DataView(out.buffer);
  view.setUint32(0, tag, true);
  view.setUint32(4, payload.length, true);
  out.set(payload, 8);
  return out;
}

function u32Columns(count: number, ...columns: ArrayLike<number>[]): Uint8Array {
  const total = 1 + columns.reduce((n, c) => n + c.length, 0);
  const out = new Uint32Array(total);
  out[0] = count;
  let at = 1;
  for (const c of columns) {
    out.set(c, at);
    at += c.length;
  }
  return new Uint8Array(out.buffer);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** Resources in id order (the order they were created, which GraphQL lists keep). */
function resourcesById(graph: Graph): Resource[] {
  const out: Resource[] = [];
  for (const type of graph.types()) out.push(...graph.resourcesOf(type));
  return out.sort((a, b) => a.id - b.id);
}

/**
 * Encodes a built snapshot.
 *
 * @example
 * ```ts
 * import { encodeSnapshot, decodeSnapshot } from "./format.ts";
 * import { GraphEngine } from "../engine.ts";
 * import { MemoryWorkspace } from "../workspace/memory.ts";
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * const engine = new GraphEngine({
 *   workspace: new MemoryWorkspace({ "assets/host.csv": "name\nweb-1\n" }),
 *   createTemplates: createTemplateRenderer,
 * });
 * const bytes = await encodeSnapshot(await engine.rebuild());
 * const loaded = await decodeSnapshot(bytes);
 * console.log(loaded.graph.getResource("host", "web-1")?.name); // "web-1"
 * ```
 */
export async function encodeSnapshot(snapshot: Snapshot): Promise<Uint8Array> {
  const strings = new StringTable();
  const props = new PropertyColumns(strings);
  const resources = resourcesById(snapshot.graph);
  const index = new Map<number, number>();
  const rType = new Uint32Array(resources.length);
  const rName = new Uint32Array(resources.length);
  const rStart = new Uint32Array(resources.length + 1);
  resources.forEach((r, i) => {
    index.set(r.id, i);
    rType[i] = strings.id(r.type);
    rName[i] = strings.id(r.name);
    rStart[i] = props.keys.length;
    props.add(r.properties);
  });
  rStart[resources.length] = props.keys.length;
  const source: number[] = [];
  const target: number[] = [];
  const type: number[] = [];
  const eStart: number[] = [];
  snapshot.graph.forEachRelation((s, label, t, properties) => {
    source.push(index.get(s.id)!);
    target.push(index.get(t.id)!);
    type.push(strings.id(label));
    eStart.push(props.keys.length);
    props.add(properties);
  });
  eStart.push(props.keys.length);
  const meta = {
    generation: snapshot.generation,
    issues: snapshot.issues,
    artifacts: snapshot.artifacts,
    manifest: snapshot.manifest,
    params: snapshot.params,
    stats: snapshot.stats,
    assets: snapshot.assets,
    builtAt: snapshot.builtAt,
    provenance: snapshot.provenance?.toData((id) => index.get(id)),
  };
  const encoder = new TextEncoder();
  const texts = strings.list.map((s) => encoder.encode(s));
  const offsets = new Uint32Array(texts.length + 1);
  texts.forEach((t, i) => offsets[i + 1] = offsets[i] + t.length);
  const body = concat([
    section(TAG_STRINGS, concat([u32Columns(texts.length, offsets), ...texts])),
    section(TAG_RESOURCES, u32Columns(resources.length, rType, rName, rStart)),
    section(TAG_RELATIONS, u32Columns(source.length, source, target, type, eStart)),
    section(
      TAG_PROPERTIES,
      concat([
        u32Columns(props.keys.length, props.keys, props.values),
        new Uint8Array(props.kinds),
      ]),
    ),
    section(TAG_META, encoder.encode(JSON.stringify(meta, keepCollections))),
  ]);
  const compressed = deflateSync(body, { level: 6 });
  const out = new Uint8Array(HEADER + compressed.length);
  const view = new DataView(out.buffer);
  out.set(encoder.encode(MAGIC), 0);
  view.setUint32(8, SNAPSHOT_VERSION, true);
  view.setUint32(12, compressed.length, true);
  out.set(await sha256(compressed), 16);
  out.set(compressed, HEADER);
  return out;
}

/** JSON replacer keeping `Map`s and `Set`s (the manifest's tables) as tagged lists. */
function keepCollections(_key: string, value: unknown): unknown {
  if (value instanceof Map) return { "$map": [...value] };
  if (value instanceof Set) return { "$set": [...value] };
  return value;
}

/** JSON reviver undoing {@link keepCollections}. */
function reviveCollections(_key: string, value: unknown): unknown {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$map") {
      const entries = (value as { $map: unknown }).$map;
      if (Array.isArray(entries)) return new Map(entries as [unknown, unknown][]);
    }
    if (keys.length === 1 && keys[0] === "$set") {
      const items = (value as { $set: unknown }).$set;
      if (Array.isArray(items)) return new Set(items);
    }
  }
  return value;
}

/** Reads `count` u32 values at `offset` of `bytes` (copied when unaligned). */
function u32s(bytes: Uint8Array, offset: number, count: number, what: string): Uint32Array {
  if (offset + count * 4 > bytes.length) throw new SnapshotError(`${what} is truncated`);
  const at = bytes.byteOffset + offset;
  if (at % 4 === 0) return new Uint32Array(bytes.buffer, at, count);
  return new Uint32Array(bytes.slice(offset, offset + count * 4).buffer);
}

function readSections(body: Uint8Array): Map<number, Uint8Array> {
  const out = new Map<number, Uint8Array>();
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
  let at = 0;
  while (at < body.length) {
    if (at + 8 > body.length) throw new SnapshotError("a section header is truncated");
    const tag = view.getUint32(at, true);
    const length = view.getUint32(at + 4, true);
    if (at + 8 + length > body.length) throw new SnapshotError(`section ${tag} is truncated`);
    if (out.has(tag)) throw new SnapshotError(`section ${tag} appears twice`);
    out.set(tag, body.subarray(at + 8, at + 8 + length));
    at += 8 + ((length + 3) & ~3);
  }
  for (const tag of [TAG_STRINGS, TAG_RESOURCES, TAG_RELATIONS, TAG_PROPERTIES, TAG_META]) {
    if (!out.has(tag)) throw new SnapshotError(`section ${tag} is missing`);
  }
  return out;
}

function countOf(section: Uint8Array, what: string): number {
  if (section.length < 4) throw new SnapshotError(`${what} is truncated`);
  return new DataView(section.buffer, section.byteOffset, 4).getUint32(0, true);
}

function checkIds(ids: Uint32Array, limit: number, what: string): void {
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] >= limit) throw new SnapshotError(`${what} ${i} refers to ${ids[i]} of ${limit}`);
  }
}

/** Property ranges run from `first` to `last` without going back. */
function checkStarts(starts: Uint32Array, first: number, last: number, what: string): void {
  if (starts[0] !== first || starts[starts.length - 1] !== last) {
    throw new SnapshotError(`the ${what} property ranges do not cover their part of the table`);
  }
  for (let i = 1; i < starts.length; i++) {
    if (starts[i] < starts[i - 1]) {
      throw new SnapshotError(`${what} property range ${i} is out of order`);
    }
  }
}

/**
 * Decodes bytes written by {@link encodeSnapshot} into a snapshot with a sealed graph; anything
 * else is a {@link SnapshotError} saying what is wrong (never a half-read graph).
 */
export async function decodeSnapshot(bytes: Uint8Array): Promise<Snapshot> {
  if (bytes.length < HEADER) throw new SnapshotError("too short to be a snapshot");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  if ([...MAGIC].some((ch, i) => bytes[i] !== ch.charCodeAt(0))) {
    throw new SnapshotError("not a graphsvc snapshot (bad magic)");
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8, true);
  if (version !== SNAPSHOT_VERSION) {
    throw new SnapshotError(`format version ${version}; this graphsvc reads ${SNAPSHOT_VERSION}`);
  }
  const length = view.getUint32(12, true);
  if (HEADER + length !== bytes.length) {
    throw new SnapshotError(`body is ${bytes.length - HEADER} bytes, the header says ${length}`);
  }
  const compressed = bytes.subarray(HEADER);
  const digest = await sha256(compressed);
  if (!digest.every((b, i) => b === bytes[16 + i])) {
    throw new SnapshotError("checksum mismatch (damaged or truncated)");
  }
  let body: Uint8Array;
  try {
    body = inflateSync(compressed);
  } catch (e) {
    throw new SnapshotError(`body does not decompress: ${e instanceof Error ? e.message : e}`);
  }
  try {
    return decodeBody(readSections(body), decoder);
  } catch (e) {
    if (e instanceof SnapshotError) throw e;
    throw new SnapshotError(`inconsistent content: ${e instanceof Error ? e.message : e}`);
  }
}

function decodeBody(sections: Map<number, Uint8Array>, decoder: TextDecoder): Snapshot {
  const s = sections.get(TAG_STRINGS)!;
  const ns = countOf(s, "the string table");
  const offsets = u32s(s, 4, ns + 1, "the string table");
  const textStart = 4 + (ns + 1) * 4;
  const strings: string[] = new Array(ns);
  for (let i = 0; i < ns; i++) {
    const a = textStart + offsets[i];
    const b = textStart + offsets[i + 1];
    if (b < a || b > s.length) throw new SnapshotError(`string ${i} is out of range`);
    strings[i] = decoder.decode(s.subarray(a, b));
  }
  const p = sections.get(TAG_PROPERTIES)!;
  const np = countOf(p, "the property table");
  const keys = u32s(p, 4, np, "the property table");
  const values = u32s(p, 4 + np * 4, np, "the property table");
  if (4 + np * 8 + np > p.length) throw new SnapshotError("the property table is truncated");
  const kinds = p.subarray(4 + np * 8, 4 + np * 9);
  checkIds(keys, ns, "property key");
  checkIds(values, ns, "property value");
  const propertiesOf = (from: number, to: number): Properties => {
    const out: Properties = {};
    for (let i = from; i < to; i++) {
      const text = strings[values[i]];
      out[strings[keys[i]]] = kinds[i] === 0 ? text : JSON.parse(text) as JsonValue;
    }
    return out;
  };

  const r = sections.get(TAG_RESOURCES)!;
  const nr = countOf(r, "the resource table");
  const rType = u32s(r, 4, nr, "the resource table");
  const rName = u32s(r, 4 + nr * 4, nr, "the resource table");
  const rStart = u32s(r, 4 + nr * 8, nr + 1, "the resource table");
  checkIds(rType, ns, "resource type");
  checkIds(rName, ns, "resource name");
  const eStartAt = rStart[nr];
  checkStarts(rStart, 0, eStartAt, "resource");
  const graph = new Graph();
  const resources: Resource[] = new Array(nr);
  for (let i = 0; i < nr; i++) {
    const type = strings[rType[i]];
    const name = strings[rName[i]];
    if (graph.getResource(type, name)) {
      throw new SnapshotError(`resource ${type}/${name} appears twice`);
    }
    resources[i] = graph.upsertResource(type, name, propertiesOf(rStart[i], rStart[i + 1]));
  }

  const e = sections.get(TAG_RELATIONS)!;
  const ne = countOf(e, "the relation table");
  const source = u32s(e, 4, ne, "the relation table");
  const target = u32s(e, 4 + ne * 4, ne, "the relation table");
  const type = u32s(e, 4 + ne * 8, ne, "the relation table");
  const eStart = u32s(e, 4 + ne * 12, ne + 1, "the relation table");
  checkIds(source, nr, "relation source");
  checkIds(target, nr, "relation target");
  checkIds(type, ns, "relation type");
  checkStarts(eStart, eStartAt, np, "relation");
  for (let i = 0; i < ne; i++) {
    const a = resources[source[i]];
    const b = resources[target[i]];
    const label = strings[type[i]];
    if (!graph.ensureRelation(a, label, b)) {
      throw new SnapshotError(`relation ${i} (${a.type}/${a.name} ${label}) appears twice`);
    }
    const properties = propertiesOf(eStart[i], eStart[i + 1]);
    if (Object.keys(properties).length > 0) {
      const relation = graph.getRelation(a, label, b)!;
      for (const key in properties) graph.setRelationProperty(relation, key, properties[key]);
    }
  }
  graph.seal();

  const meta = JSON.parse(decoder.decode(sections.get(TAG_META)!), reviveCollections) as
    & Omit<
      Snapshot,
      "graph" | "provenance"
    >
    & { provenance?: ProvenanceData };
  if (typeof meta.generation !== "number" || !Array.isArray(meta.artifacts)) {
    throw new SnapshotError("the metadata section lacks the generation or the artifacts");
  }
  const { provenance, ...rest } = meta;
  return {
    ...rest,
    graph,
    provenance: provenance ? Provenance.fromData(provenance, nr) : undefined,
  };
}
