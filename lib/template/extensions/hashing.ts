/**
 * Digest and encoding filters: `sha256` (T29), `base64_encode` (T30), `hmac_sha256` (T31).
 * Synchronous (@noble/hashes), because Tera filters are synchronous.
 *
 * @module
 */

import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { ExtensionError } from "./errors.ts";
import { optionalString, requireString, textOrJson, type ToJson } from "./values.ts";

const encoder = new TextEncoder();

/** Lowercase hexadecimal form of bytes. */
export function toHex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Standard base64 (RFC 4648 alphabet, with padding). */
export function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** Filter `sha256`: hex SHA-256 of the UTF-8 text (non-strings: their compact JSON). */
export function sha256Filter(value: unknown, toJson: ToJson): string {
  return toHex(sha256(encoder.encode(textOrJson(value, toJson))));
}

/** Filter `base64_encode`: base64 of the UTF-8 text (non-strings: their compact JSON). */
export function base64EncodeFilter(value: unknown, toJson: ToJson): string {
  return toBase64(encoder.encode(textOrJson(value, toJson)));
}

/** Filter `hmac_sha256(key=K, encoding="hex"|"base64")` (default `hex`). */
export function hmacSha256Filter(
  value: unknown,
  args: Record<string, unknown>,
  toJson: ToJson,
): string {
  const ext = "hmac_sha256";
  const key = requireString(ext, args, "key");
  const encoding = optionalString(ext, args, "encoding") ?? "hex";
  if (encoding !== "hex" && encoding !== "base64") {
    throw new ExtensionError(
      ext,
      `encoding must be "hex" or "base64", got ${JSON.stringify(encoding)}`,
      "encoding",
    );
  }
  const mac = hmac(sha256, encoder.encode(key), encoder.encode(textOrJson(value, toJson)));
  return encoding === "hex" ? toHex(mac) : toBase64(mac);
}
