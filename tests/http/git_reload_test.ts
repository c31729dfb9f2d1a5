/**
 * The reload webhook with Git synchronisation of the data directory (reference R40–R43): the
 * token check (401 missing/wrong, 403 when none is configured), `202` and a background sync +
 * full rebuild from a real Git remote (a bare repository, as a file:// URL and as a plain local
 * path), new commits picked up by the next reload, and a broken remote failing the build — shown
 * in `/api/engine-info` and the build log, never with the URL's password — while the previous
 * graph stays live.
 *
 * Needs the `git` command; without it the tests are skipped, except under `CI=true` where a
 * missing `git` is a failure.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp, type GraphsvcApp } from "../../lib/api/app.ts";
import { gitSync } from "../../lib/runtime/deno/git_sync.ts";

const TOKEN = "reload-token-0123456789";
const PASSWORD = "s3cretpassword";
const BROKEN_URL = `https://user:${PASSWORD}@127.0.0.1:1/x.git`;

async function gitAvailable(): Promise<boolean> {
  try {
    return (await new Deno.Command("git", { args: ["--version"], stdout: "null", stderr: "null" })
      .output()).success;
  } catch {
    return false;
  }
}

const HAVE_GIT = await gitAvailable();
if (!HAVE_GIT) {
  if (Deno.env.get("CI") === "true") {
    throw new Error("git_reload_test: `git` is required under CI=true but was not found");
  }
  console.warn("git_reload_test: `git` not found; skipping the Git reload tests");
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=test", "-c", "user.email=test@example.invalid", ...args],
    cwd,
    env: { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** A working repository with one commit of `files`, published as a bare repository. */
async function remote(files: Record<string, string>) {
  const base = await Deno.makeTempDir({ prefix: "graphsvc-git-" });
  const work = `${base}/work`;
  const bare = `${base}/remote.git`;
  await Deno.mkdir(work);
  await git(work, "init", "-q", "-b", "main");
  const commit = async (changes: Record<string, string | null>, message: string) => {
    for (const [path, text] of Object.entries(changes)) {
      const full = `${work}/${path}`;
      if (text === null) {
        await git(work, "rm", "-q", path);
        continue;
      }
      await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
      await Deno.writeTextFile(full, text);
      await git(work, "add", path);
    }
    await git(work, "commit", "-q", "-m", message);
  };
  await commit(files, "initial data");
  await git(base, "clone", "-q", "--bare", work, bare);
  await git(work, "remote", "add", "origin", bare);
  const push = async (changes: Record<string, string | null>, message: string) => {
    await commit(changes, message);
    await git(work, "push", "-q", "origin", "main");
  };
  return { base, bare, push };
}

/** An engine over an empty data directory; apps are created per sync configuration. */
async function service() {
  const dataDir = await Deno.makeTempDir({ prefix: "graphsvc-data-" });
  const engine = new GraphEngine({
    workspace: new DenoFsWorkspace(dataDir),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const log: string[] = [];
  engine.subscribe((e) => {
    if (e.kind === "line") log.push(e.text);
    if (e.kind === "end") log.push(e.message);
  });
  return { dataDir, engine, log };
}

function call(app: GraphsvcApp, path: string, init: RequestInit = {}): Promise<Response> {
  return Promise.resolve(app.fetch(new Request(`http://127.0.0.1${path}`, init)));
}

async function reload(app: GraphsvcApp, token?: string): Promise<Response> {
  return await call(app, "/api/webhook/reload", {
    method: "POST",
    headers: token === undefined ? {} : { "X-API-Token": token },
  });
}

/** Reloads with the token and waits for the build through `Graphsvc-Min-Generation`. */
async function reloadAndWait(app: GraphsvcApp): Promise<Response> {
  const res = await reload(app, TOKEN);
  assertEquals(res.status, 202);
  const body = await res.json();
  assertEquals(body.status, "reload-scheduled");
  assertEquals(res.headers.get("Graphsvc-Generation"), String(body.generation));
  return await call(app, "/api/engine-info", {
    headers: { "Graphsvc-Min-Generation": String(body.generation) },
  });
}

async function hosts(app: GraphsvcApp): Promise<string[]> {
  const res = await call(app, "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "{ host { name os } }" }),
  });
  const body = await res.json();
  assertEquals(body.errors, undefined, JSON.stringify(body.errors));
  return (body.data.host as { name: string; os: string }[]).map((h) => `${h.name}:${h.os}`).sort();
}

for (const variant of ["file:// URL", "plain local path"] as const) {
  Deno.test({
    name:
      `R42/R43 reload with Git sync (${variant}): clone into the data directory, pick up pushed commits, hard-reset local edits`,
    ignore: !HAVE_GIT,
    fn: async () => {
      const origin = await remote({
        "assets/host.csv": "name,os\nweb-1,linux\nweb-2,bsd\n",
        "assets/net.csv": "name\nlan\n",
      });
      const { dataDir, engine } = await service();
      try {
        const url = variant === "file:// URL" ? `file://${origin.bare}` : origin.bare;
        const app = createApp(engine, { apiToken: TOKEN, sync: gitSync(dataDir, url) });
        assertEquals(engine.current.graph.resourceCount, 0);

        const first = await reloadAndWait(app);
        assertEquals(first.status, 200);
        const info = await first.json();
        assertEquals(info.last_build.status, "ok", JSON.stringify(info.last_build));
        assertEquals(await hosts(app), ["web-1:linux", "web-2:bsd"]);
        assertEquals(
          await Deno.readTextFile(`${dataDir}/assets/host.csv`),
          "name,os\nweb-1,linux\nweb-2,bsd\n",
        );

        // A local edit (e.g. through the write API) is replaced by the remote head on reload.
        await Deno.writeTextFile(`${dataDir}/assets/host.csv`, "name,os\nlocal-only,plan9\n");
        await origin.push({
          "assets/host.csv": "name,os\nweb-1,openbsd\nweb-3,linux\n",
          "assets/net.csv": null,
        }, "second commit");
        const second = await reloadAndWait(app);
        assertEquals(second.status, 200);
        assertEquals(await hosts(app), ["web-1:openbsd", "web-3:linux"]);
        assertEquals(engine.current.graph.resourceCount, 2, "net.csv was deleted upstream");
      } finally {
        await engine.waitFor(engine.latestGeneration);
        await Deno.remove(dataDir, { recursive: true });
        await Deno.remove(origin.base, { recursive: true });
      }
    },
  });
}

Deno.test({
  name:
    "R43 a failing Git sync fails the build: engine-info and the build log show the error without the URL's password, the previous graph stays live",
  ignore: !HAVE_GIT,
  fn: async () => {
    const origin = await remote({ "assets/host.csv": "name,os\nweb-1,linux\n" });
    const { dataDir, engine, log } = await service();
    try {
      const good = createApp(engine, { apiToken: TOKEN, sync: gitSync(dataDir, origin.bare) });
      assertEquals((await reloadAndWait(good)).status, 200);
      const before = engine.current.generation;
      assertEquals(await hosts(good), ["web-1:linux"]);

      const broken = createApp(engine, {
        apiToken: TOKEN,
        sync: gitSync(dataDir, BROKEN_URL, { timeoutMs: 30_000 }),
      });
      const waited = await reloadAndWait(broken);
      assertEquals(waited.status, 409, "the build that was to contain the reload failed");
      const problemText = await waited.text();
      assert(!problemText.includes(PASSWORD), problemText);

      const info = await (await call(broken, "/api/engine-info")).json();
      assertEquals(info.last_build.status, "failed");
      assert(/git/i.test(info.last_build.error), info.last_build.error);
      assert(!JSON.stringify(info).includes(PASSWORD), JSON.stringify(info.last_build));
      assertEquals(info.generation, before, "the previous snapshot is still served");
      assertEquals(await hosts(broken), ["web-1:linux"]);
      assert(log.some((l) => l.startsWith("BUILD_FAILED") && /git/i.test(l)), log.join("\n"));
      assert(!log.some((l) => l.includes(PASSWORD)), log.join("\n"));
      assert(!engine.buildLog.lines.some((l) => l.includes(PASSWORD)));

      // The next good reload recovers.
      await origin.push({ "assets/host.csv": "name,os\nweb-1,linux\nweb-9,bsd\n" }, "more");
      assertEquals((await reloadAndWait(good)).status, 200);
      assertEquals(await hosts(good), ["web-1:linux", "web-9:bsd"]);
    } finally {
      await engine.waitFor(engine.latestGeneration);
      await Deno.remove(dataDir, { recursive: true });
      await Deno.remove(origin.base, { recursive: true });
    }
  },
});

Deno.test("R40/R41 reload webhook: 401 for a missing or wrong token, 403 without a configured token, no rebuild either way", async () => {
  const { dataDir, engine } = await service();
  try {
    let synced = 0;
    const sync = () => {
      synced++;
      return Promise.resolve();
    };
    const app = createApp(engine, { apiToken: TOKEN, sync });
    const generation = engine.latestGeneration;
    for (const token of [undefined, "", "wrong", TOKEN.slice(0, -1), `${TOKEN}x`]) {
      const res = await reload(app, token);
      assertEquals(res.status, 401, `token ${JSON.stringify(token)}`);
      assertEquals(res.headers.get("content-type"), "application/problem+json");
      assert(!(await res.text()).includes(TOKEN));
    }
    for (const apiToken of [undefined, ""]) {
      const disabled = createApp(engine, { apiToken, sync });
      for (const token of [undefined, TOKEN, ""]) {
        const res = await reload(disabled, token);
        assertEquals(res.status, 403, `apiToken ${JSON.stringify(apiToken)}, token ${token}`);
        await res.body?.cancel();
      }
    }
    assertEquals(engine.latestGeneration, generation);
    assertEquals(synced, 0);

    const ok = await reload(app, TOKEN);
    assertEquals(ok.status, 202);
    await engine.waitFor((await ok.json()).generation);
    assertEquals(synced, 1);
  } finally {
    await engine.waitFor(engine.latestGeneration);
    await Deno.remove(dataDir, { recursive: true });
  }
});
