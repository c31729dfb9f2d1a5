/**
 * Route descriptions of the built-in vault (`--vault <state.json>`, reference AC60–AC63), part of
 * the route table of routes.ts. Secrets travel encrypted: the server never sees a plaintext.
 *
 * @module
 */
import Type from "typebox";
import type { ResponseDoc, RouteDoc } from "./types.ts";
import { AnyObject, Problem } from "./schemas.ts";

const ok = (description: string): ResponseDoc => ({ description, schema: AnyObject });
const fail = (description: string): ResponseDoc => ({
  description,
  contentType: "application/problem+json",
  schema: Problem,
});
const bearer = {
  name: "Authorization",
  in: "header",
  description: "`Bearer <token>` from `POST /vault/v1/session`",
  required: true,
} as const;
const JSON_TYPE = "application/json";
const body = (description: string) => ({ contentType: JSON_TYPE, schema: AnyObject, description });
const refused = {
  400: fail("malformed request"),
  401: fail("missing, expired or wrong session token"),
  403: fail("the client's role does not allow it"),
  404: fail("no such client, collection, secret or invite"),
};
const entry = (
  method: RouteDoc["method"],
  route: string,
  summary: string,
  extra: Partial<RouteDoc> = {},
): RouteDoc => ({
  method,
  route,
  summary,
  description: "AC60 (built-in vault, only with `--vault`).",
  tag: "Vault",
  responses: { 200: ok("done"), ...refused },
  ...extra,
});

/** The vault's operations (registered only when the server runs with `--vault`). */
export const VAULT_ROUTES: readonly RouteDoc[] = [
  entry("GET", "/vault/v1/clients/:name", "A client's public key, salt and KDF parameters"),
  entry("POST", "/vault/v1/clients", "Register a client", {
    requestBody: body("`{name, public_key, salt, kdf}`"),
    responses: { 201: ok("registered"), ...refused },
  }),
  entry("POST", "/vault/v1/session/challenge", "A sealed challenge for a client", {
    requestBody: { contentType: JSON_TYPE, schema: Type.Object({ client: Type.String() }) },
  }),
  entry("POST", "/vault/v1/session", "Answer the challenge: a session token", {
    requestBody: body("`{client, answer}` → `{token, expires_at}`"),
  }),
  entry("POST", "/vault/v1/collections", "Create a collection", {
    parameters: [bearer],
    requestBody: body("`{name, wrapped_key}`"),
    responses: { 201: ok("created"), ...refused },
  }),
  entry("GET", "/vault/v1/collections/:c/key", "The caller's wrapped collection key and role", {
    parameters: [bearer],
  }),
  entry("PUT", "/vault/v1/collections/:c/secrets/:s", "Store an encrypted secret", {
    parameters: [bearer],
    requestBody: body("`{value}` (encrypted)"),
  }),
  entry("GET", "/vault/v1/collections/:c/secrets/:s", "Read an encrypted secret", {
    parameters: [bearer],
  }),
  entry("POST", "/vault/v1/collections/:c/invites", "Invite a client (Admin)", {
    parameters: [bearer],
    requestBody: body("the invite"),
    responses: { 201: ok("invited"), ...refused },
  }),
  entry("PUT", "/vault/v1/collections/:c/members/:client", "Set a member's role (Admin)", {
    parameters: [bearer],
    requestBody: body("`{role}`"),
  }),
  entry("GET", "/vault/v1/invite/:client", "Sealed invite tokens for a client (AC63)"),
  entry("GET", "/vault/v1/invites/:id", "Read an invite", { parameters: [bearer] }),
  entry("POST", "/vault/v1/invites/:id/accept", "Accept an invite", {
    parameters: [bearer],
    requestBody: body("the acceptance"),
  }),
];
