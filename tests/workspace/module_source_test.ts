/**
 * Module source specs, lock file format and version constraints (modules-and-params.md MP4–MP7,
 * MP10, MP14–MP15, MP18). Pure: no permissions.
 */
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import {
  moduleSlug,
  ModuleSourceError,
  parseDependency,
  parseModuleSource,
  sourceLocation,
  uniqueIds,
} from "../../lib/workspace/module_source.ts";
import { findPin, formatLock, type LockEntry, parseLock } from "../../lib/workspace/module_lock.ts";
import {
  satisfiesVersion,
  VersionConstraintError,
} from "../../lib/workspace/version_constraint.ts";
import { ParseError } from "../../lib/formats/errors.ts";
import { manifestKeyWarnings } from "../../lib/workspace/manifest_keys.ts";

Deno.test("MP10/MP14 source strings: Git URLs with :tag or #ref, archives, local paths", () => {
  assertEquals(parseModuleSource("https://git.example.org/mods/net:v1.2.0"), {
    kind: "git",
    url: "https://git.example.org/mods/net",
    ref: { kind: "tag", name: "v1.2.0" },
  });
  assertEquals(parseModuleSource("https://github.com/rescile/graphviewer"), {
    kind: "git",
    url: "https://github.com/rescile/graphviewer",
  });
  assertEquals(parseModuleSource("file:///tmp/r/net.git#main"), {
    kind: "git",
    url: "file:///tmp/r/net.git",
    ref: { kind: "ref", name: "main" },
  });
  assertEquals(parseModuleSource("file:///tmp/r/net.git:v1"), {
    kind: "git",
    url: "file:///tmp/r/net.git",
    ref: { kind: "tag", name: "v1" },
  });
  // The colon of a port or of `user@host:` is no tag separator.
  assertEquals(parseModuleSource("https://git.example.org:8443/net.git"), {
    kind: "git",
    url: "https://git.example.org:8443/net.git",
  });
  assertEquals(parseModuleSource("git@github.com:org/repo"), {
    kind: "git",
    url: "git@github.com:org/repo",
  });
  assertEquals(parseModuleSource("git@github.com:org/repo:v2"), {
    kind: "git",
    url: "git@github.com:org/repo",
    ref: { kind: "tag", name: "v2" },
  });
  assertEquals(parseModuleSource("https://x.org/dl/v1/m.zip").kind, "archive");
  assertEquals(parseModuleSource("http://127.0.0.1:8080/m.tar.gz").kind, "archive");
  assertEquals(parseModuleSource("https://x.org/m.tgz?raw=1").kind, "archive");
  assertEquals(parseModuleSource("../shared-module"), { kind: "path", path: "../shared-module" });
  assertThrows(() => parseModuleSource("  "), ModuleSourceError);
});

Deno.test("MP14/MP17 dependency tables: git + tag/branch/rev, url + version, path, aliases", () => {
  const d = (v: unknown) => parseDependency("net", v as never, "module.toml");
  assertEquals(d({ git: "https://x.org/m.git", tag: "v1.0.0" }).source, {
    kind: "git",
    url: "https://x.org/m.git",
    ref: { kind: "tag", name: "v1.0.0" },
  });
  assertEquals(d({ git: "https://x.org/m.git", branch: "dev" }).source, {
    kind: "git",
    url: "https://x.org/m.git",
    ref: { kind: "branch", name: "dev" },
  });
  assertEquals(d({ git: "https://x.org/m.git", rev: "abc123" }).source, {
    kind: "git",
    url: "https://x.org/m.git",
    ref: { kind: "rev", name: "abc123" },
  });
  assertEquals(d({ url: "https://x.org/{version}/m.zip", version: "v2.0.1" }).source, {
    kind: "archive",
    url: "https://x.org/v2.0.1/m.zip",
    version: "v2.0.1",
  });
  // Without `version` the template stays; the lock or the latest release fills it in (MP15).
  assertEquals(d("https://github.com/o/r/releases/download/v{version}/m.zip").source, {
    kind: "archive",
    url: "https://github.com/o/r/releases/download/v{version}/m.zip",
  });
  const aliased = d({ url: "https://x.org/m.git", resource_aliases: { zone: "dns_zone" } });
  assertEquals(aliased.source, { kind: "git", url: "https://x.org/m.git" });
  assertEquals(aliased.resourceAliases, { zone: "dns_zone" });
  assertEquals(d({ path: "../m" }).source, { kind: "path", path: "../m" });
  assertThrows(() => d({ git: "a", url: "b" }), ModuleSourceError, "exactly one");
  assertThrows(() => d({ git: "a", tag: "1", branch: "b" }), ModuleSourceError, "at most one");
  assertThrows(() => d(["x"]), ModuleSourceError, "string or a table");
  assertThrows(() => d({ url: "https://x/m.zip", tag: "v1" }), ModuleSourceError, "Git");
});

Deno.test("MP7 module ids: slug of the name, -2/-3 for duplicates, runs and data reserved", () => {
  assertEquals(moduleSlug("Network Hub"), "network-hub");
  assertEquals(moduleSlug("  AWS  Region (v2) "), "aws-region-v2");
  assertEquals(moduleSlug("!!!"), "module");
  assertEquals(uniqueIds(["net", "net", "runs", "data", "net"]), [
    "net",
    "net-2",
    "runs-2",
    "data-2",
    "net-3",
  ]);
  assertEquals(sourceLocation({ kind: "git", url: "https://x/m.git/" }), "https://x/m.git");
});

Deno.test("MP18 module.lock round-trips, sorted by key; MP19 a stale entry is no pin", () => {
  const entries: LockEntry[] = [
    {
      key: "zeta",
      source: "https://x/z.zip",
      requested: "1.0",
      resolved: "https://x/z.zip",
      kind: "archive",
      checksum: "sha256-" + "0".repeat(64),
    },
    { key: "net", source: "https://x/net", requested: "v1", resolved: "a".repeat(40), kind: "git" },
  ];
  const text = formatLock(entries);
  assert(text.startsWith('version = 1\n\n[[module]]\nkey = "net"'), text);
  assertEquals(parseLock(text, "module.lock"), [entries[1], entries[0]]);
  assertEquals(formatLock(parseLock(text, "module.lock")), text);
  assertEquals(findPin(entries, "net", "https://x/net", "v1"), entries[1]);
  assertEquals(findPin(entries, "net", "https://x/net", "v2"), undefined);
  const bad = assertThrows(
    () => parseLock('version = 1\n[[module]]\nkey = "x"\n', "module.lock"),
    ParseError,
  );
  assertEquals(bad.code, "lock_invalid");
  assertThrows(() => parseLock("version = 7\n", "module.lock"), ParseError, "version");
});

Deno.test("MP6 version constraints: comparators, comma lists, ^ and ~", () => {
  assert(satisfiesVersion("0.1.195", ">=0.1.193"));
  assert(!satisfiesVersion("0.1.190", ">=0.1.193"));
  assert(satisfiesVersion("1.2.5", ">=1.2, <1.3"));
  assert(!satisfiesVersion("1.3.0", ">=1.2, <1.3"));
  assert(satisfiesVersion("1.4.0", "^1.2.0"));
  assert(!satisfiesVersion("2.0.0", "^1.2.0"));
  assert(satisfiesVersion("0.3.9", "^0.3.1"));
  assert(!satisfiesVersion("0.4.0", "^0.3.1"));
  assert(satisfiesVersion("1.2.9", "~1.2.3"));
  assert(!satisfiesVersion("1.3.0", "~1.2.3"));
  assert(satisfiesVersion("1.0.0", "=1.0.0"));
  assert(satisfiesVersion("1.0.0", "1.0"));
  assert(!satisfiesVersion("0.9.0", ">0.9.0"));
  assert(satisfiesVersion("0.9.0", "<=0.9.0"));
  assertThrows(() => satisfiesVersion("1.0.0", ">=banana"), VersionConstraintError);
  assertThrows(() => satisfiesVersion("1.0.0", ""), VersionConstraintError);
});

Deno.test("MP8/MP14 dependency tables: unknown keys are unknown_key warnings with their line", () => {
  const text = '[module]\nname = "m"\nversion = "1.0.0"\ngraphsvc_version = ">=0.1"\n' +
    '[dependencies]\nnet = { git = "https://x/net.git", tga = "v1" }\n';
  const w = manifestKeyWarnings(
    {
      module: { name: "m", version: "1.0.0", graphsvc_version: ">=0.1" },
      dependencies: { net: { git: "https://x/net.git", tga: "v1" } },
    },
    text,
    "module.toml",
  );
  assertEquals(w.map((x) => [x.code, x.line, x.message.split(" (")[0]]), [
    ["unknown_key", 6, "unknown key 'tga' in [dependencies.net]"],
  ]);
});
