/**
 * The Deno schema fetcher (reference SV12): files outside a module's loaded folders, Git URLs
 * with `#<path>` from a local repository (`file://`), clone reuse and refresh, and errors that
 * name the path. Needs --allow-read --allow-write --allow-run --allow-env.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { denoSchemaFetcher } from "../../lib/runtime/deno/schema_fetch.ts";

async function repoWith(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-schema-repo-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path.slice(0, path.lastIndexOf("/"))}`, { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

async function git(dir: string, ...args: string[]) {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, ...args],
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
    stdout: "null",
    stderr: "piped",
  }).output();
  assert(out.success, new TextDecoder().decode(out.stderr));
}

Deno.test("SV12 Git #path locations are cloned once and read; a missing path names it", async () => {
  const repo = await repoWith({ "s/a.schema.json": '{"v":1}' });
  await git(repo, "init", "-q");
  await git(repo, "add", ".");
  await git(repo, "commit", "-q", "-m", "one");
  const fetcher = denoSchemaFetcher();
  const url = `file://${repo}`;
  assertEquals(await fetcher({ kind: "git", url, path: "s/a.schema.json" }), '{"v":1}');
  // A later commit is not seen by the same fetcher: one clone per run (CLI).
  await Deno.writeTextFile(`${repo}/s/a.schema.json`, '{"v":2}');
  await git(repo, "commit", "-q", "-am", "two");
  assertEquals(await fetcher({ kind: "git", url, path: "s/a.schema.json" }), '{"v":1}');
  // With cacheMs 0 every read clones again (the server refreshes).
  const fresh = denoSchemaFetcher({ cacheMs: 0 });
  assertEquals(await fresh({ kind: "git", url, path: "s/a.schema.json" }), '{"v":2}');
  const e = await assertRejects(() => fetcher({ kind: "git", url, path: "s/nope.json" }));
  assert(e.message.includes("s/nope.json"), e.message);
  const bad = await assertRejects(() =>
    fetcher({ kind: "git", url: `file://${repo}-gone`, path: "a.json" })
  );
  assert(bad.message.includes("git clone"), bad.message);
});

Deno.test("SV12 file locations read below the module root", async () => {
  const root = await repoWith({ "extra/b.schema.json": "{}" });
  const fetcher = denoSchemaFetcher();
  assertEquals(await fetcher({ kind: "file", root, path: "extra/b.schema.json" }), "{}");
  await assertRejects(() => fetcher({ kind: "file", root: "memory:", path: "x.json" }));
});
