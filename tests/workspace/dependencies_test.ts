/**
 * Resolving the module tree through a fake fetcher (modules-and-params.md MP2, MP3, MP5–MP7,
 * MP12–MP19): load order, ids, dedupe, cycles, version constraints, version conflicts, lock
 * pins and offline unavailability. Pure: no permissions.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import {
  type FetchRequest,
  type FetchResult,
  type ModuleFetcher,
  ModuleResolutionError,
  resolveModuleTree,
} from "../../lib/workspace/dependencies.ts";
import { describeSource } from "../../lib/workspace/module_source.ts";
import { formatLock } from "../../lib/workspace/module_lock.ts";

const ENGINE = { graphsvc: "0.1.0", rescile: "0.1.195" };

const manifest = (name: string, deps: Record<string, string> = {}, extra = "") =>
  `[module]\nname = "${name}"\nversion = "1.0.0"\n${extra}\n[dependencies]\n` +
  Object.entries(deps).map(([k, v]) => `${k} = ${JSON.stringify(v)}\n`).join("");

/** Modules by source text (paths resolved against nothing: names are global). */
function fakeFetcher(
  modules: Record<string, Record<string, string> | "offline">,
): ModuleFetcher & { requests: FetchRequest[] } {
  const requests: FetchRequest[] = [];
  return {
    requests,
    fetch(req): Promise<FetchResult> {
      requests.push(req);
      const text = describeSource(req.source);
      const files = modules[text];
      if (files === "offline") {
        return Promise.resolve({ status: "unavailable", reason: "not in the module cache" });
      }
      if (!files) return Promise.reject(new Error(`'${text}' does not exist`));
      const kind = req.source.kind;
      return Promise.resolve({
        status: "ok",
        workspace: new MemoryWorkspace(files, `/m/${text.replace(/\W+/g, "_")}`),
        identity: text,
        pin: {
          source: text.replace(/#.*$/, ""),
          requested: kind === "git" && req.source.ref ? req.source.ref.name : "",
          resolved: req.pin?.resolved ?? (kind === "git" ? "c".repeat(40) : text),
          kind,
          ...(kind === "archive" ? { checksum: "sha256-1" } : {}),
        },
      });
    },
  };
}

Deno.test("MP12 load order: dependencies before dependents, command-line order, depth-first", async () => {
  const fetcher = fakeFetcher({
    a: { "module.toml": manifest("Mod A", { base: "base" }) },
    b: { "module.toml": manifest("Mod B", { base: "base", extra: "extra" }) },
    base: { "module.toml": manifest("Base") },
    extra: { "module.toml": manifest("Extra") },
  });
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({}),
    modules: ["a", "b"],
    fetcher,
    engine: ENGINE,
  });
  // MP7: the dependency key when declared in [dependencies], else the slug of the name.
  assertEquals(r.modules.map((m) => m.id), ["base", "mod-a", "extra", "mod-b"]);
  // MP12: a module reached twice is loaded (and fetched) once.
  assertEquals(fetcher.requests.filter((q) => describeSource(q.source) === "base").length, 2);
  assertEquals(r.modules.filter((m) => m.name === "Base").length, 1);
});

Deno.test("MP3 the data directory's own [dependencies] are resolved, after --module sources", async () => {
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({ "module.toml": manifest("Project", { net: "net" }) }),
    modules: ["cli"],
    fetcher: fakeFetcher({
      net: { "module.toml": manifest("Net") },
      cli: { "module.toml": manifest("Cli Mod") },
    }),
    engine: ENGINE,
  });
  assertEquals(r.modules.map((m) => m.id), ["cli-mod", "net"]);
  assertEquals(r.rootDependencies.map((d) => d.key), ["net"]);
});

Deno.test("MP7 duplicate names get -2; MP2 a module without manifest is named after its folder", async () => {
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({}),
    modules: ["x", "y", "z"],
    fetcher: fakeFetcher({
      x: { "module.toml": manifest("Same") },
      y: { "module.toml": manifest("Same") },
      z: { "models/a.toml": "" },
    }),
    engine: ENGINE,
  });
  assertEquals(r.modules.map((m) => [m.id, m.version]), [
    ["same", "1.0.0"],
    ["same-2", "1.0.0"],
    ["z", "0.0.0"],
  ]);
  assert(r.warnings.some((w) => w.code === "manifest_missing"), JSON.stringify(r.warnings));
});

Deno.test("MP16 a dependency cycle is an error naming the cycle", async () => {
  const err = await assertRejects(
    () =>
      resolveModuleTree({
        root: new MemoryWorkspace({}),
        modules: ["a"],
        fetcher: fakeFetcher({
          a: { "module.toml": manifest("A", { b: "b" }) },
          b: { "module.toml": manifest("B", { c: "c" }) },
          c: { "module.toml": manifest("C", { a: "a" }) },
        }),
        engine: ENGINE,
      }),
    ModuleResolutionError,
  );
  assertEquals(err.code, "dependency_cycle");
  // `A` came from the command line, but c declares it as `a`: the key is its id (MP7).
  assertEquals(err.message, "dependency cycle: a → b → c → a");
});

Deno.test("MP6 an unsatisfied engine version constraint aborts, naming module and constraint", async () => {
  const run = (extra: string) =>
    resolveModuleTree({
      root: new MemoryWorkspace({}),
      modules: ["a"],
      fetcher: fakeFetcher({ a: { "module.toml": manifest("A", {}, extra) } }),
      engine: ENGINE,
    });
  const e1 = await assertRejects(() => run('graphsvc_version = ">=9.0.0"'), ModuleResolutionError);
  assertEquals(e1.code, "engine_version_unsatisfied");
  assert(e1.message.includes(">=9.0.0") && e1.message.includes("0.1.0"), e1.message);
  const e2 = await assertRejects(() => run('rescile_version = ">=0.2.0"'), ModuleResolutionError);
  assertEquals(e2.code, "engine_version_unsatisfied");
  // Published modules require at most 0.1.195 (corpus): they load.
  assertEquals((await run('rescile_version = ">=0.1.195"')).modules.length, 1);
  const e3 = await assertRejects(() => run('graphsvc_version = "soon"'), ModuleResolutionError);
  assertEquals(e3.code, "manifest_invalid");
});

Deno.test("MP5 a module manifest without name or version is a manifest error", async () => {
  const e = await assertRejects(
    () =>
      resolveModuleTree({
        root: new MemoryWorkspace({}),
        modules: ["a"],
        fetcher: fakeFetcher({ a: { "module.toml": '[module]\nname = "A"\n' } }),
        engine: ENGINE,
      }),
    ModuleResolutionError,
  );
  assertEquals(e.code, "manifest_invalid");
  assert(e.message.includes("version"), e.message);
});

Deno.test("MP13 a fetch failure names the module, the source and who needs it", async () => {
  const e = await assertRejects(
    () =>
      resolveModuleTree({
        root: new MemoryWorkspace({ "module.toml": manifest("P", { net: "https://x/net:v9" }) }),
        fetcher: fakeFetcher({}),
        engine: ENGINE,
      }),
    ModuleResolutionError,
  );
  assertEquals(e.code, "module_fetch_failed");
  assert(e.message.includes("'net'") && e.message.includes("https://x/net#v9"), e.message);
});

Deno.test("MP16 two versions of one source: the one closest to the root wins, with a warning", async () => {
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({
      "module.toml": manifest("P", { net: "https://x/net:v2", app: "app" }),
    }),
    fetcher: fakeFetcher({
      "https://x/net#v2": { "module.toml": manifest("Net") },
      "https://x/net#v1": { "module.toml": manifest("Net") },
      app: { "module.toml": manifest("App", { net: "https://x/net:v1" }) },
    }),
    engine: ENGINE,
  });
  assertEquals(r.modules.map((m) => m.id), ["net", "app"]);
  const w = r.warnings.find((x) => x.code === "dependency_version_conflict");
  assert(w && w.message.includes("v1") && w.message.includes("v2 is used"), JSON.stringify(w));
});

Deno.test("MP17 resource_aliases of a dependency travel with it", async () => {
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({
      "module.toml": '[module]\nname = "P"\nversion = "1.0.0"\n' +
        '[dependencies]\ndns = { path = "dns", resource_aliases = { zone = "dns_zone" } }\n',
    }),
    fetcher: fakeFetcher({ dns: { "module.toml": manifest("Dns") } }),
    engine: ENGINE,
  });
  assertEquals(r.modules[0].resourceAliases, { zone: "dns_zone" });
});

Deno.test("MP18/MP19 lock pins are passed to the fetcher; an unpinned dependency is reported", async () => {
  const commit = "d".repeat(40);
  const lock = formatLock([
    { key: "net", source: "https://x/net", requested: "v1", resolved: commit, kind: "git" },
  ]);
  const fetcher = fakeFetcher({
    "https://x/net#v1": { "module.toml": manifest("Net") },
    "https://x/other": { "module.toml": manifest("Other") },
  });
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({
      "module.toml": manifest("P", { net: "https://x/net:v1", other: "https://x/other" }),
      "module.lock": lock,
    }),
    fetcher,
    engine: ENGINE,
  });
  assertEquals(fetcher.requests[0].pin?.resolved, commit);
  assertEquals(r.lock.find((e) => e.key === "net")?.resolved, commit);
  assert(
    r.warnings.some((w) => w.code === "lock_missing" && w.message.includes("'other'")),
    JSON.stringify(r.warnings),
  );
  // `mod update`: pins are ignored.
  const fresh = fakeFetcher({
    "https://x/net#v1": { "module.toml": manifest("Net") },
    "https://x/other": { "module.toml": manifest("Other") },
  });
  await resolveModuleTree({
    root: new MemoryWorkspace({
      "module.toml": manifest("P", { net: "https://x/net:v1" }),
      "module.lock": lock,
    }),
    fetcher: fresh,
    engine: ENGINE,
    unpin: "all",
  });
  assertEquals(fresh.requests[0].pin, undefined);
});

Deno.test("issue 11 offline: an unavailable dependency is a dependency_unavailable warning", async () => {
  const r = await resolveModuleTree({
    root: new MemoryWorkspace({
      "module.toml": manifest("P", { viewer: "https://github.com/rescile/graphviewer" }),
    }),
    fetcher: fakeFetcher({ "https://github.com/rescile/graphviewer": "offline" }),
    engine: ENGINE,
  });
  assertEquals(r.modules, []);
  assertEquals(r.warnings.map((w) => w.code), ["dependency_unavailable"]);
  assert(r.warnings[0].message.includes("'viewer'"), r.warnings[0].message);
});
