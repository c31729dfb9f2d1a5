/**
 * The vault server's protocol (reference AC60–AC64), independent of HTTP: client registration,
 * challenge-response login (a nonce sealed to the client's public key; only the holder of the
 * password-derived key opens it), sessions, collections, encrypted secrets, invites and roles.
 * Every mutation is persisted through the {@link VaultStore} before it is acknowledged. Tokens
 * are kept only as SHA-256 digests and found by digest, so lookup timing says nothing about a
 * token (the constant-time property of lib/api/auth.ts, without a linear scan); no message repeats
 * one.
 *
 * @module
 */
import { fromBase64, random, sealTo, sha256Hex, toBase64, toBase64Url } from "./crypto.ts";
import {
  type ClientRecord,
  emptyVaultState,
  type InviteRecord,
  parseVaultState,
  type Role,
  ROLES,
  serializeVaultState,
  type VaultState,
  type VaultStore,
} from "./state.ts";

/** A refused vault request. */
export class VaultHttpError extends Error {
  /**
   * Creates the error.
   * @param status HTTP status
   * @param slug problem type
   * @param message what is wrong (never a token or secret)
   */
  constructor(
    readonly status: number,
    readonly slug: "bad-request" | "unauthorized" | "forbidden" | "not-found" | "duplicate-key",
    message: string,
  ) {
    super(message);
    this.name = "VaultHttpError";
  }
}

/** Options of {@link VaultServer}. */
export interface VaultServerOptions {
  /** Clock (default `Date.now`). */
  now?: () => number;
  /** Session lifetime in ms (default 15 min). */
  sessionTtlMs?: number;
}

const CHALLENGE_TTL_MS = 60_000;
const MAX_CHALLENGES = 10_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The vault server over a store.
 *
 * @example
 * ```ts
 * import { MemoryVaultStore } from "./state.ts";
 * import { VaultServer } from "./server.ts";
 * const server = await VaultServer.open(new MemoryVaultStore());
 * console.log(server.clientInfo("nobody") === undefined); // true
 * ```
 */
export class VaultServer {
  #state: VaultState;
  readonly #store: VaultStore;
  readonly #now: () => number;
  readonly #ttl: number;
  /** Pending challenges by the digest of their nonce (several logins of a client may overlap). */
  readonly #challenges = new Map<string, { client: string; expires: number }>();
  readonly #sessions = new Map<string, { client: string; expires: number }>();
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(state: VaultState, store: VaultStore, options: VaultServerOptions) {
    this.#state = state;
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#ttl = options.sessionTtlMs ?? 15 * 60_000;
  }

  /** Loads the state, creating and saving an empty one when the file is missing (AC60). */
  static async open(store: VaultStore, options: VaultServerOptions = {}): Promise<VaultServer> {
    const text = await store.load();
    const state = text === undefined ? emptyVaultState() : parseVaultState(text, store.location);
    if (text === undefined) await store.save(serializeVaultState(state));
    return new VaultServer(state, store, options);
  }

  /** Runs a mutation serialised, persisting the state; a failed save restores the old state. */
  #mutate<T>(change: (state: VaultState) => T): Promise<T> {
    const run = async () => {
      const before = serializeVaultState(this.#state);
      try {
        const result = change(this.#state);
        await this.#store.save(serializeVaultState(this.#state));
        return result;
      } catch (e) {
        this.#state = parseVaultState(before, this.#store.location);
        throw e;
      }
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Public data of a client (salt and KDF parameters are needed before login). */
  clientInfo(name: string): (Omit<ClientRecord, "created_at"> & { name: string }) | undefined {
    const c = this.#state.clients[name];
    return c ? { name, public_key: c.public_key, salt: c.salt, kdf: c.kdf } : undefined;
  }

  /** Registers a client; 409 when the name is taken. */
  register(name: string, record: Omit<ClientRecord, "created_at">): Promise<void> {
    checkName(name, "client");
    if (decodeKey(record.public_key).length !== 32) {
      throw new VaultHttpError(400, "bad-request", "public_key must be a base64 X25519 key");
    }
    return this.#mutate((s) => {
      if (s.clients[name]) {
        throw new VaultHttpError(409, "duplicate-key", `client '${name}' is already registered`);
      }
      s.clients[name] = { ...record, created_at: new Date(this.#now()).toISOString() };
    });
  }

  /** A login challenge: a random nonce sealed to the client's public key. */
  challenge(client: string): string {
    const c = this.#state.clients[client];
    if (!c) throw new VaultHttpError(404, "not-found", `client '${client}' is not registered`);
    const nonce = random(32);
    const now = this.#now();
    // Unauthenticated callers may ask for challenges: expired ones go, and the map is bounded.
    for (const [k, v] of this.#challenges) if (v.expires <= now) this.#challenges.delete(k);
    while (this.#challenges.size >= MAX_CHALLENGES) {
      this.#challenges.delete(this.#challenges.keys().next().value!);
    }
    this.#challenges.set(sha256Hex(toBase64(nonce)), {
      client,
      expires: now + CHALLENGE_TTL_MS,
    });
    return sealTo(nonce, decodeKey(c.public_key));
  }

  /** Answers a challenge: a session token when the answer is the opened nonce. */
  login(client: string, answer: string): { token: string; expires_at: string } {
    const digest = sha256Hex(answer);
    const pending = this.#challenges.get(digest);
    this.#challenges.delete(digest); // one use per challenge
    const ok = pending !== undefined && pending.expires > this.#now() &&
      pending.client === client;
    if (!ok) throw new VaultHttpError(401, "unauthorized", "login failed");
    const token = toBase64Url(random(32));
    const expires = this.#now() + this.#ttl;
    this.#sessions.set(sha256Hex(token), { client, expires });
    return { token, expires_at: new Date(expires).toISOString() };
  }

  /** The client of a bearer token; 401 when missing, unknown or expired. */
  authenticate(authorization: string | null): string {
    const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1];
    if (!token) throw new VaultHttpError(401, "unauthorized", "a session token is required");
    const session = this.#sessions.get(sha256Hex(token));
    if (!session || session.expires <= this.#now()) {
      throw new VaultHttpError(401, "unauthorized", "the session token is not valid");
    }
    return session.client;
  }

  #member(client: string, collection: string, least: Role) {
    const c = this.#state.collections[collection];
    const m = c?.members[client];
    if (!c || !m) {
      throw new VaultHttpError(404, "not-found", `no collection '${collection}' for '${client}'`);
    }
    if (ROLES.indexOf(m.role) < ROLES.indexOf(least)) {
      throw new VaultHttpError(403, "forbidden", `'${client}' is ${m.role} of '${collection}'`);
    }
    return { collection: c, member: m };
  }

  /** Creates a collection; the creator becomes its Admin with the key it wrapped for itself. */
  createCollection(client: string, name: string, wrappedKey: string): Promise<void> {
    checkName(name, "collection");
    return this.#mutate((s) => {
      if (s.collections[name]) {
        throw new VaultHttpError(409, "duplicate-key", `collection '${name}' already exists`);
      }
      s.collections[name] = {
        created_by: client,
        members: { [client]: { role: "Admin", wrapped_key: wrappedKey } },
        secrets: {},
      };
    });
  }

  /** The caller's wrapped collection key and role. */
  collectionKey(client: string, collection: string): { wrapped_key: string; role: Role } {
    const { member } = this.#member(client, collection, "Reader");
    return { wrapped_key: member.wrapped_key, role: member.role };
  }

  /** Stores an encrypted secret (Writer or Admin). */
  putSecret(client: string, collection: string, secret: string, value: string): Promise<void> {
    checkName(secret, "secret");
    this.#member(client, collection, "Writer");
    return this.#mutate((s) => {
      s.collections[collection].secrets[secret] = {
        value,
        updated_at: new Date(this.#now()).toISOString(),
        updated_by: client,
      };
    });
  }

  /** An encrypted secret (any member). */
  getSecret(client: string, collection: string, secret: string): string {
    const { collection: c } = this.#member(client, collection, "Reader");
    const s = c.secrets[secret];
    if (!s) throw new VaultHttpError(404, "not-found", `no secret '${secret}' in '${collection}'`);
    return s.value;
  }

  /** Creates an invite (Admin); `id` is derived from the token the server never sees. */
  createInvite(
    client: string,
    collection: string,
    invite: {
      id: string;
      client: string;
      role: Role;
      expires_at: string;
      wrapped: string;
      sealed_token?: string;
    },
  ): Promise<void> {
    this.#member(client, collection, "Admin");
    checkName(invite.client, "client");
    if (!ROLES.includes(invite.role)) {
      throw new VaultHttpError(400, "bad-request", `role must be one of ${ROLES.join(", ")}`);
    }
    if (Number.isNaN(Date.parse(invite.expires_at))) {
      throw new VaultHttpError(400, "bad-request", "expires_at must be an RFC 3339 time");
    }
    return this.#mutate((s) => {
      this.#dropExpired(s);
      const record: InviteRecord = {
        collection,
        client: invite.client,
        role: invite.role,
        expires_at: invite.expires_at,
        wrapped: invite.wrapped,
        created_by: client,
        ...(invite.sealed_token ? { sealed_token: invite.sealed_token } : {}),
      };
      s.invites[sha256Hex(invite.id)] = record;
    });
  }

  #dropExpired(s: VaultState): void {
    for (const [k, v] of Object.entries(s.invites)) {
      if (Date.parse(v.expires_at) <= this.#now()) delete s.invites[k];
    }
  }

  /** Auto-discovery (AC63): tokens of live invites for `client`, sealed to its public key. */
  discover(client: string): { collection: string; sealed_token: string }[] {
    return Object.values(this.#state.invites)
      .filter((i) =>
        i.client === client && i.sealed_token && Date.parse(i.expires_at) > this.#now()
      )
      .map((i) => ({ collection: i.collection, sealed_token: i.sealed_token! }));
  }

  /** The caller's invite by id (to unwrap the collection key). */
  invite(client: string, id: string): InviteRecord {
    const i = this.#state.invites[sha256Hex(id)];
    if (!i || i.client !== client || Date.parse(i.expires_at) <= this.#now()) {
      throw new VaultHttpError(404, "not-found", "no such invite (expired or already used)");
    }
    return i;
  }

  /** Accepts an invite: the caller becomes a member with the key it re-wrapped for itself. */
  acceptInvite(
    client: string,
    id: string,
    wrappedKey: string,
  ): Promise<{ collection: string; role: Role }> {
    const invite = this.invite(client, id);
    return this.#mutate((s) => {
      const c = s.collections[invite.collection];
      if (!c) {
        throw new VaultHttpError(404, "not-found", `collection '${invite.collection}' is gone`);
      }
      c.members[client] = { role: invite.role, wrapped_key: wrappedKey };
      delete s.invites[sha256Hex(id)];
      return { collection: invite.collection, role: invite.role };
    });
  }

  /** Sets a member's role, and the role of its pending invites (Admin). */
  setRole(client: string, collection: string, member: string, role: Role): Promise<void> {
    this.#member(client, collection, "Admin");
    if (!ROLES.includes(role)) {
      throw new VaultHttpError(400, "bad-request", `role must be one of ${ROLES.join(", ")}`);
    }
    return this.#mutate((s) => {
      let found = false;
      const m = s.collections[collection].members[member];
      if (m) {
        m.role = role;
        found = true;
      }
      for (const i of Object.values(s.invites)) {
        if (i.collection === collection && i.client === member) {
          i.role = role;
          found = true;
        }
      }
      if (!found) {
        throw new VaultHttpError(
          404,
          "not-found",
          `'${member}' is neither member of nor invited to '${collection}'`,
        );
      }
    });
  }
}

function checkName(name: string, what: string): void {
  if (!NAME.test(name)) {
    throw new VaultHttpError(
      400,
      "bad-request",
      `${what} names use letters, digits, '.', '_' and '-' (at most 128)`,
    );
  }
}

function decodeKey(text: string): Uint8Array {
  try {
    return fromBase64(text);
  } catch {
    return new Uint8Array();
  }
}
