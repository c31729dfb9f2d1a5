/**
 * Byte-level std functions: base64, UTF-8 conversion, hashes and `std.parseJson`.
 *
 * @module
 */
import { md5, sha1 } from "@noble/hashes/legacy.js";
import { sha256, sha512 } from "@noble/hashes/sha2.js";
import { sha3_512 } from "@noble/hashes/sha3.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { JsonValue } from "../json_value.ts";
import { StdError } from "./errors.ts";
import { charOf } from "./math.ts";
import { checkBuiltin, typeOf } from "./values.ts";

const TABLE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const INV: Record<string, number> = Object.fromEntries([...TABLE].map((c, i) => [c, i]));

/** `std.base64(input)`: a string (code points < 256 as bytes) or an array of bytes. */
export function base64(input: JsonValue): string {
  let bytes: number[];
  if (typeof input === "string") bytes = Array.from(input, (c) => c.codePointAt(0)!);
  else if (Array.isArray(input)) {
    bytes = input.map((b) => {
      if (typeof b !== "number") {
        throw new StdError(
          `Binary operator < requires matching types, got ${typeOf(b)} and number.`,
        );
      }
      return b;
    });
  } else {throw new StdError(
      `length operates on strings, objects, and arrays, got ${typeOf(input)}`,
    );}
  if (!bytes.every((b) => b < 256)) {
    throw new StdError("Can only base64 encode strings / arrays of single bytes.");
  }
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i], b = bytes[i + 1] ?? 0, c = bytes[i + 2] ?? 0;
    out += TABLE[(a & 252) >> 2];
    out += TABLE[((a & 3) << 4) | ((b & 240) >> 4)];
    out += i + 1 < bytes.length ? TABLE[((b & 15) << 2) | ((c & 192) >> 6)] : "=";
    out += i + 2 < bytes.length ? TABLE[c & 63] : "=";
  }
  return out;
}

function inv(c: string): number {
  if (!Object.hasOwn(INV, c)) throw new StdError(`field does not exist: ${c}`);
  return INV[c];
}

/** `std.base64DecodeBytes(str)`: the decoded bytes as an array of numbers. */
export function base64DecodeBytes(s: JsonValue): number[] {
  if (typeof s !== "string") {
    throw new StdError(`length operates on strings, objects, and arrays, got ${typeOf(s)}`);
  }
  const cs = Array.from(s);
  if (cs.length % 4 !== 0) throw new StdError(`Not a base64 encoded string "${s}"`);
  const out: number[] = [];
  for (let i = 0; i < cs.length; i += 4) {
    out.push((inv(cs[i]) << 2) | (inv(cs[i + 1]) >> 4));
    if (cs[i + 2] !== "=") out.push(((inv(cs[i + 1]) & 15) << 4) | (inv(cs[i + 2]) >> 2));
    if (cs[i + 3] !== "=") out.push(((inv(cs[i + 2]) & 3) << 6) | inv(cs[i + 3]));
  }
  return out;
}

/** `std.encodeUTF8(str)`: the UTF-8 bytes of a string. */
export function encodeUTF8(s: JsonValue): number[] {
  checkBuiltin("encodeUTF8", [s], ["string"]);
  return Array.from(new TextEncoder().encode(s as string));
}

/** `std.decodeUTF8(arr)`: decodes bytes (invalid sequences become U+FFFD). */
export function decodeUTF8(arr: JsonValue): string {
  checkBuiltin("decodeUTF8", [arr], ["array"]);
  const bytes = (arr as JsonValue[]).map((b, i) => {
    if (typeof b !== "number" || !Number.isInteger(b) || b < 0 || b > 255) {
      throw new StdError(`Element ${i} of the provided array was not a byte`);
    }
    return b;
  });
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function hasher(name: string, h: (b: Uint8Array) => Uint8Array): (s: JsonValue) => string {
  return (s) => {
    checkBuiltin(name, [s], ["string"]);
    return bytesToHex(h(new TextEncoder().encode(s as string)));
  };
}

/** `std.parseJson(str)`: parses JSON text into a value. */
export function parseJson(s: JsonValue): JsonValue {
  checkBuiltin("parseJson", [s], ["string"]);
  try {
    return JSON.parse(s as string) as JsonValue;
  } catch (e) {
    throw new StdError(`failed to parse JSON: ${(e as Error).message}`);
  }
}

/** The encoding std functions keyed by std name. */
export const encodingFunctions: Record<string, (...a: JsonValue[]) => JsonValue> = {
  base64,
  base64DecodeBytes,
  base64Decode: (s) => base64DecodeBytes(s).map(charOf).join(""),
  encodeUTF8,
  decodeUTF8,
  md5: hasher("md5", md5),
  sha1: hasher("sha1", sha1),
  sha256: hasher("sha256", sha256),
  sha512: hasher("sha512", sha512),
  sha3: hasher("sha3", sha3_512),
  parseJson,
};
