/**
 * The Deno module fetcher and cache (modules-and-params.md MP10–MP13, MP18–MP19): Git modules
 * from local bare repositories at a branch, a tag and a commit; `.zip` and `.tar.gz` archives
 * from a local HTTP server; cache reuse without network; offline mode; checksum mismatch.
 * Needs -A (git, temp dirs, a local server).
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { denoModuleFetcher, ModuleFetchError } from "../../lib/runtime/deno/module_fetch.ts";
import type { FetchResult } from "../../lib/workspace/dependencies.ts";
import { parseModuleSource } from "../../lib/workspace/module_source.ts";
import { moduleToml, testRepo } from "./_git.ts";
import { makeTarGz, makeZip } from "./_archives.ts";

const ok = (r: FetchResult) => {
  if (r.status !== "ok") throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r;
};

async function setup() {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modfetch-" });
  const repo = await testRepo(root, "net");
  const c1 = await repo.commit({ "module.toml": moduleToml("Net", "1.0.0") }, "v1.0.0");
  const c2 = await repo.commit({ "module.toml": moduleToml("Net", "1.1.0") }, "v1.1.0");
  const c3 = await repo.commit({ "module.toml": moduleToml("Net", "2.0.0-dev") });
  return { root, repo, c1, c2, c3, cache: `${root}/cache` };
}

const versionOf = async (r: FetchResult) =>
  /version = "([^"]+)"/.exec((await ok(r).workspace.readText("module.toml"))!)![1];

Deno.test("MP10 Git modules from a local bare repository: tag, branch, commit, default", async () => {
  const { root, repo, c1, c2, c3, cache } = await setup();
  const f = denoModuleFetcher({ cacheDir: cache });
  const url = `file://${repo.bare}`;
  const tag = ok(await f.fetch({ source: parseModuleSource(`${url}:v1.0.0`) }));
  assertEquals([tag.pin.resolved, await versionOf(tag)], [c1, "1.0.0"]);
  assertEquals(tag.pin, { source: url, requested: "v1.0.0", resolved: c1, kind: "git" });
  const hash = ok(await f.fetch({ source: parseModuleSource(`${url}#v1.1.0`) }));
  assertEquals(hash.pin.resolved, c2);
  const branch = ok(
    await f.fetch({ source: { kind: "git", url, ref: { kind: "branch", name: "main" } } }),
  );
  assertEquals([branch.pin.resolved, await versionOf(branch)], [c3, "2.0.0-dev"]);
  const rev = ok(
    await f.fetch({ source: { kind: "git", url, ref: { kind: "rev", name: c2.slice(0, 10) } } }),
  );
  assertEquals([rev.pin.resolved, await versionOf(rev)], [c2, "1.1.0"]);
  const def = ok(await f.fetch({ source: { kind: "git", url } }));
  assertEquals(def.pin.resolved, c3);
  // A local bare repository given as a path is a Git source too (with `#ref` or `:tag`).
  const byPath = ok(await f.fetch({ source: { kind: "path", path: `${repo.bare}#v1.0.0` } }));
  assertEquals(byPath.pin.resolved, c1);
  const byPathTag = ok(await f.fetch({ source: { kind: "path", path: `${repo.bare}:v1.1.0` } }));
  assertEquals(byPathTag.pin.resolved, c2);
  // MP13: a missing tag names the ref and the source.
  const e = await assertRejects(
    () => f.fetch({ source: parseModuleSource(`${url}:v9.9.9`) }),
    ModuleFetchError,
  );
  assert(e.message.includes("v9.9.9") && e.message.includes(repo.bare), e.message);
  await Deno.remove(root, { recursive: true });
});

Deno.test("MP11 a pinned commit in the cache is used without the remote; offline reads the cache", async () => {
  const { root, repo, c1, cache } = await setup();
  const url = `file://${repo.bare}`;
  const source = parseModuleSource(`${url}:v1.0.0`);
  ok(await denoModuleFetcher({ cacheDir: cache }).fetch({ source }));
  await Deno.remove(repo.bare, { recursive: true });
  const pin = { key: "net", source: url, requested: "v1.0.0", resolved: c1, kind: "git" as const };
  // Online, the remote is gone: the pinned commit comes from the cache.
  const again = ok(await denoModuleFetcher({ cacheDir: cache }).fetch({ source, pin }));
  assertEquals(await versionOf(again), "1.0.0");
  // Offline without a pin: the mirror in the cache resolves the tag.
  const offline = denoModuleFetcher({ cacheDir: cache, offline: true });
  assertEquals(ok(await offline.fetch({ source })).pin.resolved, c1);
  // Offline, a source never fetched is unavailable (not an error).
  const other = await offline.fetch({ source: parseModuleSource("file:///nowhere/x.git") });
  assertEquals(other.status, "unavailable");
  // Online, a remote that does not exist is an error naming it (MP13).
  const e = await assertRejects(
    () => denoModuleFetcher({ cacheDir: cache }).fetch({ source }),
    ModuleFetchError,
  );
  assert(e.message.includes(repo.bare), e.message);
  await Deno.remove(root, { recursive: true });
});

Deno.test("MP10 archive modules (.zip, .tar.gz) over HTTP; MP11 reused from the cache offline", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modfetch-" });
  const files = {
    "dns-1.0/module.toml": moduleToml("Dns"),
    "dns-1.0/models/zone.toml": 'origin_resource = "zone"\n',
  };
  const bodies: Record<string, Uint8Array> = {
    "/dl/v1.0/dns.zip": makeZip(files),
    "/dl/v1.0/dns.tar.gz": await makeTarGz(files),
  };
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    hits.push(path);
    const body = bodies[path];
    return body
      ? new Response(body as Uint8Array<ArrayBuffer>)
      : new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    const cache = `${root}/cache`;
    const f = denoModuleFetcher({ cacheDir: cache });
    for (const ext of ["zip", "tar.gz"]) {
      const source = parseModuleSource(`${base}/dl/v1.0/dns.${ext}`);
      const r = ok(await f.fetch({ source }));
      assertEquals(await r.workspace.listFiles("models"), ["models/zone.toml"]);
      assert(r.pin.checksum?.startsWith("sha256-"), JSON.stringify(r.pin));
      assertEquals(r.pin.kind, "archive");
      // Offline: the cache answers, the server is not asked.
      const before = hits.length;
      const off = ok(await denoModuleFetcher({ cacheDir: cache, offline: true }).fetch({ source }));
      assertEquals(off.identity, r.identity);
      assertEquals(hits.length, before);
    }
    // `{version}` substituted from the dependency's `version`.
    const templ = parseModuleSource(`${base}/dl/v{version}/dns.zip`);
    assertEquals(templ.kind, "archive");
    const pinned = ok(
      await f.fetch({
        source: { kind: "archive", url: `${base}/dl/v1.0/dns.zip`, version: "1.0" },
      }),
    );
    // MP19: a checksum different from the lock's is an error (when not cached).
    const bad = {
      key: "dns",
      source: `${base}/dl/v1.0/dns.zip`,
      requested: "",
      resolved: `${base}/dl/v1.0/dns.zip`,
      kind: "archive" as const,
      checksum: "sha256-" + "0".repeat(64),
    };
    const e = await assertRejects(
      () => f.fetch({ source: parseModuleSource(bad.source), pin: bad }),
      ModuleFetchError,
    );
    assertEquals(e.code, "checksum_mismatch");
    assert(pinned.pin.checksum !== bad.checksum);
    // MP13: HTTP errors name the URL.
    const e404 = await assertRejects(
      () => f.fetch({ source: parseModuleSource(`${base}/missing.zip`) }),
      ModuleFetchError,
    );
    assert(e404.message.includes("404") && e404.message.includes("/missing.zip"), e404.message);
    // MP15: a template without version, not a GitHub release URL, cannot be resolved.
    const e2 = await assertRejects(() => f.fetch({ source: templ }), ModuleFetchError);
    assertEquals(e2.code, "unresolved_version");
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("MP10 local paths: directories (relative to the declaring module) and archive files", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modfetch-" });
  await Deno.mkdir(`${root}/mods/net`, { recursive: true });
  await Deno.writeTextFile(`${root}/mods/net/module.toml`, moduleToml("Net"));
  await Deno.writeFile(`${root}/mods/dns.zip`, makeZip({ "module.toml": moduleToml("Dns") }));
  const f = denoModuleFetcher({ cacheDir: `${root}/cache` });
  const dir = ok(
    await f.fetch({ source: { kind: "path", path: "../net" }, base: `${root}/mods/x` }),
  );
  assertEquals(dir.workspace.location, `${root}/mods/net`);
  assertEquals(dir.pin.kind, "path");
  const zip = ok(
    await f.fetch({ source: { kind: "path", path: "dns.zip" }, base: `${root}/mods` }),
  );
  assert((await zip.workspace.readText("module.toml"))!.includes("Dns"));
  await assertRejects(
    () => f.fetch({ source: { kind: "path", path: "nope" }, base: root }),
    ModuleFetchError,
  );
  await Deno.remove(root, { recursive: true });
});

Deno.test("MP15 {version} of a GitHub release URL without a version: the latest release, then the lock", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-modfetch-" });
  const zip = (version: string) =>
    makeZip({ [`dns-${version}/module.toml`]: moduleToml("Dns", version) });
  const bodies: Record<string, Uint8Array> = {
    "/gh/acme/dns/releases/download/v1.2.0/dns-1.2.0.zip": zip("1.2.0"),
    "/gh/acme/dns/releases/download/v1.3.0/dns-1.3.0.zip": zip("1.3.0"),
    "/gh/acme/bare/releases/download/2.0/bare.zip": zip("2.0.0"),
  };
  // What the API says is the latest release of each repository (changed during the test).
  const latest: Record<string, string> = { "acme/dns": "v1.2.0", "acme/bare": "2.0" };
  const api: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    const release = /^\/api\/repos\/([^/]+\/[^/]+)\/releases\/latest$/.exec(path);
    if (release) {
      api.push(release[1]);
      const tag = latest[release[1]];
      if (tag === "garbage") return new Response("<html>", { status: 200 });
      return tag
        ? Response.json({ tag_name: tag, name: `Release ${tag}` })
        : Response.json({ message: "Not Found" }, { status: 404 });
    }
    const body = bodies[path];
    return body
      ? new Response(body as Uint8Array<ArrayBuffer>)
      : new Response("no", { status: 404 });
  });
  const base = `http://127.0.0.1:${server.addr.port}`;
  const github = { web: `${base}/gh`, api: `${base}/api` };
  try {
    const f = denoModuleFetcher({ cacheDir: `${root}/cache`, github });
    // `v{version}` in the template: the leading `v` of the tag is stripped.
    const source = parseModuleSource(
      `${base}/gh/acme/dns/releases/download/v{version}/dns-{version}.zip`,
    );
    const r = ok(await f.fetch({ source }));
    assertEquals(api, ["acme/dns"]);
    assertEquals(await versionOf(r), "1.2.0");
    assertEquals(r.pin.resolved, `${base}/gh/acme/dns/releases/download/v1.2.0/dns-1.2.0.zip`);
    assertEquals([r.pin.kind, r.pin.requested], ["archive", ""]);
    // A tag template without `v` keeps the tag as it is.
    const bare = ok(
      await f.fetch({
        source: parseModuleSource(`${base}/gh/acme/bare/releases/download/{version}/bare.zip`),
      }),
    );
    assertEquals(await versionOf(bare), "2.0.0");
    // A newer release: `mod check` (archiveDigest) sees it; the version pinned in the lock is
    // used instead, downloaded into an empty cache without asking the API (MP15, MP19).
    latest["acme/dns"] = "v1.3.0";
    const digest = await f.archiveDigest(sourceUrl(source));
    assertEquals(digest.url, `${base}/gh/acme/dns/releases/download/v1.3.0/dns-1.3.0.zip`);
    const asked = api.length;
    const empty = denoModuleFetcher({ cacheDir: `${root}/cache-pinned`, github });
    const pinned = ok(await empty.fetch({ source, pin: { ...r.pin, key: "dns" } }));
    assertEquals(await versionOf(pinned), "1.2.0");
    assertEquals(api.length, asked);
    // MP13: a repository without releases, or an API answer that is no JSON, is a fetch error
    // naming the repository.
    delete latest["acme/dns"];
    const fresh = denoModuleFetcher({ cacheDir: `${root}/cache2`, github });
    const none = await assertRejects(() => fresh.fetch({ source }), ModuleFetchError);
    assert(none.message.includes("acme/dns") && none.message.includes("404"), none.message);
    latest["acme/dns"] = "garbage";
    const junk = await assertRejects(() => fresh.fetch({ source }), ModuleFetchError);
    assert(junk.message.includes("acme/dns") && junk.message.includes("JSON"), junk.message);
    // The same URL shape on another host is no GitHub release URL: unresolved_version.
    const other = parseModuleSource(
      `${base}/elsewhere/acme/dns/releases/download/v{version}/x.zip`,
    );
    const e = await assertRejects(() => fresh.fetch({ source: other }), ModuleFetchError);
    assertEquals(e.code, "unresolved_version");
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

function sourceUrl(source: ReturnType<typeof parseModuleSource>): string {
  if (source.kind !== "archive") throw new Error(`not an archive source: ${source.kind}`);
  return source.url;
}
