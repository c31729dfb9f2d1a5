/**
 * Module archives (reference MP10): `.zip` (fflate) and `.tar.gz`/`.tgz` (the web-standard
 * `DecompressionStream` and a small tar reader), unpacked into memory. The single top-level
 * directory of an archive, if there is one, is stripped. Entries with unsafe paths (absolute,
 * `..`), links and devices are skipped.
 *
 * @module
 */
import { unzipSync } from "fflate";

/** An archive that cannot be read. */
export class ArchiveError extends Error {
  /** @param message what is wrong */
  constructor(message: string) {
    super(message);
    this.name = "ArchiveError";
  }
}

/**
 * `sha256-<hex>` of `bytes`, the checksum `module.lock` pins archives with (MP18).
 *
 * @example
 * ```ts
 * import { archiveChecksum } from "./archive.ts";
 * await archiveChecksum(new Uint8Array()); // "sha256-e3b0c442…"
 * ```
 */
export async function archiveChecksum(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
  return "sha256-" + [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A safe relative path, or undefined for one to skip. */
function safePath(name: string): string | undefined {
  const parts: string[] = [];
  for (const seg of name.replaceAll("\\", "/").split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === ".." || seg.includes("\0")) return undefined;
    parts.push(seg);
  }
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) return undefined;
  return parts.length > 0 ? parts.join("/") : undefined;
}

/** Removes the single top-level directory shared by every file, if there is one. */
function stripTop(files: Map<string, Uint8Array>): Map<string, Uint8Array> {
  const paths = [...files.keys()];
  if (paths.length === 0 || paths.some((p) => !p.includes("/"))) return files;
  const top = paths[0].slice(0, paths[0].indexOf("/") + 1);
  if (!paths.every((p) => p.startsWith(top))) return files;
  return new Map([...files].map(([p, b]) => [p.slice(top.length), b]));
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream()
      .pipeThrough(new DecompressionStream("gzip"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  } catch (e) {
    throw new ArchiveError(`not a gzip stream: ${e instanceof Error ? e.message : e}`);
  }
}

function cString(bytes: Uint8Array, start: number, length: number): string {
  let end = start;
  while (end < start + length && bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(start, end));
}

function octal(bytes: Uint8Array, start: number, length: number): number {
  const text = cString(bytes, start, length).trim();
  if (text === "") return 0;
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError(`bad tar header number '${text}'`);
  return parseInt(text, 8);
}

/** Reads a (ustar, pax or GNU) tar stream: regular files only. */
export function readTar(tar: Uint8Array): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let offset = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const dataStart = offset + 512;
    if (dataStart + size > tar.length) throw new ArchiveError("truncated tar archive");
    const data = tar.subarray(dataStart, dataStart + size);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === "L") {
      longName = cString(data, 0, data.length);
      continue;
    }
    if (type === "x") {
      const text = new TextDecoder().decode(data);
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
      if (m) paxPath = m[1];
      continue;
    }
    if (type === "g") continue;
    const magic = cString(header, 257, 6);
    const prefix = magic.startsWith("ustar") ? cString(header, 345, 155) : "";
    const name = paxPath ?? longName ?? (prefix ? `${prefix}/` : "") + cString(header, 0, 100);
    longName = paxPath = undefined;
    if (type !== "0" && type !== "7") continue; // directories, links, devices
    const path = safePath(name);
    if (path !== undefined) files.set(path, data.slice());
  }
  return files;
}

/**
 * Unpacks an archive into a map of relative path → bytes, with the single top-level directory
 * stripped.
 *
 * @example
 * ```ts
 * import { zipSync } from "fflate";
 * import { extractArchive } from "./archive.ts";
 * const zip = zipSync({ "m-1.0/module.toml": new TextEncoder().encode("[module]\n") });
 * [...(await extractArchive(zip, "zip")).keys()]; // ["module.toml"]
 * ```
 */
export async function extractArchive(
  bytes: Uint8Array,
  format: "zip" | "tar.gz",
): Promise<Map<string, Uint8Array>> {
  const files = new Map<string, Uint8Array>();
  if (format === "zip") {
    let entries: Record<string, Uint8Array>;
    try {
      entries = unzipSync(bytes);
    } catch (e) {
      throw new ArchiveError(`not a zip archive: ${e instanceof Error ? e.message : e}`);
    }
    for (const [name, data] of Object.entries(entries)) {
      if (name.endsWith("/")) continue;
      const path = safePath(name);
      if (path !== undefined) files.set(path, data);
    }
  } else {
    for (const [p, b] of readTar(await gunzip(bytes))) files.set(p, b);
  }
  return stripTop(files);
}
