/**
 * Remote modules and the `mod` commands through the real CLI (modules-and-params.md MP10–MP20,
 * cli.md CL14, CL21; issue 11 offline mode): `mod lock` then `mod check` (up to date, then
 * updates and drift), `mod update`, `mod fetch`, builds pinned by the lock, `--offline` /
 * `GRAPHSVC_OFFLINE`, archive modules over HTTP, and configuration errors (exit 2).
 */
import { assert, assertEquals } from "../_assert.ts";
import { cli, tempWorkspace } from "./_cli.ts";
import { moduleToml, testRepo } from "../workspace/_git.ts";
import { makeZip } from "../workspace/_archives.ts";

const boxModel = (name: string) =>
  `origin_resource = "host"\n[[create_resource]]\nresource_type = "box"\nname = "${name}"\n`;

async function project(deps: string) {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-mod-" });
  const repo = await testRepo(root, "net");
  const c1 = await repo.commit(
    { "module.toml": moduleToml("Net"), "models/box.toml": boxModel("box-1") },
    "v1.0.0",
  );
  const dns = await testRepo(root, "dns");
  await dns.commit({ "module.toml": moduleToml("Dns") }, "v1.0.0");
  const data = await tempWorkspace({
    "module.toml": moduleToml("Project", "1.0.0", `[dependencies]\n${deps}`),
    "assets/host.csv": "name\nweb\n",
  });
  const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
  return { root, repo, dns, c1, data, env };
}

const boxes = (graphJson: string) =>
  (JSON.parse(graphJson).nodes ?? JSON.parse(graphJson).resources ?? [])
    .filter((n: { type?: string; label?: string }) => (n.type ?? n.label) === "box")
    .map((n: { name?: string; id?: string }) => n.name ?? n.id);

Deno.test("CL14/MP20 mod lock, then mod check: up to date, then updates, then drift (exit 0)", async () => {
  const p = await project("");
  const url = `file://${p.repo.bare}`;
  await Deno.writeTextFile(
    `${p.data}/module.toml`,
    moduleToml(
      "Project",
      "1.0.0",
      `[dependencies]\nnet = "${url}#main"\n` +
        `dns = { git = "file://${p.dns.bare}", tag = "v1.0.0" }\n`,
    ),
  );
  const lock = await cli(["--data-dir", p.data, "mod", "lock"], p.env);
  assertEquals(lock.code, 0, lock.stderr);
  const text = await Deno.readTextFile(`${p.data}/module.lock`);
  assert(text.includes(`resolved = "${p.c1}"`), text);
  assert(text.includes('key = "dns"') && text.includes('requested = "v1.0.0"'), text);
  const check1 = await cli(["--data-dir", p.data, "mod", "check"], p.env);
  assertEquals([check1.code, check1.stdout], [0, "all dependencies are up to date\n"]);

  const c2 = await p.repo.commit({ "models/box.toml": boxModel("box-2") });
  await p.dns.commit({ "models/x.toml": "" }, "v1.1.0");
  const check2 = await cli(["--data-dir", p.data, "mod", "check"], p.env);
  assertEquals(check2.code, 0, check2.stderr);
  assert(
    check2.stdout.includes(`net ${p.c1.slice(0, 12)} → ${c2.slice(0, 12)}`),
    check2.stdout,
  );
  assert(check2.stdout.includes("dns v1.0.0 → v1.1.0"), check2.stdout);

  // A build keeps to the lock (MP19): the pinned commit, not the branch head.
  const built = await cli(["--data-dir", p.data, "build", "--graph-json", "-"], p.env);
  assertEquals(built.code, 0, built.stderr);
  assertEquals(boxes(built.stdout), ["box-1"]);

  // Drift: module.toml asks for something the lock does not pin.
  await Deno.writeTextFile(
    `${p.data}/module.toml`,
    moduleToml(
      "Project",
      "1.0.0",
      `[dependencies]\nnet = "${url}#main"\n` +
        `dns = { git = "file://${p.dns.bare}", tag = "v1.1.0" }\n`,
    ),
  );
  const check3 = await cli(["--data-dir", p.data, "mod", "check"], p.env);
  assertEquals(check3.code, 0);
  assert(check3.stdout.includes("dns: not pinned in module.lock"), check3.stdout);
  assert(check3.stdout.includes("dns: in module.lock but no longer required"), check3.stdout);
  await Deno.remove(p.root, { recursive: true });
});

Deno.test("CL14/MP20 mod update [key] moves the lock to the newest commits", async () => {
  const p = await project("");
  const url = `file://${p.repo.bare}`;
  await Deno.writeTextFile(
    `${p.data}/module.toml`,
    moduleToml("Project", "1.0.0", `[dependencies]\nnet = "${url}#main"\n`),
  );
  assertEquals((await cli(["--data-dir", p.data, "mod", "lock"], p.env)).code, 0);
  const c2 = await p.repo.commit({ "models/box.toml": boxModel("box-2") });
  const none = await cli(["--data-dir", p.data, "mod", "update", "nope"], p.env);
  assertEquals(none.code, 2, none.stderr);
  const up = await cli(["--data-dir", p.data, "mod", "update", "net"], p.env);
  assertEquals(up.code, 0, up.stderr);
  assert(up.stdout.includes(`net main ${p.c1.slice(0, 12)} → main ${c2.slice(0, 12)}`), up.stdout);
  assert((await Deno.readTextFile(`${p.data}/module.lock`)).includes(c2));
  const built = await cli(["--data-dir", p.data, "build", "--graph-json", "-"], p.env);
  assertEquals(boxes(built.stdout), ["box-2"]);
  const again = await cli(["--data-dir", p.data, "mod", "update"], p.env);
  assert(again.stdout.includes("(unchanged)"), again.stdout);
  await Deno.remove(p.root, { recursive: true });
});

Deno.test("CL14 mod fetch fills the cache; then offline builds use it (GRAPHSVC_OFFLINE, --offline)", async () => {
  const p = await project("");
  const url = `file://${p.repo.bare}`;
  await Deno.writeTextFile(
    `${p.data}/module.toml`,
    moduleToml("Project", "1.0.0", `[dependencies]\nnet = "${url}:v1.0.0"\n`),
  );
  const fetched = await cli(["--data-dir", p.data, "mod", "fetch"], p.env);
  assertEquals(fetched.code, 0, fetched.stderr);
  assert(fetched.stdout.startsWith("fetched net Net 1.0.0"), fetched.stdout);
  await Deno.remove(p.repo.bare, { recursive: true });
  const off = await cli(["--data-dir", p.data, "build", "--graph-json", "-"], {
    ...p.env,
    GRAPHSVC_OFFLINE: "1",
  });
  assertEquals(off.code, 0, off.stderr);
  assertEquals(boxes(off.stdout), ["box-1"]);
  // Offline with an empty cache: a dependency_unavailable warning, and the build goes on.
  const empty = { GRAPHSVC_MODULE_CACHE: `${p.root}/empty-cache` };
  const off2 = await cli(["--data-dir", p.data, "--offline", "build"], empty);
  assertEquals(off2.code, 0, off2.stderr);
  assert(
    off2.stderr.includes("dependency_unavailable") && off2.stderr.includes("'net'"),
    off2.stderr,
  );
  // Online, the same missing source is a configuration error naming it (MP13, exit 2).
  const on = await cli(["--data-dir", p.data, "build"], empty);
  assertEquals(on.code, 2, on.stderr);
  assert(on.stderr.includes("'net'") && on.stderr.includes(p.repo.bare), on.stderr);
  assertEquals(on.stdout, "");
  await Deno.remove(p.root, { recursive: true });
});

Deno.test("MP10 --module archive URL over HTTP and Git URL at a tag; given twice, loaded once", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-mod-" });
  const zip = makeZip({
    "dns-1/module.toml": moduleToml("Dns"),
    "dns-1/models/box.toml": boxModel("from-zip"),
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response(zip as Uint8Array<ArrayBuffer>),
  );
  try {
    const repo = await testRepo(root, "net");
    await repo.commit({ "module.toml": moduleToml("Net"), "models/b.toml": boxModel("git") }, "v1");
    const data = await tempWorkspace({ "assets/host.csv": "name\nweb\n" });
    const zipUrl = `http://127.0.0.1:${server.addr.port}/dns-1.zip`;
    const r = await cli([
      "--data-dir",
      data,
      "--module",
      zipUrl,
      "--module",
      `file://${repo.bare}:v1`,
      "--module",
      zipUrl,
      "build",
      "--graph-json",
      "-",
    ], { GRAPHSVC_MODULE_CACHE: `${root}/cache` });
    assertEquals(r.code, 0, r.stderr);
    assertEquals(boxes(r.stdout).sort(), ["from-zip", "git"]);
    assert(r.stderr.includes("1 module(s)") === false, r.stderr);
    assert(r.stderr.includes("2 module(s)"), r.stderr);
  } finally {
    await server.shutdown();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("CL21/MP16/MP6 cycles, unsatisfied versions and bad dependency specs exit 2 before any phase", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-mod-" });
  const mod = async (name: string, extra: string) => {
    await Deno.mkdir(`${root}/${name}`, { recursive: true });
    await Deno.writeTextFile(`${root}/${name}/module.toml`, moduleToml(name, "1.0.0", extra));
  };
  await mod("a", '[dependencies]\nb = "../b"\n');
  await mod("b", '[dependencies]\na = "../a"\n');
  await mod("new", 'graphsvc_version = ">=99.0"\n');
  const data = await tempWorkspace({ "assets/host.csv": "name\nweb\n" });
  const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
  const cyc = await cli(["--data-dir", data, "--module", `${root}/a`, "build"], env);
  assertEquals(cyc.code, 2, cyc.stderr);
  assert(cyc.stderr.includes("dependency cycle: a → b → a"), cyc.stderr);
  assertEquals(cyc.stdout, "");
  const ver = await cli(["--data-dir", data, "--module", `${root}/new`, "build"], env);
  assertEquals(ver.code, 2, ver.stderr);
  assert(ver.stderr.includes("graphsvc_version >=99.0"), ver.stderr);
  await Deno.writeTextFile(
    `${data}/module.toml`,
    moduleToml("P", "1.0.0", '[dependencies]\nx = { git = "a", url = "b" }\n'),
  );
  const bad = await cli(["--data-dir", data, "build"], env);
  assertEquals(bad.code, 2, bad.stderr);
  assert(bad.stderr.includes("dependency 'x'"), bad.stderr);
  await Deno.remove(root, { recursive: true });
});

Deno.test("MP20 mod check exits 0 always: a tree that cannot be resolved is reported, not exit 2", async () => {
  const root = await Deno.makeTempDir({ prefix: "graphsvc-mod-" });
  const env = { GRAPHSVC_MODULE_CACHE: `${root}/cache` };
  // Online, a dependency whose source does not exist (MP13).
  const missing = await tempWorkspace({
    "module.toml": moduleToml(
      "P",
      "1.0.0",
      `[dependencies]\nnet = "file://${root}/missing/net.git"\n`,
    ),
  });
  const check = await cli(["--data-dir", missing, "mod", "check"], env);
  assertEquals(check.code, 0, check.stderr);
  assert(check.stdout.startsWith("cannot resolve the modules: "), check.stdout);
  assert(check.stdout.includes("'net'") && check.stdout.includes("missing/net.git"), check.stdout);
  // The same tree is a configuration error for the other commands (CL21).
  const lock = await cli(["--data-dir", missing, "mod", "lock"], env);
  assertEquals(lock.code, 2, lock.stderr);
  // A malformed dependency spec, and nothing to check at all.
  const bad = await tempWorkspace({
    "module.toml": moduleToml("P", "1.0.0", '[dependencies]\nx = { git = "a", url = "b" }\n'),
  });
  const badCheck = await cli(["--data-dir", bad, "mod", "check"], env);
  assertEquals(badCheck.code, 0, badCheck.stderr);
  assert(badCheck.stdout.includes("dependency 'x'"), badCheck.stdout);
  const empty = await tempWorkspace({ "assets/host.csv": "name\nweb\n" });
  const none = await cli(["--data-dir", empty, "mod", "check"], env);
  assertEquals(none.code, 0, none.stderr);
  assert(none.stdout.includes("nothing to lock"), none.stdout);
  // Usage errors of the command line itself stay exit 2 (CL22).
  assertEquals((await cli(["--data-dir", empty, "mod", "check", "--nope"], env)).code, 2);
  await Deno.remove(root, { recursive: true });
});

Deno.test("MP15 a {version} URL without a version: unresolved_version naming the module (exit 2)", async () => {
  const dir = await tempWorkspace({
    "assets/host.csv": "name\na\n",
    "module.toml":
      '[dependencies]\nnetmod = { url = "http://127.0.0.1:9/releases/{version}/netmod.zip" }\n',
  });
  try {
    const r = await cli(["--data-dir", dir, "build"], {
      GRAPHSVC_MODULE_CACHE: `${dir}/.cache`,
    });
    assertEquals(r.code, 2, r.stderr);
    assert(r.stderr.includes("cannot load module 'netmod'"), r.stderr);
    assert(r.stderr.includes(": unresolved_version: "), r.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
