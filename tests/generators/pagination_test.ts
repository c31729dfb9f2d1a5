/** Cursor pagination for each inject_into mode (GN20–GN24) against a local server. */
import { assert, assertEquals } from "../_assert.ts";
import { json, scheduler, startServer, TimedMemory } from "./_helpers.ts";

/** Three pages: items a, b, c; page n's cursor is `c<n+1>`, the last has none. */
function page(cursor: string | null) {
  const n = cursor === null ? 1 : Number(cursor.slice(1));
  const next = n < 3 ? `c${n + 1}` : null;
  return { items: [{ name: `item${n}` }], next };
}

async function run(
  manifest: (base: string) => string,
  handler: (r: import("./_helpers.ts").Seen) => Response,
) {
  const srv = startServer(handler);
  try {
    const ws = new TimedMemory({ "module.toml": manifest(srv.base) });
    const { s, lines } = scheduler(ws);
    const summary = await s.run(() => {});
    return { ws, lines, summary, seen: srv.seen };
  } finally {
    await srv.close();
  }
}

Deno.test("GN22 inject_into = url: the cursor is the next URL (relative resolved), pages concatenated", async () => {
  const { ws, lines, seen } = await run(
    (base) => `
[generator.p]
url = "${base}/list"
target_input = "p.json"
response_filter = { "jmespath!" = "items" }
pagination = { strategy = "cursor", cursor_jmespath = "next", inject_into = "url" }
`,
    (r) => {
      const c = r.url.searchParams.get("page");
      const n = c === null ? 1 : Number(c);
      return json({ items: [{ name: `item${n}` }], next: n < 3 ? `/list?page=${n + 1}` : null });
    },
  );
  assertEquals(seen.map((s) => s.url.search), ["", "?page=2", "?page=3"]);
  assertEquals(JSON.parse((await ws.readText("input/p.json"))!), [{ name: "item1" }, {
    name: "item2",
  }, { name: "item3" }]);
  assert(
    lines.includes("info generator p: 3 page(s), 3 item(s), wrote input/p.json (90 bytes)"),
    lines.join("\n"),
  );
  // The build stream shows the progress of a paginated run, page by page (GN8).
  for (const [n, items] of [[1, 1], [2, 2], [3, 3]]) {
    assert(
      lines.includes(`info generator p: page ${n} fetched, ${items} item(s)`),
      lines.join("\n"),
    );
  }
});

Deno.test("GN23 inject_into = query: the url template references {{ cursor }}", async () => {
  const { ws, seen } = await run(
    (base) => `
[generator.q]
url = "${base}/items{% if cursor %}?after={{ cursor }}{% endif %}"
target_input = "q.json"
response_filter = { "jmespath!" = "items" }
pagination = { cursor_jmespath = "next", inject_into = "query" }
`,
    (r) => json(page(r.url.searchParams.get("after"))),
  );
  assertEquals(seen.map((s) => s.url.search), ["", "?after=c2", "?after=c3"]);
  assertEquals(JSON.parse((await ws.readText("input/q.json"))!).length, 3);
});

Deno.test("GN23 inject_into = payload: POST bodies carry the cursor", async () => {
  const { ws, seen } = await run(
    (base) => `
[generator.b]
method = "POST"
url = "${base}/search"
payload = '{"after": {% if cursor %}"{{ cursor }}"{% else %}null{% endif %}}'
target_input = "b.json"
response_filter = { "jmespath!" = "items" }
pagination = { cursor_jmespath = "next", inject_into = "payload" }
`,
    (r) => json(page(JSON.parse(r.body).after)),
  );
  assertEquals(seen.map((s) => JSON.parse(s.body).after), [null, "c2", "c3"]);
  assertEquals(seen.every((s) => s.headers.get("content-type") === "application/json"), true);
  assertEquals(
    JSON.parse((await ws.readText("input/b.json"))!).map((x: { name: string }) => x.name),
    [
      "item1",
      "item2",
      "item3",
    ],
  );
});

Deno.test("GN23 GN24 inject_into = header; object pages merge key by key (later wins)", async () => {
  const { ws, seen } = await run(
    (base) => `
[generator.h]
url = "${base}/objs"
target_input = "h.json"
response_filter = { "jmespath!" = "data" }
pagination = { cursor_jmespath = "meta.next", inject_into = "header" }
[generator.h.inject_headers]
X-Cursor = "{{ cursor | default(value='') }}"
`,
    (r) => {
      const c = r.headers.get("x-cursor") || null;
      const n = c === null ? 1 : Number(c.slice(1));
      return json({ data: { [`k${n}`]: n, shared: n }, meta: { next: n < 3 ? `c${n + 1}` : "" } });
    },
  );
  assertEquals(seen.map((s) => s.headers.get("x-cursor")), ["", "c2", "c3"]);
  assertEquals(JSON.parse((await ws.readText("input/h.json"))!), {
    k1: 1,
    shared: 3,
    k2: 2,
    k3: 3,
  });
});

Deno.test("GN21 max_pages stops with a warning, not a failure", async () => {
  const { ws, lines, summary, seen } = await run(
    (base) => `
[generator.m]
url = "${base}/items{% if cursor %}?after={{ cursor }}{% endif %}"
target_input = "m.json"
response_filter = { "jmespath!" = "items" }
pagination = { cursor_jmespath = "next", inject_into = "query", max_pages = 2 }
`,
    (r) => json(page(r.url.searchParams.get("after"))),
  );
  assertEquals([summary.run, summary.failed, seen.length], [1, 0, 2]);
  assert(lines.some((l) => l.startsWith("warn") && l.includes("max_pages = 2")), lines.join("\n"));
  assertEquals(JSON.parse((await ws.readText("input/m.json"))!).length, 2);
});

Deno.test("GN23 a template that ignores the cursor stops with a warning instead of looping", async () => {
  const { lines, summary, seen } = await run(
    (base) => `
[generator.g]
url = "${base}/same"
target_input = "g.json"
pagination = { cursor_jmespath = "next", inject_into = "query" }
`,
    () => json({ items: [], next: "always" }),
  );
  assertEquals([summary.run, seen.length], [1, 1]);
  assert(lines.some((l) => l.includes("would repeat the previous request")), lines.join("\n"));
});
