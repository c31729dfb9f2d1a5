/**
 * The built-in vault in process (AC60–AC64): state round trip and validation, client ↔ server
 * through the real routes, wrong passwords refused, roles, invites by token and by
 * auto-discovery, and a state that never holds a plaintext secret.
 */
import { Hono } from "hono";
import { assert, assertEquals, assertRejects, assertThrows } from "../_assert.ts";
import {
  emptyVaultState,
  MemoryVaultStore,
  parseVaultState,
  serializeVaultState,
  VaultStateError,
} from "../../lib/vault/state.ts";
import { VaultServer } from "../../lib/vault/server.ts";
import { registerVaultRoutes } from "../../lib/vault/http.ts";
import {
  generateSecret,
  VaultClient,
  VaultClientError,
  vaultConfigFromEnv,
  vaultSecretProvider,
  vaultSecretSource,
} from "../../lib/vault/client.ts";
import { decryptSecret, encryptSecret, random } from "../../lib/vault/crypto.ts";

const FAST = { alg: "argon2id" as const, m: 256, t: 1, p: 1 };

async function setup(clock?: { now: number }) {
  const store = new MemoryVaultStore();
  const server = await VaultServer.open(store, clock ? { now: () => clock.now } : {});
  const app = new Hono();
  registerVaultRoutes(app, server);
  const fetcher =
    ((input: RequestInfo | URL, init?: RequestInit) =>
      Promise.resolve(app.fetch(new Request(input, init)))) as typeof fetch;
  const client = (name: string, password: string, inviteToken?: string) =>
    new VaultClient({
      url: "http://vault.test",
      client: name,
      password,
      inviteToken,
      kdf: FAST,
      fetch: fetcher,
    });
  return { store, server, app, client };
}

Deno.test("AC60: a missing state is created and initialised; the state round-trips", async () => {
  const { store, client } = await setup();
  assertEquals(parseVaultState(store.text!, "m"), emptyVaultState());
  const admin = client("admin", "pw-admin");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "s3cret-value");
  const text = store.text!;
  assertEquals(serializeVaultState(parseVaultState(text, "m")), text);
  // A restarted server reads the same state and serves the same secret.
  const again = await VaultServer.open(store);
  const app2 = new Hono();
  registerVaultRoutes(app2, again);
  const c2 = new VaultClient({
    url: "http://vault.test",
    client: "admin",
    password: "pw-admin",
    fetch: ((i: RequestInfo | URL, init?: RequestInit) =>
      Promise.resolve(app2.fetch(new Request(i, init)))) as typeof fetch,
  });
  assertEquals(await c2.getSecret("app", "db"), "s3cret-value");
});

Deno.test("AC60/AC64: the state file never holds a plaintext secret, password or collection key", async () => {
  const { store, client } = await setup();
  const admin = client("admin", "correct horse battery");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "plain-text-marker-123");
  const token = await admin.invite("app", "ci", "1h");
  const text = store.text!;
  for (const needle of ["plain-text-marker-123", "correct horse battery", token]) {
    assert(!text.includes(needle), `state contains ${needle}`);
  }
  assert(text.includes('"wrapped_key"') && text.includes('"value"'));
});

Deno.test("AC64: a wrong password is refused and reveals nothing", async () => {
  const { client } = await setup();
  const admin = client("admin", "right");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "v");
  const intruder = client("admin", "wrong");
  const e = await assertRejects(() => intruder.getSecret("app", "db"), VaultClientError);
  assertEquals(e.kind, "auth");
  assert(!e.message.includes("wrong") || e.message === "wrong password for vault client 'admin'");
  assert(!e.message.includes("right"));
});

Deno.test("AC62/AC63: invite by token, auto-discovery, and roles (Reader cannot write)", async () => {
  const { client, server } = await setup();
  const admin = client("admin", "a");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "db-pass");
  // A client that is not registered yet gets its key through the token.
  const token = await admin.invite("app", "web-1", "1h");
  const web = client("web-1", "w", token);
  assertEquals(await web.getSecret("app", "db"), "db-pass");
  const denied = await assertRejects(() => web.putSecret("app", "db", "x"), VaultClientError);
  assertEquals(denied.kind, "auth");
  await admin.setRole("app", "web-1", "Writer");
  await web.putSecret("app", "api", "from-web");
  assertEquals(await admin.getSecret("app", "api"), "from-web");
  // A registered client finds its invite by auto-discovery (no token).
  const mon = client("mon", "m");
  assertEquals(await mon.getSecret("app", "db"), undefined); // registered, not a member
  await admin.invite("app", "mon", "1h");
  await admin.setRole("app", "mon", "Reader"); // the role of a pending invite
  const mon2 = client("mon", "m");
  assertEquals(await mon2.getSecret("app", "db"), "db-pass");
  assertEquals(server.collectionKey("mon", "app").role, "Reader");
  // An outsider sees nothing.
  assertEquals(await client("eve", "e").getSecret("app", "db"), undefined);
});

Deno.test("AC62: invites expire; a used token cannot be reused by another client", async () => {
  const { client } = await setup();
  const admin = client("admin", "a");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "v");
  const token = await admin.invite("app", "ci", "1h");
  assertEquals(await client("ci", "c", token).getSecret("app", "db"), "v");
  assertEquals(await client("other", "o", token).getSecret("app", "db"), undefined);
  const bad = await assertRejects(() => admin.invite("app", "x", "soon"), VaultClientError);
  assertEquals(bad.kind, "usage");
});

Deno.test("AC60: login is challenge-response; session tokens are required and checked", async () => {
  const { app } = await setup();
  const res = await app.fetch(new Request("http://vault.test/vault/v1/collections/app/key"));
  assertEquals(res.status, 401);
  const forged = await app.fetch(
    new Request("http://vault.test/vault/v1/collections/app/key", {
      headers: { authorization: "Bearer abc" },
    }),
  );
  assertEquals(forged.status, 401);
  const body = await forged.json();
  assert(!JSON.stringify(body).includes("abc"));
  const login = await app.fetch(
    new Request("http://vault.test/vault/v1/session", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client: "nobody", answer: "x" }),
    }),
  );
  assertEquals(login.status, 401);
});

Deno.test("AC60: a corrupt state file is refused with the offending path", () => {
  const e = assertThrows(
    () =>
      parseVaultState(
        '{"format":1,"clients":{},"collections":{"app":{"created_by":"a","members":{"a":{"role":"God","wrapped_key":"x"}},"secrets":{}}},"invites":{}}',
        "vault.json",
      ),
    VaultStateError,
  );
  assertEquals(e.path, "collections.app.members.a.role");
  assertThrows(() => parseVaultState("nope", "vault.json"), VaultStateError);
});

Deno.test("AC64: AES-256-GCM binds a secret to its collection and name", () => {
  const key = random(32);
  const blob = encryptSecret(key, "app", "db", "v");
  assertEquals(decryptSecret(key, "app", "db", blob), "v");
  assertThrows(() => decryptSecret(key, "app", "other", blob));
  assertThrows(() => decryptSecret(random(32), "app", "db", blob));
});

Deno.test("AC61/AC62: GRAPHSVC_VAULT_* configuration; generated secrets are 32 bytes base64url", () => {
  assertEquals(
    vaultConfigFromEnv({ GRAPHSVC_VAULT_URL: "u", GRAPHSVC_VAULT_CLIENTNAME: "c" }),
    undefined,
  );
  assertEquals(
    vaultConfigFromEnv({
      GRAPHSVC_VAULT_URL: "u",
      GRAPHSVC_VAULT_CLIENTNAME: "c",
      GRAPHSVC_VAULT_PASSWORD: "p",
      GRAPHSVC_VAULT_INVITE_TOKEN: "t",
    }),
    { url: "u", client: "c", password: "p", inviteToken: "t" },
  );
  const s = generateSecret();
  assert(/^[A-Za-z0-9_-]{43}$/.test(s), s);
});

Deno.test("AC20/GN16: the secret source and provider read through the vault; failures give undefined without values", async () => {
  const { client } = await setup();
  const admin = client("admin", "a");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "the-value");
  const messages: string[] = [];
  const source = vaultSecretSource(admin, (m) => messages.push(m));
  assertEquals(await source.read("app", "db"), "the-value");
  assertEquals(await source.read("app", "nope"), undefined);
  assertEquals(await vaultSecretProvider(admin).resolve("app", "db"), "the-value");
  const broken = vaultSecretSource(client("admin", "bad"), (m) => messages.push(m));
  assertEquals(await broken.read("app", "db"), undefined);
  assert(
    messages.length === 1 && !messages[0].includes("the-value") && !messages[0].includes("bad"),
  );
});

Deno.test("AC62: an expired invite grants nothing; overlapping logins of one client both succeed", async () => {
  const clock = { now: Date.now() };
  const { client } = await setup(clock);
  const admin = client("admin", "a");
  await admin.createCollection("app");
  await admin.putSecret("app", "db", "v");
  const token = await admin.invite("app", "late", "1h");
  clock.now += 2 * 3_600_000;
  assertEquals(await client("late", "l", token).getSecret("app", "db"), undefined);
  // Two sessions of the same client logging in at once (e.g. parallel generators).
  const [a, b] = await Promise.all([client("ci", "c").session(), client("ci", "c").session()]);
  assert(a.token !== b.token);
});
