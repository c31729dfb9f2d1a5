/**
 * The vault client (reference AC61–AC64) over `fetch`: registration on first use, login by
 * challenge-response, invites (by token or auto-discovery), collections, roles and secrets —
 * every key and value is encrypted or decrypted here, never on the server. Also the readers the
 * rest of graphsvc uses: {@link vaultSecretSource} (actions' sealing) and
 * {@link vaultSecretProvider} (generators' `vault(…)` placeholders).
 *
 * @module
 */
import { parseDuration } from "../generators/duration.ts";
import type { SecretProvider } from "../generators/secrets.ts";
import {
  decryptSecret,
  DEFAULT_KDF,
  deriveKeyPair,
  encryptSecret,
  fromBase64,
  inviteKeys,
  type KdfParams,
  type KeyPair,
  openFrom,
  random,
  sealTo,
  toBase64,
  toBase64Url,
  unwrapInvite,
  unwrapKey,
  VaultCryptoError,
  wrapForInvite,
  wrapKey,
} from "./crypto.ts";
import type { Role } from "./state.ts";

/** Configuration of a client (AC61: `GRAPHSVC_VAULT_*`). */
export interface VaultClientConfig {
  /** Base URL of the server (`GRAPHSVC_VAULT_URL`), e.g. `http://127.0.0.1:7600`. */
  url: string;
  /** This client's name (`GRAPHSVC_VAULT_CLIENTNAME`). */
  client: string;
  /** Password its key pair derives from (`GRAPHSVC_VAULT_PASSWORD`). */
  password: string;
  /** An invite token to accept at login (`GRAPHSVC_VAULT_INVITE_TOKEN`). */
  inviteToken?: string;
  /** Key derivation of a new registration (default {@link DEFAULT_KDF}). */
  kdf?: KdfParams;
  /** The fetch to use (default the global one). */
  fetch?: typeof fetch;
}

/** Why a vault operation failed: `auth` and `server` exit 1, `usage` exits 2 (AC62). */
export type VaultErrorKind = "auth" | "server" | "not-found" | "usage";

/** A failed vault operation; the message never holds a secret, password or token. */
export class VaultClientError extends Error {
  /** Creates the error. @param kind what failed @param message what happened */
  constructor(readonly kind: VaultErrorKind, message: string) {
    super(message);
    this.name = "VaultClientError";
  }
}

/**
 * The client configuration from `GRAPHSVC_VAULT_*` variables; `undefined` unless URL, client
 * name and password are all set.
 *
 * @example
 * ```ts
 * import { vaultConfigFromEnv } from "./client.ts";
 * console.log(vaultConfigFromEnv({})); // undefined
 * ```
 */
export function vaultConfigFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): VaultClientConfig | undefined {
  const url = env.GRAPHSVC_VAULT_URL;
  const client = env.GRAPHSVC_VAULT_CLIENTNAME;
  const password = env.GRAPHSVC_VAULT_PASSWORD;
  if (!url || !client || !password) return undefined;
  const inviteToken = env.GRAPHSVC_VAULT_INVITE_TOKEN || undefined;
  return { url, client, password, inviteToken };
}

const segment = encodeURIComponent;

/**
 * A vault client.
 *
 * @example
 * ```ts ignore
 * const vault = new VaultClient({ url: "http://127.0.0.1:7600", client: "ci", password: "pw" });
 * await vault.putSecret("app", "db", "s3cret");
 * console.log(await vault.getSecret("app", "db")); // "s3cret"
 * ```
 */
export class VaultClient {
  readonly #config: VaultClientConfig;
  readonly #fetch: typeof fetch;
  #session: Promise<{ token: string; pair: KeyPair }> | undefined;
  readonly #keys = new Map<string, Uint8Array>();

  /** Creates a client (nothing is sent yet). @param config server, name, password, invite token */
  constructor(config: VaultClientConfig) {
    this.#config = config;
    this.#fetch = config.fetch ?? fetch;
  }

  async #call(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; json: Record<string, unknown> }> {
    const url = this.#config.url.replace(/\/+$/, "") + path;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method,
        headers: {
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
    } catch (e) {
      throw new VaultClientError(
        "server",
        `vault ${this.#config.url} is unreachable: ${e instanceof Error ? e.message : e}`,
      );
    }
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = text ? JSON.parse(text) : {};
    } catch { /* not JSON: reported by status below */ }
    return { status: res.status, json };
  }

  async #ok(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<Record<string, unknown>> {
    const { status, json } = await this.#call(method, path, body, token);
    if (status >= 200 && status < 300) return json;
    const detail = typeof json.detail === "string" ? json.detail : `HTTP ${status}`;
    const kind: VaultErrorKind = status === 401 || status === 403
      ? "auth"
      : status === 404
      ? "not-found"
      : "server";
    throw new VaultClientError(kind, `vault: ${detail}`);
  }

  /** Logs in (registering on first use), then accepts invites; cached per client. */
  session(): Promise<{ token: string; pair: KeyPair }> {
    this.#session ??= this.#login().catch((e) => {
      this.#session = undefined;
      throw e;
    });
    return this.#session;
  }

  async #login(): Promise<{ token: string; pair: KeyPair }> {
    const name = this.#config.client;
    const info = await this.#call("GET", `/vault/v1/clients/${segment(name)}`);
    let pair: KeyPair;
    if (info.status === 404) {
      const salt = random(16);
      const kdf = this.#config.kdf ?? DEFAULT_KDF;
      pair = deriveKeyPair(this.#config.password, salt, kdf);
      const registered = await this.#call("POST", "/vault/v1/clients", {
        name,
        public_key: toBase64(pair.publicKey),
        salt: toBase64(salt),
        kdf,
      });
      // Another login of this client registered first: log in with its registration.
      if (registered.status === 409) return await this.#login();
      if (registered.status !== 201) {
        throw new VaultClientError(
          "server",
          `vault: HTTP ${registered.status} registering '${name}'`,
        );
      }
    } else if (info.status === 200) {
      const kdf = info.json.kdf as KdfParams;
      pair = deriveKeyPair(this.#config.password, fromBase64(String(info.json.salt)), kdf);
      if (toBase64(pair.publicKey) !== info.json.public_key) {
        throw new VaultClientError("auth", `wrong password for vault client '${name}'`);
      }
    } else {
      throw new VaultClientError("server", `vault: HTTP ${info.status} looking up '${name}'`);
    }
    const { challenge } = await this.#ok("POST", "/vault/v1/session/challenge", { client: name });
    let answer: string;
    try {
      answer = toBase64(openFrom(String(challenge), pair));
    } catch {
      throw new VaultClientError("auth", `wrong password for vault client '${name}'`);
    }
    const { token } = await this.#ok("POST", "/vault/v1/session", { client: name, answer });
    const session = { token: String(token), pair };
    await this.#acceptInvites(session);
    return session;
  }

  /** Accepts the configured invite token, or those auto-discovery finds (AC63). */
  async #acceptInvites(session: { token: string; pair: KeyPair }): Promise<void> {
    const tokens: string[] = [];
    if (this.#config.inviteToken) tokens.push(this.#config.inviteToken);
    else {
      const found = await this.#call("GET", `/vault/v1/invite/${segment(this.#config.client)}`);
      const list = found.status === 200 && Array.isArray(found.json.invites)
        ? found.json.invites as { sealed_token: string }[]
        : [];
      for (const i of list) {
        try {
          tokens.push(new TextDecoder().decode(openFrom(i.sealed_token, session.pair)));
        } catch { /* sealed to another key: not ours */ }
      }
    }
    for (const token of tokens) {
      const { id, key } = inviteKeys(token);
      const got = await this.#call(
        "GET",
        `/vault/v1/invites/${segment(id)}`,
        undefined,
        session.token,
      );
      if (got.status === 404) continue; // used or expired: nothing to accept
      if (got.status !== 200) {
        throw new VaultClientError("server", `vault: HTTP ${got.status} reading an invite`);
      }
      let collectionKey: Uint8Array;
      try {
        collectionKey = unwrapInvite(String(got.json.wrapped), key);
      } catch (e) {
        if (e instanceof VaultCryptoError) {
          throw new VaultClientError("auth", "the invite token is not valid");
        }
        throw e;
      }
      await this.#ok("POST", `/vault/v1/invites/${segment(id)}/accept`, {
        wrapped_key: wrapKey(collectionKey, session.pair.publicKey),
      }, session.token);
    }
  }

  async #collectionKey(collection: string): Promise<Uint8Array> {
    const cached = this.#keys.get(collection);
    if (cached) return cached;
    const { token, pair } = await this.session();
    const r = await this.#ok(
      "GET",
      `/vault/v1/collections/${segment(collection)}/key`,
      undefined,
      token,
    );
    const key = unwrapKey(String(r.wrapped_key), pair);
    this.#keys.set(collection, key);
    return key;
  }

  /** Creates a collection with a fresh random key; this client becomes its Admin. */
  async createCollection(collection: string): Promise<void> {
    const { token, pair } = await this.session();
    const key = random(32);
    await this.#ok("POST", "/vault/v1/collections", {
      name: collection,
      wrapped_key: wrapKey(key, pair.publicKey),
    }, token);
    this.#keys.set(collection, key);
  }

  /**
   * Invites `client` to `collection` for `validity` (e.g. `1h`); returns the invite token. When
   * the invitee is registered, the token is also sealed to its key for auto-discovery (AC63).
   */
  async invite(
    collection: string,
    client: string,
    validity: string,
    role: Role = "Reader",
  ): Promise<string> {
    const ms = parseDuration(validity);
    if (ms === undefined || ms <= 0) {
      throw new VaultClientError(
        "usage",
        `--validity '${validity}' is not a duration such as 1h or 30m`,
      );
    }
    const key = await this.#collectionKey(collection);
    const { token: session } = await this.session();
    const token = toBase64Url(random(32));
    const { id, key: inviteKey } = inviteKeys(token);
    const invitee = await this.#call("GET", `/vault/v1/clients/${segment(client)}`);
    const sealed = invitee.status === 200
      ? sealTo(new TextEncoder().encode(token), fromBase64(String(invitee.json.public_key)))
      : undefined;
    await this.#ok("POST", `/vault/v1/collections/${segment(collection)}/invites`, {
      id,
      client,
      role,
      expires_at: new Date(Date.now() + ms).toISOString(),
      wrapped: wrapForInvite(key, inviteKey),
      ...(sealed ? { sealed_token: sealed } : {}),
    }, session);
    return token;
  }

  /** Sets the role of a member (or of its pending invites). */
  async setRole(collection: string, client: string, role: Role): Promise<void> {
    const { token } = await this.session();
    await this.#ok(
      "PUT",
      `/vault/v1/collections/${segment(collection)}/members/${segment(client)}`,
      {
        role,
      },
      token,
    );
  }

  /** Encrypts and stores a secret. */
  async putSecret(collection: string, secret: string, value: string): Promise<void> {
    const key = await this.#collectionKey(collection);
    const { token } = await this.session();
    await this.#ok(
      "PUT",
      `/vault/v1/collections/${segment(collection)}/secrets/${segment(secret)}`,
      { value: encryptSecret(key, collection, secret, value) },
      token,
    );
  }

  /** The plaintext of a secret; `undefined` when the collection or secret does not exist. */
  async getSecret(collection: string, secret: string): Promise<string | undefined> {
    try {
      return await this.#getSecret(collection, secret);
    } catch (e) {
      // A long-lived client's session expires: log in again once.
      if (!(e instanceof VaultClientError) || e.kind !== "auth" || !this.#session) throw e;
      this.#session = undefined;
      this.#keys.delete(collection);
      return await this.#getSecret(collection, secret);
    }
  }

  async #getSecret(collection: string, secret: string): Promise<string | undefined> {
    let key: Uint8Array;
    try {
      key = await this.#collectionKey(collection);
    } catch (e) {
      if (e instanceof VaultClientError && e.kind === "not-found") return undefined;
      throw e;
    }
    const { token } = await this.session();
    const path = `/vault/v1/collections/${segment(collection)}/secrets/${segment(secret)}`;
    const r = await this.#call("GET", path, undefined, token);
    if (r.status === 404) return undefined;
    if (r.status === 401) throw new VaultClientError("auth", "vault: the session expired");
    if (r.status !== 200) {
      throw new VaultClientError("server", `vault: HTTP ${r.status} reading a secret`);
    }
    return decryptSecret(key, collection, secret, String(r.json.value));
  }
}

/**
 * A strong random secret (AC62: 32 bytes, base64url).
 *
 * @example
 * ```ts
 * import { generateSecret } from "./client.ts";
 * console.log(generateSecret().length); // 43
 * ```
 */
export function generateSecret(): string {
  return toBase64Url(random(32));
}

/**
 * The reader the actions' sealing calls: `{ read(collection, secret) }` (AC20); `undefined` for
 * a secret that does not exist or cannot be read (the run then fails with
 * `secrets_unavailable`, AC22). Errors are swallowed so no message can carry a value.
 *
 * @example
 * ```ts ignore
 * const source = vaultSecretSource(new VaultClient(config));
 * await source.read("app", "db"); // "s3cret" or undefined
 * ```
 */
export function vaultSecretSource(
  client: VaultClient,
  onError: (message: string) => void = () => {},
): { read(collection: string, secret: string): Promise<string | undefined> } {
  return {
    read: async (collection, secret) => {
      try {
        return await client.getSecret(collection, secret);
      } catch (e) {
        onError(
          `vault: cannot read ${collection}/${secret}: ${e instanceof Error ? e.message : e}`,
        );
        return undefined;
      }
    },
  };
}

/**
 * The generators' secret provider backed by the vault (GN9, GN16).
 *
 * @example
 * ```ts ignore
 * const provider = vaultSecretProvider(new VaultClient(config));
 * ```
 */
export function vaultSecretProvider(
  client: VaultClient,
  onError?: (message: string) => void,
): SecretProvider {
  const source = vaultSecretSource(client, onError);
  return { resolve: (collection, secret) => source.read(collection, secret) };
}
