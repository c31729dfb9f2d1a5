/**
 * The vault server's state (reference AC60, AC64): clients (public key, salt and key-derivation
 * parameters — never a password), collections (members with their wrapped collection key and
 * role, secrets as AES-GCM ciphertext) and pending invites (stored by the hash of their id). It
 * holds no plaintext secret and no key that could open one: the server is zero-knowledge.
 *
 * @module
 */
import type { KdfParams } from "./crypto.ts";

/** Roles of a collection member (AC62). */
export type Role = "Reader" | "Writer" | "Admin";

/** Every role, weakest first. */
export const ROLES: readonly Role[] = ["Reader", "Writer", "Admin"];

/** A registered client. */
export interface ClientRecord {
  /** Base64 X25519 public key. */
  public_key: string;
  /** Base64 salt of the key derivation. */
  salt: string;
  /** Key-derivation parameters. */
  kdf: KdfParams;
  /** RFC 3339 registration time. */
  created_at: string;
}

/** A member of a collection. */
export interface MemberRecord {
  /** What the member may do. */
  role: Role;
  /** The collection key sealed to the member's public key (base64). */
  wrapped_key: string;
}

/** An encrypted secret. */
export interface SecretRecord {
  /** Base64 nonce ‖ AES-256-GCM ciphertext. */
  value: string;
  /** RFC 3339 time of the last write. */
  updated_at: string;
  /** Client that wrote it. */
  updated_by: string;
}

/** A collection. */
export interface CollectionRecord {
  /** Client that created it. */
  created_by: string;
  /** Members by client name. */
  members: Record<string, MemberRecord>;
  /** Secrets by name. */
  secrets: Record<string, SecretRecord>;
}

/** A pending invite (by the SHA-256 of its id; the token itself is never stored). */
export interface InviteRecord {
  /** Collection it grants. */
  collection: string;
  /** Client it is for. */
  client: string;
  /** Role granted. */
  role: Role;
  /** RFC 3339 expiry. */
  expires_at: string;
  /** The collection key encrypted under the invite key (base64). */
  wrapped: string;
  /** The invite token sealed to the client's public key, for auto-discovery (AC63). */
  sealed_token?: string;
  /** Who invited. */
  created_by: string;
}

/** The whole state file. */
export interface VaultState {
  /** Format version (1). */
  format: 1;
  /** Clients by name. */
  clients: Record<string, ClientRecord>;
  /** Collections by name. */
  collections: Record<string, CollectionRecord>;
  /** Invites by SHA-256 (hex) of their id. */
  invites: Record<string, InviteRecord>;
}

/** A state file that is not a vault state; names the offending path. */
export class VaultStateError extends Error {
  /**
   * Creates the error.
   * @param file the state file
   * @param path JSON path of the problem, e.g. `collections.app.members.ci.role`
   * @param reason what is wrong
   */
  constructor(readonly file: string, readonly path: string, reason: string) {
    super(`${file}: ${path ? `${path}: ` : ""}${reason}`);
    this.name = "VaultStateError";
  }
}

/**
 * An empty state.
 *
 * @example
 * ```ts
 * import { emptyVaultState } from "./state.ts";
 * console.log(emptyVaultState().format); // 1
 * ```
 */
export function emptyVaultState(): VaultState {
  return { format: 1, clients: {}, collections: {}, invites: {} };
}

/**
 * Parses and checks a state file.
 *
 * @example
 * ```ts
 * import { parseVaultState, serializeVaultState, emptyVaultState } from "./state.ts";
 * const s = parseVaultState(serializeVaultState(emptyVaultState()), "vault.json");
 * console.log(Object.keys(s.clients).length); // 0
 * ```
 */
export function parseVaultState(text: string, file: string): VaultState {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new VaultStateError(file, "", `not JSON (${e instanceof Error ? e.message : e})`);
  }
  const obj = (v: unknown, path: string): Record<string, unknown> => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      throw new VaultStateError(file, path, "expected an object");
    }
    return v as Record<string, unknown>;
  };
  const str = (v: unknown, path: string): string => {
    if (typeof v !== "string") throw new VaultStateError(file, path, "expected a string");
    return v;
  };
  const role = (v: unknown, path: string): Role => {
    if (!(ROLES as readonly unknown[]).includes(v)) {
      throw new VaultStateError(file, path, `expected one of ${ROLES.join(", ")}`);
    }
    return v as Role;
  };
  const root = obj(raw, "");
  if (root.format !== 1) {
    throw new VaultStateError(file, "format", "unsupported format (expected 1)");
  }
  const state = emptyVaultState();
  for (const [name, c] of Object.entries(obj(root.clients ?? {}, "clients"))) {
    const p = `clients.${name}`;
    const r = obj(c, p);
    const kdf = obj(r.kdf, `${p}.kdf`);
    const num = (k: string) => {
      const v = kdf[k];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 1) {
        throw new VaultStateError(file, `${p}.kdf.${k}`, "expected a positive integer");
      }
      return v;
    };
    if (kdf.alg !== "argon2id") {
      throw new VaultStateError(file, `${p}.kdf.alg`, "expected argon2id");
    }
    state.clients[name] = {
      public_key: str(r.public_key, `${p}.public_key`),
      salt: str(r.salt, `${p}.salt`),
      kdf: { alg: "argon2id", m: num("m"), t: num("t"), p: num("p") },
      created_at: str(r.created_at, `${p}.created_at`),
    };
  }
  for (const [name, c] of Object.entries(obj(root.collections ?? {}, "collections"))) {
    const p = `collections.${name}`;
    const r = obj(c, p);
    const members: Record<string, MemberRecord> = {};
    for (const [m, v] of Object.entries(obj(r.members, `${p}.members`))) {
      const mr = obj(v, `${p}.members.${m}`);
      members[m] = {
        role: role(mr.role, `${p}.members.${m}.role`),
        wrapped_key: str(mr.wrapped_key, `${p}.members.${m}.wrapped_key`),
      };
    }
    const secrets: Record<string, SecretRecord> = {};
    for (const [s, v] of Object.entries(obj(r.secrets, `${p}.secrets`))) {
      const sr = obj(v, `${p}.secrets.${s}`);
      secrets[s] = {
        value: str(sr.value, `${p}.secrets.${s}.value`),
        updated_at: str(sr.updated_at, `${p}.secrets.${s}.updated_at`),
        updated_by: str(sr.updated_by, `${p}.secrets.${s}.updated_by`),
      };
    }
    state.collections[name] = {
      created_by: str(r.created_by, `${p}.created_by`),
      members,
      secrets,
    };
  }
  for (const [id, v] of Object.entries(obj(root.invites ?? {}, "invites"))) {
    const p = `invites.${id}`;
    const r = obj(v, p);
    state.invites[id] = {
      collection: str(r.collection, `${p}.collection`),
      client: str(r.client, `${p}.client`),
      role: role(r.role, `${p}.role`),
      expires_at: str(r.expires_at, `${p}.expires_at`),
      wrapped: str(r.wrapped, `${p}.wrapped`),
      ...(r.sealed_token !== undefined
        ? { sealed_token: str(r.sealed_token, `${p}.sealed_token`) }
        : {}),
      created_by: str(r.created_by, `${p}.created_by`),
    };
  }
  return state;
}

/** The state as the text of its file (stable key order, trailing newline). */
export function serializeVaultState(state: VaultState): string {
  return JSON.stringify(state, null, 2) + "\n";
}

/** Where the server keeps its state: the runtime writes it atomically (temp, fsync, rename). */
export interface VaultStore {
  /** Location shown in messages. */
  readonly location: string;
  /** The file's text, or `undefined` when it does not exist. */
  load(): Promise<string | undefined>;
  /** Replaces the file atomically. */
  save(text: string): Promise<void>;
}

/**
 * A store in memory (tests, embedding).
 *
 * @example
 * ```ts
 * import { MemoryVaultStore } from "./state.ts";
 * const store = new MemoryVaultStore();
 * await store.save("{}");
 * console.log(await store.load()); // "{}"
 * ```
 */
export class MemoryVaultStore implements VaultStore {
  /** Location shown in messages. */
  readonly location = "memory:vault";
  /** The current text (tests inspect it). */
  text: string | undefined;

  /** The text, or `undefined`. */
  load(): Promise<string | undefined> {
    return Promise.resolve(this.text);
  }

  /** Replaces the text. */
  save(text: string): Promise<void> {
    this.text = text;
    return Promise.resolve();
  }
}
