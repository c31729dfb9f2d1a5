/**
 * The multi-file commit on disk (AC43): DenoFsWorkspace.writeTextsAtomic stages every temp file
 * before any rename, so a failure leaves every file's bytes as they were and no temp file behind;
 * and a contract call through the real app's write path on disk is all-or-nothing.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { commitFiles, runTransaction } from "../../lib/writes/transaction.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";

const canWrite = (await Deno.permissions.query({ name: "write" })).state === "granted";

Deno.test({ name: "AC43: writeTextsAtomic commits every file", ignore: !canWrite }, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/assets`);
    await Deno.writeTextFile(`${dir}/assets/a.csv`, "name\na\n");
    const ws = new DenoFsWorkspace(dir);
    await ws.writeTextsAtomic([
      { path: "assets/a.csv", text: "name\na\nb\n" },
      { path: "assets/new/b.csv", text: "name\nx\n" },
    ]);
    assertEquals(await Deno.readTextFile(`${dir}/assets/a.csv`), "name\na\nb\n");
    assertEquals(await Deno.readTextFile(`${dir}/assets/new/b.csv`), "name\nx\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "AC43: a failure staging the second file leaves the first file's bytes and no temp files",
  ignore: !canWrite,
}, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/assets`);
    await Deno.writeTextFile(`${dir}/assets/a.csv`, "name\na\n");
    // `assets/blocked` is a file, so nothing can be created below it.
    await Deno.writeTextFile(`${dir}/assets/blocked`, "");
    const ws = new DenoFsWorkspace(dir);
    await assertRejects(() =>
      ws.writeTextsAtomic([
        { path: "assets/a.csv", text: "changed\n" },
        { path: "assets/blocked/b.csv", text: "name\nx\n" },
      ])
    );
    assertEquals(await Deno.readTextFile(`${dir}/assets/a.csv`), "name\na\n");
    assertEquals([...Deno.readDirSync(`${dir}/assets`)].map((e) => e.name).sort(), [
      "a.csv",
      "blocked",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "AC43: a failed rename restores the files already renamed",
  ignore: !canWrite,
}, async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/assets/dir.csv`, { recursive: true });
    await Deno.writeTextFile(`${dir}/assets/dir.csv/keep`, "");
    await Deno.writeTextFile(`${dir}/assets/a.csv`, "name\na\n");
    const ws = new DenoFsWorkspace(dir);
    // The second target is a non-empty directory: its temp file stages, its rename fails.
    await assertRejects(() =>
      ws.writeTextsAtomic([
        { path: "assets/a.csv", text: "changed\n" },
        { path: "assets/new.csv", text: "new\n" },
        { path: "assets/dir.csv", text: "x\n" },
      ])
    );
    assertEquals(await Deno.readTextFile(`${dir}/assets/a.csv`), "name\na\n");
    assertEquals([...Deno.readDirSync(`${dir}/assets`)].map((e) => e.name).sort(), [
      "a.csv",
      "dir.csv",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AC43: runTransaction writes nothing when the body throws", async () => {
  const workspace = new MemoryWorkspace({
    "assets/a.csv": "name\na\n",
    "assets/b.csv": "name\nb\n",
  });
  const a = { path: "assets/a.csv", file: "a.csv", type: "a" };
  const b = { path: "assets/b.csv", file: "b.csv", type: "b" };
  const locked: string[][] = [];
  const deps = {
    workspace,
    lock: <T>(paths: readonly string[], task: () => Promise<T>) => {
      locked.push([...paths]);
      return task();
    },
    keyFunction: () => Promise.resolve(undefined),
  };
  await assertRejects(() =>
    runTransaction(deps, [b, a], (tables) => {
      tables.open(a)!.upsert([{ name: "a2" }]);
      throw new Error("second write refused");
    })
  );
  assertEquals(await workspace.readText("assets/a.csv"), "name\na\n");
  // Locks are taken in sorted path order (no deadlock between two transactions).
  assertEquals(locked, [["assets/a.csv", "assets/b.csv"]]);
  const ok = await runTransaction(deps, [a, b], (tables) => {
    tables.open(a)!.upsert([{ name: "a2" }]);
    tables.open(b);
    return 1;
  });
  assertEquals(ok.changed, ["assets/a.csv"]); // b was opened but not changed
});

Deno.test("AC43: commitFiles without writeTextsAtomic restores earlier files on a failure", async () => {
  const memory = new MemoryWorkspace({ "x": "1", "y": "2" });
  const ws = {
    location: "m",
    readText: (p: string) => memory.readText(p),
    listFiles: (d: string) => memory.listFiles(d),
    writeTextAtomic: (p: string, t: string) =>
      p === "y" ? Promise.reject(new Error("no")) : memory.writeTextAtomic(p, t),
  };
  await assertRejects(() =>
    commitFiles(
      ws,
      [{ path: "x", text: "X" }, { path: "y", text: "Y" }],
      new Map([["x", "1"], ["y", "2"]]),
    )
  );
  assertEquals(memory.entries(), { x: "1", y: "2" });
  assert(true);
});
