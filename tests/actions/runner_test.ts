import { assert, assertEquals } from "../_assert.ts";
import { parseActionFile } from "../../lib/actions/declarations.ts";
import { createBundle } from "../../lib/actions/bundle.ts";
import { seal, toBase64 } from "../../lib/actions/seal.ts";
import { denoActionRunner } from "../../lib/runtime/deno/action_runner.ts";
import type { ExecutionRequest } from "../../lib/actions/ports.ts";

const enc = new TextEncoder();

function bundleOf(
  toml: string,
  exec: string[][],
  opts: {
    env?: [string, string][];
    sealed?: { name: string; sealed: string }[];
    runtime?: { path: string; bytes: Uint8Array }[];
  } = {},
) {
  const t = parseActionFile(toml, "actions/t.toml", "data");
  return createBundle({
    action: { module: "data", name: t.name, template: t, origin: { type: "host", name: "web-1" } },
    inputs: { a: 1 },
    rendered: {
      exec,
      env: opts.env ?? [],
      files: [{ path: "f.txt", text: "pw={{ secrets.PW }}" }],
    },
    runtimeFiles: opts.runtime,
    createdAt: "2026-01-01T00:00:00Z",
    sealed: opts.sealed,
  }).bytes;
}

async function run(
  runner: ReturnType<typeof denoActionRunner>,
  bundle: Uint8Array,
  extra: Partial<ExecutionRequest> = {},
) {
  const lines: string[] = [];
  const result = await runner.execute({
    bundle,
    signal: new AbortController().signal,
    onOutput: (_s, l) => lines.push(l),
    ...extra,
  });
  return { result, lines };
}

Deno.test("AC30 AC23 a job runs each argv in order with the documented environment; secrets are opened and masked", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const runner = denoActionRunner({ dataDir: dir });
    const pk = await runner.publicKey();
    const info = await Deno.stat(`${dir}/.graphsvc/runner.key`);
    assertEquals(info.mode! & 0o777, 0o600);
    const bundle = bundleOf(
      'name = "t"\nexec = [["x"]]\n[vault_secrets]\nPW = { collection = "c", secret = "s" }\n',
      [
        [
          "sh",
          "-c",
          'echo "$GRAPHSVC_ACTION $GRAPHSVC_ORIGIN_TYPE $GRAPHSVC_ORIGIN_NAME $MODE"; cat "$GRAPHSVC_PAYLOAD"',
        ],
        ["hello.sh"],
        ["sh", "-c", 'echo "pw is $PW"; cat files/f.txt; echo; echo "{{ secrets.PW }}" | wc -c'],
      ],
      {
        env: [["MODE", "fast"]],
        sealed: [{ name: "PW", sealed: toBase64(seal(enc.encode("topsecret"), pk)) }],
        runtime: [{ path: "hello.sh", bytes: enc.encode("#!/bin/sh\necho from runtime\n") }],
      },
    );
    const { result, lines } = await run(runner, bundle);
    assertEquals(result, { exitCode: 0 });
    assertEquals(lines[0], "t host web-1 fast");
    assert(lines.some((l) => l.includes('"a": 1')));
    assert(lines.includes("from runtime"));
    assert(lines.includes("pw is ***"));
    assert(lines.includes("pw=***"));
    assert(
      lines.includes("10"),
      "the argv placeholder was replaced by the 9-byte secret + newline",
    );
    assert(!lines.join("\n").includes("topsecret"));
    // The same key is read back by a new runner over the same data directory.
    assertEquals(await denoActionRunner({ dataDir: dir }).publicKey(), pk);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("AC30 the first non-zero exit stops the run", async () => {
  const runner = denoActionRunner();
  const { result, lines } = await run(
    runner,
    bundleOf('name = "t"\nexec = [["x"]]\n', [["sh", "-c", "echo one; exit 4"], [
      "sh",
      "-c",
      "echo two",
    ]]),
  );
  assertEquals(result.exitCode, 4);
  assertEquals(lines, ["one"]);
});

Deno.test("AC22 a listed secret without a sealed entry: the script runs, its output is kept, the run fails with secrets_unavailable", async () => {
  const runner = denoActionRunner();
  const { result, lines } = await run(
    runner,
    bundleOf(
      'name = "t"\nexec = [["x"]]\n[vault_secrets]\nPW = { collection = "c", secret = "s" }\n',
      [["sh", "-c", "echo ran"]],
    ),
  );
  assertEquals([result.error, result.detail], ["secrets_unavailable", "PW"]);
  assertEquals(lines, ["ran"]);
});

Deno.test("AC30 time-out and stop end the process", async () => {
  const runner = denoActionRunner({ killGraceMs: 100 });
  const slow = bundleOf('name = "t"\nexec = [["x"]]\n', [["sh", "-c", "exec sleep 30"]]);
  const timed = await run(runner, slow, { timeoutMs: 50 });
  assertEquals(timed.result.error, "timeout");
  const controller = new AbortController();
  let started = false;
  const stopped = runner.execute({
    bundle: slow,
    signal: controller.signal,
    onOutput: () => {},
    onStarted: () => {
      started = true;
      controller.abort();
    },
  });
  assertEquals((await stopped).error, "stopped");
  assert(started);
});

Deno.test("AC30 an unknown program fails with spawn_failed", async () => {
  const { result } = await run(
    denoActionRunner(),
    bundleOf('name = "t"\nexec = [["x"]]\n', [["no-such-program-xyz"]]),
  );
  assertEquals(result.error, "spawn_failed");
});
