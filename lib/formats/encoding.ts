/**
 * Text encoding of input files: every file the engine reads must be valid UTF-8 without NUL
 * bytes. Bad bytes are {@link ParseError}s with file, line and column — never silently replaced
 * by U+FFFD and carried into the graph.
 *
 * @module
 */
import { lineColumnAt, ParseError } from "./errors.ts";

const fatal = new TextDecoder("utf-8", { fatal: true });
const lenient = new TextDecoder("utf-8");

/**
 * Decodes UTF-8 bytes strictly. A leading BOM is dropped (as `TextDecoder` does): every format
 * reads the same text with or without one, and the file-system workspace's writes put a file's
 * BOM back (`workspace/deno_fs.ts`).
 *
 * @example
 * ```ts
 * import { decodeUtf8 } from "./encoding.ts";
 * decodeUtf8(new TextEncoder().encode("name\nx\n"), "assets/a.csv"); // "name\nx\n"
 * try { decodeUtf8(new Uint8Array([0x61, 0xff]), "assets/a.csv"); } catch (e) { console.log(String(e)); }
 * // ParseError: assets/a.csv:1:2: invalid UTF-8 byte 0xff
 * ```
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return fatal.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    // Line and column of the bad byte: count the characters of the valid prefix.
    const prefix = lenient.decode(bytes.subarray(0, offset));
    const at = lineColumnAt(prefix + "\uFFFD", prefix.length);
    throw new ParseError(
      `invalid UTF-8 byte 0x${
        bytes[offset].toString(16).padStart(2, "0")
      } (the file must be UTF-8)`,
      file,
      at.line,
      at.column,
      "invalid_utf8",
    );
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    let need = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length - 1;
}

/**
 * Throws a located {@link ParseError} (code `nul_byte`) when text holds a NUL character: no
 * input format of the engine allows one, and it would travel into names, files and responses.
 *
 * @example
 * ```ts
 * import { rejectNul } from "./encoding.ts";
 * rejectNul("name\nx\n", "assets/a.csv"); // fine
 * ```
 */
export function rejectNul(text: string, file: string): void {
  const i = text.indexOf("\0");
  if (i < 0) return;
  const at = lineColumnAt(text, i);
  throw new ParseError("NUL byte (U+0000) in the file", file, at.line, at.column, "nul_byte");
}
