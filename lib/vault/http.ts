/**
 * HTTP routes of the built-in vault (reference AC60, AC63), mounted under `/vault/v1` when the
 * server runs with `--vault <state.json>`. JSON in, JSON out; refusals are problem documents.
 *
 * | Route | Meaning |
 * |---|---|
 * | `GET /vault/v1/clients/{name}` | public key, salt and KDF parameters of a client |
 * | `POST /vault/v1/clients` | register `{name, public_key, salt, kdf}` |
 * | `POST /vault/v1/session/challenge` | `{client}` → `{challenge}` (sealed nonce) |
 * | `POST /vault/v1/session` | `{client, answer}` → `{token, expires_at}` |
 * | `POST /vault/v1/collections` | create `{name, wrapped_key}` (bearer) |
 * | `GET /vault/v1/collections/{c}/key` | the caller's wrapped key and role |
 * | `PUT`/`GET /vault/v1/collections/{c}/secrets/{s}` | encrypted secret `{value}` |
 * | `POST /vault/v1/collections/{c}/invites` | create an invite (Admin) |
 * | `PUT /vault/v1/collections/{c}/members/{client}` | `{role}` (Admin) |
 * | `GET /vault/v1/invite/{client}` | auto-discovery: sealed invite tokens (AC63) |
 * | `GET /vault/v1/invites/{id}` / `POST …/{id}/accept` | read / accept an invite (bearer) |
 *
 * @module
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { problem } from "../api/problem.ts";
import { readJsonBody } from "../api/rest/write_responses.ts";
import type { KdfParams } from "./crypto.ts";
import { VaultHttpError, type VaultServer } from "./server.ts";
import type { Role } from "./state.ts";

/** Largest accepted vault request body. */
const MAX_VAULT_BODY_BYTES = 1024 * 1024;

type Json = Record<string, unknown>;

async function body(c: Context): Promise<Json> {
  const parsed = await readJsonBody(c.req.raw);
  if (!parsed.ok) throw new VaultHttpError(400, "bad-request", "the body must be a JSON object");
  const v = parsed.value;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new VaultHttpError(400, "bad-request", "the body must be a JSON object");
  }
  return v as Json;
}

function str(b: Json, key: string): string {
  const v = b[key];
  if (typeof v !== "string" || v === "") {
    throw new VaultHttpError(400, "bad-request", `'${key}' must be a non-empty string`);
  }
  return v;
}

function refused(e: unknown): Response {
  if (e instanceof VaultHttpError) return problem(e.status, e.slug, e.message);
  throw e;
}

/**
 * Registers the vault routes on `app`.
 *
 * @example
 * ```ts ignore
 * registerVaultRoutes(app, await VaultServer.open(store));
 * ```
 */
export function registerVaultRoutes(app: Hono, vault: VaultServer): void {
  app.use(
    "/vault/*",
    bodyLimit({
      maxSize: MAX_VAULT_BODY_BYTES,
      onError: () => problem(413, "payload-too-large", "vault request body is too large"),
    }),
  );
  const route = (handler: (c: Context) => Promise<Response> | Response) => async (c: Context) => {
    try {
      return await handler(c);
    } catch (e) {
      return refused(e);
    }
  };
  const auth = (c: Context) => vault.authenticate(c.req.header("authorization") ?? null);
  const p = (c: Context, name: string) => {
    try {
      return decodeURIComponent(c.req.param(name) ?? "");
    } catch {
      throw new VaultHttpError(400, "bad-request", `path segment '${name}' is not valid`);
    }
  };

  app.get(
    "/vault/v1/clients/:name",
    route((c) => {
      const info = vault.clientInfo(p(c, "name"));
      if (!info) throw new VaultHttpError(404, "not-found", "no such client");
      return c.json(info);
    }),
  );
  app.post(
    "/vault/v1/clients",
    route(async (c) => {
      const b = await body(c);
      const kdf = b.kdf as KdfParams | undefined;
      const ok = kdf && kdf.alg === "argon2id" &&
        [kdf.m, kdf.t, kdf.p].every((n) => Number.isInteger(n) && n >= 1) && kdf.m >= 8 * kdf.p;
      if (!ok) throw new VaultHttpError(400, "bad-request", "'kdf' must be argon2id parameters");
      await vault.register(str(b, "name"), {
        public_key: str(b, "public_key"),
        salt: str(b, "salt"),
        kdf: { alg: "argon2id", m: kdf.m, t: kdf.t, p: kdf.p },
      });
      return c.json({ name: b.name }, 201);
    }),
  );
  app.post(
    "/vault/v1/session/challenge",
    route(async (c) => c.json({ challenge: vault.challenge(str(await body(c), "client")) })),
  );
  app.post(
    "/vault/v1/session",
    route(async (c) => {
      const b = await body(c);
      return c.json(vault.login(str(b, "client"), str(b, "answer")));
    }),
  );
  app.post(
    "/vault/v1/collections",
    route(async (c) => {
      const client = auth(c);
      const b = await body(c);
      await vault.createCollection(client, str(b, "name"), str(b, "wrapped_key"));
      return c.json({ name: b.name }, 201);
    }),
  );
  app.get(
    "/vault/v1/collections/:c/key",
    route((c) => c.json(vault.collectionKey(auth(c), p(c, "c")))),
  );
  app.put(
    "/vault/v1/collections/:c/secrets/:s",
    route(async (c) => {
      const client = auth(c);
      await vault.putSecret(client, p(c, "c"), p(c, "s"), str(await body(c), "value"));
      return c.json({ ok: true });
    }),
  );
  app.get(
    "/vault/v1/collections/:c/secrets/:s",
    route((c) => c.json({ value: vault.getSecret(auth(c), p(c, "c"), p(c, "s")) })),
  );
  app.post(
    "/vault/v1/collections/:c/invites",
    route(async (c) => {
      const client = auth(c);
      const b = await body(c);
      await vault.createInvite(client, p(c, "c"), {
        id: str(b, "id"),
        client: str(b, "client"),
        role: str(b, "role") as Role,
        expires_at: str(b, "expires_at"),
        wrapped: str(b, "wrapped"),
        sealed_token: typeof b.sealed_token === "string" ? b.sealed_token : undefined,
      });
      return c.json({ ok: true }, 201);
    }),
  );
  app.put(
    "/vault/v1/collections/:c/members/:client",
    route(async (c) => {
      const client = auth(c);
      const role = str(await body(c), "role") as Role;
      await vault.setRole(client, p(c, "c"), p(c, "client"), role);
      return c.json({ ok: true });
    }),
  );
  app.get(
    "/vault/v1/invite/:client",
    route((c) => c.json({ invites: vault.discover(p(c, "client")) })),
  );
  app.get(
    "/vault/v1/invites/:id",
    route((c) => {
      const i = vault.invite(auth(c), p(c, "id"));
      return c.json({
        collection: i.collection,
        role: i.role,
        expires_at: i.expires_at,
        wrapped: i.wrapped,
      });
    }),
  );
  app.post(
    "/vault/v1/invites/:id/accept",
    route(async (c) => {
      const client = auth(c);
      const b = await body(c);
      return c.json(await vault.acceptInvite(client, p(c, "id"), str(b, "wrapped_key")));
    }),
  );
}
