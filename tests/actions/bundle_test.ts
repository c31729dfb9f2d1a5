import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { parseActionFile } from "../../lib/actions/declarations.ts";
import { createBundle, missingSecrets, unpackBundle } from "../../lib/actions/bundle.ts";
import { gunzip, readTar, TarError, writeTar } from "../../lib/actions/tar.ts";

const enc = new TextEncoder();
const dec = new TextDecoder();

function parts(createdAt = "2026-03-01T12:00:00Z") {
  const t = parseActionFile(
    `name = "restart"
origin_resource = "host"
exec = [["sh", "-c", "./restart.sh"]]
[vault_secrets]
DB = { collection = "c", secret = "s" }
[runtime.expose]
socket = "api.sock"
`,
    "actions/r.toml",
    "data",
  );
  return {
    action: {
      module: "data",
      name: "restart-web-1",
      template: t,
      origin: { type: "host", name: "web-1" },
    },
    inputs: { force: true },
    rendered: {
      exec: [["sh", "-c", "./restart.sh"]],
      env: [["B", "2"], ["A", "1"]] as [string, string][],
      files: [{ path: "conf/z.txt", text: "zz" }],
    },
    extraFiles: [{ path: "copied.bin", bytes: new Uint8Array([0, 1, 2]) }],
    runtimeFiles: [{ path: "restart.sh", bytes: enc.encode("#!/bin/sh\necho hi\n") }],
    moduleVersion: "1.2.3",
    createdAt,
    runnerKey: "AAAA",
    sealed: [{ name: "DB", sealed: "c2VhbGVk" }],
  };
}

Deno.test("AC17 the same inputs give the same bundle bytes", () => {
  const a = createBundle(parts()).bytes;
  const b = createBundle(parts()).bytes;
  assertEquals(a, b);
  const c = createBundle(parts("2026-03-01T12:00:01Z")).bytes;
  assert(a.length !== c.length || a.some((x, i) => x !== c[i]), "time stamp changes the bytes");
});

Deno.test("AC15 AC16 AC17 bundle layout, manifest, sorted entries, fixed mtime and owner", () => {
  const { bytes, manifest } = createBundle(parts());
  const tar = gunzip(bytes);
  const entries = readTar(tar);
  assertEquals(entries.map((e) => e.path), [
    "env.json",
    "files/conf/z.txt",
    "files/copied.bin",
    "manifest.json",
    "payload.json",
    "runtime/restart.sh",
    "secrets.sealed.json",
  ]);
  const mtime = parseInt(dec.decode(tar.subarray(136, 147)), 8);
  assertEquals(mtime, Date.parse("2026-03-01T12:00:00Z") / 1000);
  assertEquals(parseInt(dec.decode(tar.subarray(108, 115)), 8), 0); // uid
  assertEquals(entries.find((e) => e.path === "runtime/restart.sh")!.mode, 0o755);
  const u = unpackBundle(bytes);
  assertEquals(u.manifest, manifest);
  assertEquals(manifest, {
    format: 1,
    action: "restart-web-1",
    template: "restart",
    module: "data",
    module_version: "1.2.3",
    created_at: "2026-03-01T12:00:00Z",
    runtime: "bash",
    run_mode: "job",
    exec: [["sh", "-c", "./restart.sh"]],
    origin: { type: "host", name: "web-1" },
    files: ["files/conf/z.txt", "files/copied.bin"],
    secrets: ["DB"],
    expose: { socket: "api.sock" },
    runner_key: "AAAA",
  });
  assertEquals(u.payload, { force: true });
  assertEquals(u.env, { B: "2", A: "1" });
  assertEquals(u.sealed, [{ name: "DB", sealed: "c2VhbGVk" }]);
  assertEquals(missingSecrets(u.manifest, u.sealed), []);
});

Deno.test("AC15 AC22 no sealed entries: no secrets.sealed.json, and the secret is reported missing", () => {
  const p = { ...parts(), sealed: [] };
  const u = unpackBundle(createBundle(p).bytes);
  assert(!u.entries.some((e) => e.path === "secrets.sealed.json"));
  assertEquals(missingSecrets(u.manifest, u.sealed), ["DB"]);
});

Deno.test("AC17 ustar: long paths use the prefix field; unsafe paths are refused", () => {
  const long = `${"d".repeat(90)}/${"e".repeat(90)}/file.txt`;
  const [e] = readTar(writeTar([{ path: long, bytes: enc.encode("x") }], 0));
  assertEquals(e.path, long);
  assertThrows(() => writeTar([{ path: "../x", bytes: new Uint8Array() }], 0), TarError);
  assertThrows(
    () =>
      writeTar([{ path: "a", bytes: new Uint8Array() }, { path: "a", bytes: new Uint8Array() }], 0),
    TarError,
  );
});

Deno.test({
  name: "AC15 GNU tar reads our bundles",
  ignore: (() => {
    try {
      return !Deno.statSync("/usr/bin/tar").isFile;
    } catch {
      return true;
    }
  })(),
  async fn() {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeFile(`${dir}/b.tar.gz`, createBundle(parts()).bytes);
      const out = await new Deno.Command("/usr/bin/tar", {
        args: ["-tzvf", `${dir}/b.tar.gz`],
        stdout: "piped",
      }).output();
      assert(out.success);
      const text = dec.decode(out.stdout);
      assert(text.includes("runtime/restart.sh"), text);
      assert(text.includes("0/0"), text);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
