/**
 * Builds module archives for tests: `.zip` (fflate) and `.tar.gz` (a minimal ustar writer and
 * the web-standard CompressionStream).
 */
import { zipSync } from "fflate";

const enc = new TextEncoder();

/** A zip of `files` (path → text). */
export function makeZip(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([p, t]) => [p, enc.encode(t)])));
}

function header(name: string, size: number, type: string): Uint8Array {
  const h = new Uint8Array(512);
  const put = (text: string, at: number) => h.set(enc.encode(text), at);
  put(name, 0);
  put("0000644\0", 100);
  put("0000000\0", 108);
  put("0000000\0", 116);
  put(size.toString(8).padStart(11, "0") + "\0", 124);
  put("00000000000\0", 136);
  put("        ", 148);
  put(type, 156);
  put("ustar\0", 257);
  put("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  put(sum.toString(8).padStart(6, "0") + "\0 ", 148);
  return h;
}

/** An uncompressed tar of `files` (directories get their own entries). */
export function makeTar(files: Record<string, string>): Uint8Array<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  const dirs = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    const segs = path.split("/");
    for (let i = 1; i < segs.length; i++) {
      const d = segs.slice(0, i).join("/") + "/";
      if (!dirs.has(d)) {
        dirs.add(d);
        parts.push(header(d, 0, "5"));
      }
    }
    const data = enc.encode(text);
    parts.push(header(path, data.length, "0"));
    const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
    padded.set(data);
    parts.push(padded);
  }
  parts.push(new Uint8Array(1024));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

/** A gzip-compressed tar of `files`. */
export async function makeTarGz(files: Record<string, string>): Promise<Uint8Array> {
  const stream = new Blob([makeTar(files) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
