/**
 * Sealed secrets (reference AC21, AC23): libsodium's sealed box (`crypto_box_seal`), built from
 * audited primitives — X25519 from `@noble/curves`, BLAKE2b from `@noble/hashes`, HSalsa20 and
 * XSalsa20-Poly1305 from `@noble/ciphers` — so that any libsodium binding opens what we seal with
 * `crypto_box_seal_open` and the runner's key pair, and we open what libsodium seals.
 *
 * Construction: an ephemeral X25519 key pair `(epk, esk)`; `k = HSalsa20(X25519(esk, pk), 0)`
 * (`crypto_box_beforenm`); nonce = BLAKE2b-24(epk ‖ pk); output = epk ‖ XSalsa20-Poly1305(k,
 * nonce, message).
 *
 * @module
 */
import { x25519 } from "@noble/curves/ed25519.js";
import { blake2b } from "@noble/hashes/blake2.js";
import { hsalsa, xsalsa20poly1305 } from "@noble/ciphers/salsa.js";

/** Length of a sealed box's overhead: ephemeral public key (32) + Poly1305 tag (16). */
export const SEAL_OVERHEAD = 48;

/** An X25519 key pair (32-byte keys). */
export interface KeyPair {
  /** Public key. */
  publicKey: Uint8Array;
  /** Secret key. */
  secretKey: Uint8Array;
}

/** A sealed box that cannot be opened (wrong key, tampered or truncated). */
export class SealOpenError extends Error {
  /** Creates the error. */
  constructor() {
    super("the sealed box cannot be opened with this key pair");
    this.name = "SealOpenError";
  }
}

/**
 * A fresh X25519 key pair; `seed` (32 bytes) makes it deterministic (tests).
 *
 * @example
 * ```ts
 * import { generateKeyPair } from "./seal.ts";
 * console.log(generateKeyPair().publicKey.length); // 32
 * ```
 */
export function generateKeyPair(seed?: Uint8Array): KeyPair {
  const secretKey = seed ? seed.slice() : x25519.utils.randomSecretKey();
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}

// "expand 32-byte k" as little-endian words.
const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

function words(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

function bytesOf(w: Uint32Array): Uint8Array {
  const out = new Uint8Array(w.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < w.length; i++) view.setUint32(i * 4, w[i], true);
  return out;
}

/** `crypto_box_beforenm`: HSalsa20 of the X25519 shared secret with a zero nonce. */
function boxKey(secretKey: Uint8Array, publicKey: Uint8Array): Uint8Array {
  const shared = x25519.getSharedSecret(secretKey, publicKey);
  const out = new Uint32Array(8);
  hsalsa(SIGMA, words(shared), new Uint32Array(4), out);
  return bytesOf(out);
}

function sealNonce(ephemeralPk: Uint8Array, recipientPk: Uint8Array): Uint8Array {
  const input = new Uint8Array(64);
  input.set(ephemeralPk, 0);
  input.set(recipientPk, 32);
  return blake2b(input, { dkLen: 24 });
}

/**
 * `crypto_box_seal`: seals `message` to `recipientPk`. `ephemeralSeed` pins the ephemeral key
 * (tests of deterministic bundles only; never reuse one in production).
 *
 * @example
 * ```ts
 * import { generateKeyPair, openSealed, seal } from "./seal.ts";
 * const kp = generateKeyPair();
 * const box = seal(new TextEncoder().encode("s3cret"), kp.publicKey);
 * console.log(new TextDecoder().decode(openSealed(box, kp))); // "s3cret"
 * ```
 */
export function seal(
  message: Uint8Array,
  recipientPk: Uint8Array,
  ephemeralSeed?: Uint8Array,
): Uint8Array {
  if (recipientPk.length !== 32) throw new RangeError("an X25519 public key has 32 bytes");
  const eph = generateKeyPair(ephemeralSeed);
  const key = boxKey(eph.secretKey, recipientPk);
  const ct = xsalsa20poly1305(key, sealNonce(eph.publicKey, recipientPk)).encrypt(message);
  const out = new Uint8Array(32 + ct.length);
  out.set(eph.publicKey, 0);
  out.set(ct, 32);
  eph.secretKey.fill(0);
  key.fill(0);
  return out;
}

/**
 * `crypto_box_seal_open`: opens a sealed box with the recipient's key pair; throws
 * {@link SealOpenError} when it cannot.
 *
 * @example
 * ```ts
 * import { generateKeyPair, openSealed, seal } from "./seal.ts";
 * const kp = generateKeyPair();
 * openSealed(seal(new Uint8Array([1]), kp.publicKey), kp); // Uint8Array [1]
 * ```
 */
export function openSealed(box: Uint8Array, recipient: KeyPair): Uint8Array {
  if (box.length < SEAL_OVERHEAD) throw new SealOpenError();
  const epk = box.subarray(0, 32);
  const key = boxKey(recipient.secretKey, epk);
  try {
    return xsalsa20poly1305(key, sealNonce(epk, recipient.publicKey)).decrypt(box.subarray(32));
  } catch {
    throw new SealOpenError();
  } finally {
    key.fill(0);
  }
}

/**
 * Standard base64 of bytes (AC21 `sealed`, AC16 `runner_key`).
 *
 * @example
 * ```ts
 * import { toBase64 } from "./seal.ts";
 * console.log(toBase64(new Uint8Array([255]))); // "/w=="
 * ```
 */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/**
 * Bytes of standard base64; throws `SyntaxError` for invalid text.
 *
 * @example
 * ```ts
 * import { fromBase64 } from "./seal.ts";
 * console.log(fromBase64("/w==")); // Uint8Array [255]
 * ```
 */
export function fromBase64(text: string): Uint8Array {
  let raw: string;
  try {
    raw = atob(text.trim());
  } catch {
    throw new SyntaxError("not valid base64");
  }
  const out = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}
