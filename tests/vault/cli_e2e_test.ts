/**
 * The vault end to end (AC60–AC63): a real `cli.ts serve --vault <state.json>` process and the
 * `vault` client commands as real processes against it — create, put (given, generated, stdin),
 * invite, role, get; wrong password and Reader writes refused (exit 1); usage errors (exit 2);
 * the state file holds no plaintext secret and is private (0600).
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { cli, ROOT, spawnServe, tempWorkspace } from "../cli/_cli.ts";

Deno.test("AC60–AC63: serve --vault and the vault commands, end to end", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n" });
  const state = `${dir}/state/vault.json`;
  const server = await spawnServe(dir, [], {
    globalArgs: ["--vault", state],
    env: { GRAPHSVC_VAULT_URL: "", GRAPHSVC_VAULT_PASSWORD: "" },
  });
  try {
    const as = (client: string, password: string, extra: Record<string, string> = {}) => ({
      GRAPHSVC_VAULT_URL: server.url,
      GRAPHSVC_VAULT_CLIENTNAME: client,
      GRAPHSVC_VAULT_PASSWORD: password,
      GRAPHSVC_VAULT_INVITE_TOKEN: "",
      ...extra,
    });
    const admin = as("admin-orchestrator", "admin-pw");
    assertEquals((await cli(["vault", "collection", "create", "app-backend"], admin)).code, 0);
    const put = await cli(
      ["vault", "secret", "put", "app-backend", "db-password", "s3cr3t-db"],
      admin,
    );
    assertEquals([put.code, put.stdout], [0, ""]);
    assertEquals(
      (await cli(["vault", "secret", "put", "app-backend", "api-token"], admin)).code,
      0,
    );
    const generated = await cli(["vault", "secret", "get", "app-backend", "api-token"], admin);
    assertMatch(generated.stdout, /^[A-Za-z0-9_-]{43}\n$/);
    // `-` reads the value from stdin.
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}cli.ts`,
        "vault",
        "secret",
        "put",
        "app-backend",
        "from-stdin",
        "-",
      ],
      env: admin,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const w = child.stdin.getWriter();
    await w.write(new TextEncoder().encode("piped-value\n"));
    await w.close();
    assertEquals((await child.output()).code, 0);

    const invite = await cli(
      [
        "vault",
        "collection",
        "invite",
        "app-backend",
        "--client",
        "backend-server-01",
        "--validity",
        "1h",
      ],
      admin,
    );
    assertEquals(invite.code, 0, invite.stderr);
    const token = invite.stdout.trim();
    assert(token.length >= 40);
    const role = await cli(
      [
        "vault",
        "collection",
        "role",
        "app-backend",
        "--client",
        "backend-server-01",
        "--role",
        "Reader",
      ],
      admin,
    );
    assertEquals(role.code, 0, role.stderr);

    const backend = as("backend-server-01", "backend-pw", { GRAPHSVC_VAULT_INVITE_TOKEN: token });
    const got = await cli(["vault", "secret", "get", "app-backend", "db-password"], backend);
    assertEquals([got.code, got.stdout], [0, "s3cr3t-db\n"]);
    const piped = await cli(["vault", "secret", "get", "app-backend", "from-stdin"], backend);
    assertEquals(piped.stdout, "piped-value\n");
    // A Reader cannot write: exit 1.
    const denied = await cli(
      ["vault", "secret", "put", "app-backend", "db-password", "x"],
      backend,
    );
    assertEquals(denied.code, 1);
    // Wrong password: exit 1, and the message repeats neither password.
    const wrong = await cli(
      ["vault", "secret", "get", "app-backend", "db-password"],
      as("admin-orchestrator", "guess"),
    );
    assertEquals(wrong.code, 1);
    assert(!wrong.stderr.includes("guess") && !wrong.stderr.includes("admin-pw"), wrong.stderr);
    // Usage errors: exit 2.
    assertEquals(
      (await cli(["vault", "secret", "get", "app-backend", "db-password"], {
        GRAPHSVC_VAULT_URL: "",
      })).code,
      2,
    );
    assertEquals(
      (await cli(
        ["vault", "collection", "role", "app-backend", "--client", "x", "--role", "God"],
        admin,
      )).code,
      2,
    );
    assertEquals(
      (await cli([
        "vault",
        "collection",
        "invite",
        "app-backend",
        "--client",
        "y",
        "--validity",
        "soon",
      ], admin)).code,
      2,
    );
    // The state file: no plaintext secret, no password, no invite token; private to its owner.
    const text = await Deno.readTextFile(state);
    for (
      const needle of [
        "s3cr3t-db",
        "piped-value",
        generated.stdout.trim(),
        "admin-pw",
        "backend-pw",
        token,
      ]
    ) {
      assert(!text.includes(needle), "the state file holds a plaintext value");
    }
    assertEquals((await Deno.stat(state)).mode! & 0o777, 0o600);
  } finally {
    await server.stop();
    assert(!server.stderr().includes("s3cr3t-db"), "the server log holds a secret");
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AC60: a corrupt --vault state file is a usage error (exit 2) naming the path", async () => {
  const dir = await tempWorkspace({ "assets/h.csv": "name\nx\n", "vault.json": '{"format":2}' });
  try {
    const r = await cli([
      "--data-dir",
      dir,
      "--vault",
      `${dir}/vault.json`,
      "serve",
      "--port",
      "0",
    ]);
    assertEquals(r.code, 2);
    assert(r.stderr.includes("vault.json: format"), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
