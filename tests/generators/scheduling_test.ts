/** When generators run (GN4), in which order (GN5), and how a build reacts to them (GN7, O20). */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { GeneratorScheduler } from "../../lib/generators/mod.ts";
import type { ProcessRunner } from "../../lib/generators/mod.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { json, scheduler, startServer, TimedMemory } from "./_helpers.ts";

Deno.test("GN4 missing target runs; ttl refreshes stale files; on_missing skips present ones", async () => {
  const srv = startServer(() => json([1]));
  try {
    const gen = (n: string, extra: string) =>
      `[generator.${n}]\nurl = "${srv.base}/${n}"\ntarget_input = "${n}.json"\n${extra}\n`;
    const ws = new TimedMemory({
      "module.toml": gen("missing", 'ttl = "1h"') + gen("fresh", 'ttl = "1h"') +
        gen("stale", 'ttl = "1h"') + gen("onmissing", 'condition = "on_missing"') +
        gen("plain", ""),
      "input/fresh.json": "[0]",
      "input/stale.json": "[0]",
      "input/onmissing.json": "[0]",
      "input/plain.json": "[0]",
    });
    let now = new Date("2026-01-01T12:00:00Z");
    ws.now = () => now;
    ws.times.set("input/fresh.json", new Date("2026-01-01T11:30:00Z"));
    ws.times.set("input/stale.json", new Date("2026-01-01T10:59:00Z"));
    const { s, lines } = scheduler(ws, { clock: () => now });
    const first = await s.run(() => {});
    assertEquals(
      first.outcomes.map((o) => `${o.name}:${o.outcome}`),
      ["missing:run", "fresh:skipped", "stale:run", "onmissing:skipped", "plain:run"],
    );
    assert(lines.includes("info generator fresh: skipped (fresh, ttl 1h)"), lines.join("\n"));
    // A later (mutation-triggered) build: nothing is due; an hour later the ttl ones are.
    const second = await s.run(() => {});
    assertEquals(second.run, 0);
    assert(
      second.outcomes.find((o) => o.name === "plain")!.detail.includes("runs again on reload"),
    );
    now = new Date("2026-01-01T13:00:01Z");
    const third = await s.run(() => {});
    assertEquals(
      third.outcomes.filter((o) => o.outcome === "run").map((o) => o.name),
      ["missing", "fresh", "stale"],
    );
    // A reload (webhook / bootstrap) runs the plain one again.
    s.requestFullRun();
    const fourth = await s.run(() => {});
    assertEquals(fourth.outcomes.filter((o) => o.outcome === "run").map((o) => o.name), ["plain"]);
  } finally {
    await srv.close();
  }
});

Deno.test("GN5 modules run before the data directory and later generators see earlier output", async () => {
  const order: string[] = [];
  const ws = new TimedMemory({
    "module.toml":
      `[generator.second]\ncommand = ["cat-first"]\ntarget_input = "second.json"\nfrom_stdout = true\n`,
  });
  const mod = new MemoryWorkspace({
    "module.toml":
      `[generator.first]\ncommand = ["make-first"]\ntarget_input = "first.json"\nfrom_stdout = true\n`,
  }, "/mods/m");
  const processes: ProcessRunner = {
    run: async (req) => {
      order.push(req.argv[0]);
      const stdout = req.argv[0] === "make-first"
        ? "[1]"
        : `{"saw": ${await ws.readText("input/first.json")}}`;
      return { code: 0, stdout, timedOut: false };
    },
  };
  const s = new GeneratorScheduler({
    workspace: ws,
    modules: [{ id: "m", workspace: mod }],
    host: ws.host({ processes }),
  });
  await s.run(() => {});
  assertEquals(order, ["make-first", "cat-first"]);
  assertEquals(await ws.readText("input/second.json"), '{"saw": [1]}');
});

function engineWith(ws: TimedMemory, s: GeneratorScheduler): GraphEngine {
  return new GraphEngine({
    workspace: ws,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
    prepare: s.prepare,
  });
}

Deno.test("GN4 GN8 the engine runs generators at the start of every build; lines are in the stream", async () => {
  const srv = startServer(() =>
    new Response("name\nweb-1\nweb-2\n", { headers: { "content-type": "text/csv" } })
  );
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.hosts]\nurl = "${srv.base}/hosts.csv"\ntarget_asset = "host.csv"\n`,
    });
    const s = new GeneratorScheduler({ workspace: ws, host: ws.host() });
    const engine = engineWith(ws, s);
    const lines: string[] = [];
    engine.subscribe((e) => e.kind === "line" && lines.push(e.text));
    const snap = await engine.rebuild();
    assertEquals(snap.graph.resourceCount, 2);
    assert(
      lines.some((l) =>
        l.startsWith("generator hosts: 1 page(s), 2 item(s), wrote assets/host.csv")
      ),
      lines.join("\n"),
    );
    await engine.rebuild();
    assertEquals(s.lastSummary?.skipped, 1, "a second build does not refetch");
  } finally {
    await srv.close();
  }
});

Deno.test("GN7 O20 serve: an aborting generator fails the build and the last graph stays live", async () => {
  let fail = false;
  const srv = startServer(() =>
    fail ? new Response("down", { status: 503 }) : new Response("name\nweb-1\n")
  );
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.hosts]\nurl = "${srv.base}/h.csv"\ntarget_asset = "host.csv"\nabort_on_failure = true\n`,
    });
    const s = new GeneratorScheduler({ workspace: ws, host: ws.host() });
    const engine = engineWith(ws, s);
    const first = await engine.rebuild();
    assertEquals(first.graph.resourceCount, 1);
    fail = true;
    s.requestFullRun();
    const status = await engine.waitFor(engine.requestRebuild());
    assertEquals(status.status, "failed");
    assert(
      status.error!.includes("abort_on_failure") && status.error!.includes("HTTP 503"),
      status.error!,
    );
    assertEquals(engine.current.generation, first.generation);
    assertEquals(await ws.readText("assets/host.csv"), "name\nweb-1\n");
  } finally {
    await srv.close();
  }
});
