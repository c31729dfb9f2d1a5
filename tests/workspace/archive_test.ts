/**
 * Module archives (modules-and-params.md MP10, MP18): `.zip` and `.tar.gz` unpack into memory,
 * the single top-level directory is stripped, unsafe entries are skipped, and the checksum
 * pins the bytes. Pure: no permissions.
 */
import { assertEquals, assertRejects } from "../_assert.ts";
import { zipSync } from "fflate";
import { archiveChecksum, ArchiveError, extractArchive } from "../../lib/workspace/archive.ts";
import { makeTarGz, makeZip } from "./_archives.ts";

const dec = (m: Map<string, Uint8Array>) =>
  Object.fromEntries([...m].map(([p, b]) => [p, new TextDecoder().decode(b)]));

const FILES = {
  "net-1.0.0/module.toml": '[module]\nname = "net"\nversion = "1.0.0"\n',
  "net-1.0.0/models/a.toml": "x = 1\n",
};

Deno.test("MP10 a zip unpacks with its single top-level directory stripped", async () => {
  assertEquals(dec(await extractArchive(makeZip(FILES), "zip")), {
    "module.toml": FILES["net-1.0.0/module.toml"],
    "models/a.toml": "x = 1\n",
  });
});

Deno.test("MP10 a tar.gz unpacks with its single top-level directory stripped", async () => {
  assertEquals(dec(await extractArchive(await makeTarGz(FILES), "tar.gz")), {
    "module.toml": FILES["net-1.0.0/module.toml"],
    "models/a.toml": "x = 1\n",
  });
});

Deno.test("MP10 without a single top-level directory nothing is stripped", async () => {
  const files = { "module.toml": "a", "models/b.toml": "b" };
  assertEquals(dec(await extractArchive(makeZip(files), "zip")), files);
  assertEquals(dec(await extractArchive(await makeTarGz(files), "tar.gz")), files);
});

Deno.test("MP10 entries escaping the module (.., absolute) are skipped", async () => {
  const enc = new TextEncoder();
  const zip = zipSync({ "../evil.toml": enc.encode("x"), "ok/module.toml": enc.encode("m") });
  assertEquals(dec(await extractArchive(zip, "zip")), { "module.toml": "m" });
  const tgz = await makeTarGz({ "/etc/evil": "x", "top/module.toml": "m" });
  assertEquals(dec(await extractArchive(tgz, "tar.gz")), { "module.toml": "m" });
});

Deno.test("MP13 broken archives are ArchiveErrors", async () => {
  await assertRejects(() => extractArchive(new Uint8Array([1, 2, 3]), "zip"), ArchiveError);
  await assertRejects(() => extractArchive(new Uint8Array([1, 2, 3]), "tar.gz"), ArchiveError);
});

Deno.test("MP18 the archive checksum is sha256 of the bytes", async () => {
  assertEquals(
    await archiveChecksum(new Uint8Array()),
    "sha256-e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  );
});
