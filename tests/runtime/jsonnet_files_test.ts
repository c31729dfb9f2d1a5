/**
 * The Deno file-system adapter for Jsonnet imports (issue 19 item 10): `evaluateJsonnet` from
 * mod.ts reads imports from disk by default; every resolver failure is a located JsonnetError.
 */
import assert from "node:assert/strict";
import { JsonnetError } from "../../mod.ts";
import { evaluateJsonnet } from "../../deno.ts";
import { denoImportResolver, readImportFile } from "../../lib/runtime/deno/jsonnet_files.ts";
import { JsonnetVM } from "../../lib/jsonnet/mod.ts";

function tree(files: Record<string, string | Uint8Array>): string {
  const dir = Deno.makeTempDirSync({ prefix: "jsonnet_files_" });
  for (const [rel, content] of Object.entries(files)) {
    const p = `${dir}/${rel}`;
    Deno.mkdirSync(p.slice(0, p.lastIndexOf("/")), { recursive: true });
    if (typeof content === "string") Deno.writeTextFileSync(p, content);
    else Deno.writeFileSync(p, content);
  }
  return dir;
}

function failure(fn: () => unknown): JsonnetError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof JsonnetError, `expected JsonnetError, got ${e}`);
    return e;
  }
  throw new Error("expected a failure");
}

Deno.test("jsonnet files: evaluateJsonnet reads imports relative to the file, then jpath", () => {
  const dir = tree({
    "src/main.jsonnet":
      "{ a: import 'a.libsonnet', b: import 'b.libsonnet', s: importstr 's.txt' }",
    "src/a.libsonnet": "{ x: import 'sub/c.libsonnet' }",
    "src/sub/c.libsonnet": "42",
    "src/s.txt": "text",
    "lib1/b.libsonnet": "'lib1'",
    "lib2/b.libsonnet": "'lib2'",
  });
  try {
    const out = evaluateJsonnet(Deno.readTextFileSync(`${dir}/src/main.jsonnet`), {
      filename: `${dir}/src/main.jsonnet`,
      jpath: [`${dir}/lib1`, `${dir}/lib2`],
    });
    // Right-most jpath entry wins, like `jsonnet -J lib1 -J lib2`.
    assert.equal(out, '{\n   "a": {\n      "x": 42\n   },\n   "b": "lib2",\n   "s": "text"\n}\n');
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("jsonnet files: importbin gets raw bytes; invalid UTF-8 text decodes like the binary", () => {
  const dir = tree({ "b.bin": new Uint8Array([0, 255, 97]), "t.txt": new Uint8Array([97, 255]) });
  try {
    const vm = new JsonnetVM({ importResolver: denoImportResolver() });
    assert.deepEqual(vm.evaluate("importbin 'b.bin'", `${dir}/m.jsonnet`), [0, 255, 97]);
    assert.equal(vm.evaluate("importstr 't.txt'", `${dir}/m.jsonnet`), "a\uFFFD");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("jsonnet files: missing files, directories and read errors are located JsonnetErrors", () => {
  const dir = tree({ "sub/x.libsonnet": "1" });
  try {
    const file = `${dir}/m.jsonnet`;
    const missing = failure(() =>
      evaluateJsonnet("\n  import 'nope.libsonnet'", { filename: file })
    );
    assert.equal([missing.file, missing.line, missing.column].join(":"), `${file}:2:3`);
    assert.match(missing.detail, /couldn't open import "nope.libsonnet"/);
    const isDir = failure(() => evaluateJsonnet("import 'sub'", { filename: file }));
    assert.match(isDir.detail, /couldn't open import "sub": .*Is a directory/);
    assert.equal(isDir.line, 1);
    // A resolver that throws anything (here a raw Deno error) still yields a located JsonnetError.
    const raw = failure(() =>
      evaluateJsonnet("import 'x'", {
        filename: file,
        importResolver: () => {
          throw new Deno.errors.PermissionDenied("no access");
        },
      })
    );
    assert.match(raw.detail, /couldn't open import "x": no access/);
    assert.equal(readImportFile(`${dir}/absent`), undefined);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
