/**
 * A small deterministic ustar writer and reader plus gzip (fflate) for action bundles (reference
 * AC15, AC17): entries sorted by path, fixed mtime, uid/gid 0, empty user/group names, so the
 * same entries always give the same bytes.
 *
 * @module
 */
import { gunzipSync, gzipSync } from "fflate";

/** One file of an archive. */
export interface TarEntry {
  /** Relative path (`/`-separated, no `..`). */
  path: string;
  /** Content. */
  bytes: Uint8Array;
  /** Permission bits (default 0o644). */
  mode?: number;
}

/** An archive that cannot be written or read. */
export class TarError extends Error {
  /** Creates the error. @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "TarError";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function putString(h: Uint8Array, offset: number, length: number, s: string): void {
  const b = encoder.encode(s);
  if (b.length > length) throw new TarError(`tar field too long: ${s}`);
  h.set(b, offset);
}

function putOctal(h: Uint8Array, offset: number, length: number, n: number): void {
  putString(h, offset, length, n.toString(8).padStart(length - 1, "0") + "\0");
}

function splitPath(path: string): [string, string] {
  const bytes = encoder.encode(path).length;
  if (bytes <= 100) return ["", path];
  for (let i = path.length - 1; i > 0; i--) {
    if (path[i] !== "/") continue;
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (encoder.encode(prefix).length <= 155 && encoder.encode(name).length <= 100) {
      return [prefix, name];
    }
  }
  throw new TarError(`path too long for ustar: ${path}`);
}

function header(entry: TarEntry, mtime: number): Uint8Array {
  const h = new Uint8Array(512);
  const [prefix, name] = splitPath(entry.path);
  putString(h, 0, 100, name);
  putOctal(h, 100, 8, entry.mode ?? 0o644);
  putOctal(h, 108, 8, 0);
  putOctal(h, 116, 8, 0);
  putOctal(h, 124, 12, entry.bytes.length);
  putOctal(h, 136, 12, mtime);
  h.fill(0x20, 148, 156); // checksum computed with spaces
  h[156] = 0x30; // regular file
  putString(h, 257, 6, "ustar\0");
  putString(h, 263, 2, "00");
  putString(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  putString(h, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/**
 * A ustar archive of `entries` (sorted by path; duplicates refused), every mtime `mtimeSeconds`.
 *
 * @example
 * ```ts
 * import { readTar, writeTar } from "./tar.ts";
 * const tar = writeTar([{ path: "a.txt", bytes: new TextEncoder().encode("hi") }], 0);
 * console.log(readTar(tar)[0].path); // "a.txt"
 * ```
 */
export function writeTar(entries: readonly TarEntry[], mtimeSeconds: number): Uint8Array {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts: Uint8Array[] = [];
  let total = 1024;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    if (i > 0 && sorted[i - 1].path === e.path) throw new TarError(`duplicate entry ${e.path}`);
    if (e.path.startsWith("/") || e.path.split("/").some((p) => p === ".." || p === "")) {
      throw new TarError(`unsafe entry path ${e.path}`);
    }
    const padded = Math.ceil(e.bytes.length / 512) * 512;
    parts.push(header(e, Math.max(0, Math.floor(mtimeSeconds))));
    const body = new Uint8Array(padded);
    body.set(e.bytes);
    parts.push(body);
    total += 512 + padded;
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function readString(h: Uint8Array, offset: number, length: number): string {
  const slice = h.subarray(offset, offset + length);
  const end = slice.indexOf(0);
  return decoder.decode(end < 0 ? slice : slice.subarray(0, end));
}

function readOctal(h: Uint8Array, offset: number, length: number): number {
  const s = readString(h, offset, length).trim();
  if (!/^[0-7]*$/.test(s)) throw new TarError("invalid numeric field in tar header");
  return s === "" ? 0 : parseInt(s, 8);
}

/**
 * The regular files of a ustar archive, in archive order. Throws {@link TarError} for a
 * malformed archive or an unsafe path.
 *
 * @example
 * ```ts
 * import { readTar, writeTar } from "./tar.ts";
 * const [e] = readTar(writeTar([{ path: "x/y", bytes: new Uint8Array([1]) }], 0));
 * console.log(e.path, e.bytes.length); // "x/y" 1
 * ```
 */
export function readTar(tar: Uint8Array): TarEntry[] {
  const out: TarEntry[] = [];
  let at = 0;
  while (at + 512 <= tar.length) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) break;
    const name = readString(h, 0, 100);
    const prefix = readString(h, 345, 155);
    const path = prefix ? `${prefix}/${name}` : name;
    const size = readOctal(h, 124, 12);
    const mode = readOctal(h, 100, 8);
    const type = h[156];
    if (at + 512 + size > tar.length) throw new TarError(`truncated entry ${path}`);
    if (type === 0x30 || type === 0) {
      if (path.startsWith("/") || path.split("/").some((p) => p === "..")) {
        throw new TarError(`unsafe entry path ${path}`);
      }
      out.push({ path, mode, bytes: tar.slice(at + 512, at + 512 + size) });
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/**
 * gzip of `data` with a fixed header time stamp (`mtimeSeconds`), level 6: deterministic.
 *
 * @example
 * ```ts
 * import { gunzip, gzip } from "./tar.ts";
 * console.log(gunzip(gzip(new Uint8Array([1, 2]), 0))); // Uint8Array [1, 2]
 * ```
 */
export function gzip(data: Uint8Array, mtimeSeconds: number): Uint8Array {
  return gzipSync(data, { level: 6, mtime: Math.max(0, Math.floor(mtimeSeconds)) * 1000 });
}

/** Inflates gzip data; throws {@link TarError} when it is not gzip. */
export function gunzip(data: Uint8Array): Uint8Array {
  try {
    return gunzipSync(data);
  } catch (e) {
    throw new TarError(`not a gzip archive: ${e instanceof Error ? e.message : String(e)}`);
  }
}
