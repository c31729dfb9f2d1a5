/**
 * Cryptography of the built-in vault (reference AC64), composed from audited primitives only:
 * a client's X25519 key pair is derived from its password with Argon2id (`@noble/hashes`);
 * every collection has a random 256-bit key, wrapped for each member with libsodium's sealed box
 * (AC21, lib/actions/seal.ts); secrets are AES-256-GCM under the collection key
 * (`@noble/ciphers`), bound to their collection and name as associated data. Invite tokens
 * derive (HKDF-SHA256) an id the server can check and a key the server never sees.
 *
 * @module
 */
import { argon2id } from "@noble/hashes/argon2.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { gcm } from "@noble/ciphers/aes.js";
import { randomBytes } from "@noble/hashes/utils.js";
import {
  fromBase64,
  generateKeyPair,
  type KeyPair,
  openSealed,
  seal,
  toBase64,
} from "../actions/seal.ts";

export { fromBase64, type KeyPair, toBase64 };

/** Argon2id parameters of a client's key derivation (stored with the client). */
export interface KdfParams {
  /** Algorithm; only `argon2id`. */
  alg: "argon2id";
  /** Memory in KiB. */
  m: number;
  /** Passes. */
  t: number;
  /** Lanes. */
  p: number;
}

/** Default key derivation: OWASP's Argon2id minimum (19 MiB, 2 passes, 1 lane). */
export const DEFAULT_KDF: KdfParams = { alg: "argon2id", m: 19456, t: 2, p: 1 };

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A vault value that cannot be decrypted (wrong key or tampered data); says nothing more. */
export class VaultCryptoError extends Error {
  /** Creates the error. @param what which value */
  constructor(what: string) {
    super(`${what} cannot be decrypted (wrong password or key, or tampered data)`);
    this.name = "VaultCryptoError";
  }
}

/**
 * The client's X25519 key pair from its password and salt (AC64).
 *
 * @example
 * ```ts
 * import { deriveKeyPair } from "./crypto.ts";
 * const kp = deriveKeyPair("pw", new Uint8Array(16), { alg: "argon2id", m: 64, t: 1, p: 1 });
 * console.log(kp.publicKey.length); // 32
 * ```
 */
export function deriveKeyPair(password: string, salt: Uint8Array, kdf: KdfParams): KeyPair {
  if (kdf.alg !== "argon2id") throw new RangeError(`unknown key derivation '${kdf.alg}'`);
  const seed = argon2id(encoder.encode(password), salt, {
    m: kdf.m,
    t: kdf.t,
    p: kdf.p,
    dkLen: 32,
  });
  const pair = generateKeyPair(seed);
  seed.fill(0);
  return pair;
}

/** `n` random bytes from the platform's CSPRNG. */
export function random(n: number): Uint8Array {
  return randomBytes(n);
}

/**
 * Base64url without padding (tokens, generated secrets).
 *
 * @example
 * ```ts
 * import { toBase64Url } from "./crypto.ts";
 * console.log(toBase64Url(new Uint8Array([251, 255]))); // "-_8"
 * ```
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Bytes of base64url text (padding optional). */
export function fromBase64Url(text: string): Uint8Array {
  const std = text.replaceAll("-", "+").replaceAll("_", "/");
  return fromBase64(std + "=".repeat((4 - (std.length % 4)) % 4));
}

/** Wraps a collection key for a member's public key (sealed box, AC21). */
export function wrapKey(key: Uint8Array, memberPk: Uint8Array): string {
  return toBase64(seal(key, memberPk));
}

/** Opens a wrapped collection key with the member's key pair. */
export function unwrapKey(wrapped: string, pair: KeyPair): Uint8Array {
  try {
    return openSealed(fromBase64(wrapped), pair);
  } catch {
    throw new VaultCryptoError("the collection key");
  }
}

function aad(collection: string, secret: string): Uint8Array {
  return encoder.encode(`graphsvc-vault/v1\0${collection}\0${secret}`);
}

/**
 * Encrypts a secret value under its collection key: base64 of nonce (12) ‖ AES-256-GCM output.
 *
 * @example
 * ```ts
 * import { decryptSecret, encryptSecret, random } from "./crypto.ts";
 * const key = random(32);
 * const blob = encryptSecret(key, "app", "db", "s3cret");
 * console.log(decryptSecret(key, "app", "db", blob)); // "s3cret"
 * ```
 */
export function encryptSecret(
  key: Uint8Array,
  collection: string,
  secret: string,
  value: string,
): string {
  const nonce = random(12);
  const ct = gcm(key, nonce, aad(collection, secret)).encrypt(encoder.encode(value));
  const out = new Uint8Array(12 + ct.length);
  out.set(nonce, 0);
  out.set(ct, 12);
  return toBase64(out);
}

/** Decrypts what {@link encryptSecret} produced; {@link VaultCryptoError} when it cannot. */
export function decryptSecret(
  key: Uint8Array,
  collection: string,
  secret: string,
  blob: string,
): string {
  try {
    const bytes = fromBase64(blob);
    const pt = gcm(key, bytes.subarray(0, 12), aad(collection, secret)).decrypt(bytes.subarray(12));
    return decoder.decode(pt);
  } catch {
    throw new VaultCryptoError(`secret '${secret}'`);
  }
}

/**
 * What an invite token derives: `id` (the server stores only its SHA-256 and checks it) and
 * `key` (wraps the collection key for the invitee; never sent).
 *
 * @example
 * ```ts
 * import { inviteKeys } from "./crypto.ts";
 * const { id, key } = inviteKeys("token");
 * console.log(id.length > 0, key.length); // true 32
 * ```
 */
export function inviteKeys(token: string): { id: string; key: Uint8Array } {
  const ikm = encoder.encode(token);
  const id = toBase64Url(
    hkdf(sha256, ikm, undefined, encoder.encode("graphsvc-vault invite id"), 32),
  );
  const key = hkdf(sha256, ikm, undefined, encoder.encode("graphsvc-vault invite key"), 32);
  return { id, key };
}

/** Encrypts a collection key under an invite key (AES-256-GCM, random nonce). */
export function wrapForInvite(collectionKey: Uint8Array, inviteKey: Uint8Array): string {
  const nonce = random(12);
  const ct = gcm(inviteKey, nonce, encoder.encode("graphsvc-vault invite")).encrypt(collectionKey);
  const out = new Uint8Array(12 + ct.length);
  out.set(nonce, 0);
  out.set(ct, 12);
  return toBase64(out);
}

/** Opens {@link wrapForInvite}'s output. */
export function unwrapInvite(blob: string, inviteKey: Uint8Array): Uint8Array {
  try {
    const bytes = fromBase64(blob);
    return gcm(inviteKey, bytes.subarray(0, 12), encoder.encode("graphsvc-vault invite"))
      .decrypt(bytes.subarray(12));
  } catch {
    throw new VaultCryptoError("the invite");
  }
}

/** Hex SHA-256 of text (server-side ids of session and invite tokens). */
export function sha256Hex(text: string): string {
  return Array.from(sha256(encoder.encode(text)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Seals bytes to a public key and returns base64 (challenges, discoverable invites). */
export function sealTo(message: Uint8Array, publicKey: Uint8Array): string {
  return toBase64(seal(message, publicKey));
}

/** Opens what {@link sealTo} produced. */
export function openFrom(box: string, pair: KeyPair): Uint8Array {
  try {
    return openSealed(fromBase64(box), pair);
  } catch {
    throw new VaultCryptoError("the sealed value");
  }
}
