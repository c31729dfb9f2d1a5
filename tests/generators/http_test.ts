/** The http runner against a local server on 127.0.0.1 (GN10–GN17, GN7, GN8, issue item 4). */
import { assert, assertEquals } from "../_assert.ts";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { GeneratorAbortError } from "../../lib/generators/mod.ts";
import { VERSION } from "../../lib/version.ts";
import { json, runOnce, scheduler, startServer, TimedMemory } from "./_helpers.ts";

const hex = (b: Uint8Array) => [...b].map((x) => x.toString(16).padStart(2, "0")).join("");

Deno.test("GN10 GN11 GET with the default user agent writes the body verbatim", async () => {
  const srv = startServer(() =>
    new Response('{ "a" : 1 }', { headers: { "content-type": "application/json" } })
  );
  try {
    const ws = new TimedMemory({
      "module.toml": `[generator.r]\nurl = "${srv.base}/r.json"\ntarget_input = "r.json"\n`,
    });
    const { s, lines } = scheduler(ws);
    const summary = await s.run(() => {});
    assertEquals([summary.run, summary.skipped, summary.failed], [1, 0, 0]);
    assertEquals(await ws.readText("input/r.json"), '{ "a" : 1 }');
    // What the build after it must read again (issue 15: builds read only changed files).
    assertEquals(summary.written, ["input/r.json", "input/r.json.etag", "input/r.json.last_mod"]);
    assertEquals(srv.seen[0].method, "GET");
    assertEquals(srv.seen[0].headers.get("user-agent"), `graphsvc-importer/${VERSION}`);
    assert(
      lines.includes("info generator r: 1 page(s), 1 item(s), wrote input/r.json (11 bytes)"),
      lines.join("\n"),
    );
  } finally {
    await srv.close();
  }
});

Deno.test("GN9 GN12 GN16 POST: templated url/payload/headers, bearer from the env vault, masked logs", async () => {
  const srv = startServer((r) => {
    if (r.headers.get("authorization") !== "Bearer t0p-s3cret") {
      return new Response("no", { status: 401 });
    }
    return json({ got: JSON.parse(r.body) });
  });
  try {
    const ws = new TimedMemory({
      "module.toml": `
[params.stage]
default = "DEV"
[generator.p]
method = "POST"
url = "${srv.base}/items/{{ params.stage | lower }}?who={{ env.WHO }}"
payload = '{"stage": "{{ stage }}", "target": "{{ target_input }}"}'
user_agent = "custom/{{ stage }}"
target_input = "p.json"
[generator.p.inject_headers]
Authorization = "Bearer \${vault:api#token}"
X-Other = "{{ vault(collection='api', secret='other') }}"
`,
    });
    const { s, lines } = scheduler(ws, {
      env: {
        WHO: "me",
        GRAPHSVC_SECRET_API_TOKEN: "t0p-s3cret",
        GRAPHSVC_SECRET_API_OTHER: "0ther",
      },
    });
    const summary = await s.run(() => {});
    assertEquals(summary.failed, 0, lines.join("\n"));
    const seen = srv.seen[0];
    assertEquals(seen.method, "POST");
    assertEquals(seen.url.pathname + seen.url.search, "/items/dev?who=me");
    assertEquals(seen.headers.get("content-type"), "application/json");
    assertEquals(seen.headers.get("user-agent"), "custom/DEV");
    assertEquals(seen.headers.get("x-other"), "0ther");
    assertEquals(JSON.parse(seen.body), { stage: "DEV", target: "/mem/data/input/p.json" });
    for (const l of lines) assert(!l.includes("t0p-s3cret") && !l.includes("0ther"), l);
  } finally {
    await srv.close();
  }
});

Deno.test("GN17 an HMAC-signed header computed with hmac_sha256 and base64_encode", async () => {
  const key = "k3y";
  const srv = startServer((r) => {
    const expected = hex(
      hmac(
        sha256,
        new TextEncoder().encode(key),
        new TextEncoder().encode(`GET\n${r.url.pathname}`),
      ),
    );
    const ok = r.headers.get("x-signature") === expected &&
      r.headers.get("x-basic") === btoa("user:" + key);
    return ok ? json([{ name: "a" }]) : new Response("bad signature", { status: 403 });
  });
  try {
    const ws = new TimedMemory({
      "module.toml": `
[generator.s]
url = "${srv.base}/signed"
target_input = "s.json"
[generator.s.vault_secrets]
api_key = { collection = "sig", secret = "key" }
[generator.s.inject_headers]
X-Signature = "{{ 'GET' ~ '\\n' ~ '/signed' | hmac_sha256(key=secrets.api_key) }}"
X-Basic = "{{ 'user:' ~ secrets.api_key | base64_encode }}"
`,
    });
    const { s, lines } = scheduler(ws, { env: { GRAPHSVC_SECRET_SIG_KEY: key } });
    const summary = await s.run(() => {});
    assertEquals(summary.run, 1, lines.join("\n"));
    assertEquals(JSON.parse((await ws.readText("input/s.json"))!), [{ name: "a" }]);
  } finally {
    await srv.close();
  }
});

Deno.test("GN16 an unresolvable secret fails the generator and the request is never sent", async () => {
  const srv = startServer(() => json({}));
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.v]\nurl = "${srv.base}/v?k=\${vault:none#x}"\ntarget_input = "v.json"\n`,
    });
    const { s, lines } = scheduler(ws);
    const summary = await s.run(() => {});
    assertEquals(summary.failed, 1);
    assertEquals(srv.seen.length, 0);
    assert(
      lines.some((l) => l.startsWith("warn generator 'v' (module data") && l.includes("none")),
      lines.join("\n"),
    );
  } finally {
    await srv.close();
  }
});

Deno.test("GN7 GN6 a 500 keeps the previous file and warns with name, module and URL (masked)", async () => {
  const srv = startServer(() => new Response("boom", { status: 500 }));
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.r]\nurl = "${srv.base}/r?token=\${vault:a#t}"\ntarget_input = "r.json"\n`,
      "input/r.json": "[1]",
    });
    const { s, lines } = scheduler(ws, { env: { GRAPHSVC_SECRET_A_T: "hunter2" } });
    const summary = await s.run(() => {});
    assertEquals([summary.run, summary.failed, summary.aborted], [0, 1, false]);
    assertEquals(await ws.readText("input/r.json"), "[1]");
    const warn = lines.find((l) => l.startsWith("warn"))!;
    assert(
      warn.includes(`generator 'r' (module data, GET ${srv.base}/r?token=***): HTTP 500: boom`),
      warn,
    );
    assert(!lines.join("\n").includes("hunter2"));
  } finally {
    await srv.close();
  }
});

Deno.test("GN7 abort_on_failure: invalid JSON for a .json target aborts the run", async () => {
  const srv = startServer(() => new Response("<html>not json</html>"));
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.a]\nurl = "${srv.base}/a"\ntarget_input = "a.json"\nabort_on_failure = true\n` +
        `[generator.b]\nurl = "${srv.base}/b"\ntarget_input = "b.txt"\n`,
    });
    const { s } = scheduler(ws);
    const r = await runOnce(s);
    assert(r instanceof GeneratorAbortError, String(r));
    assert(r.message.includes("not valid JSON"), r.message);
    assertEquals(s.lastSummary?.aborted, true);
    assertEquals(srv.seen.length, 1, "later generators do not run after an abort");
    assertEquals(await ws.readText("input/a.json"), undefined);
  } finally {
    await srv.close();
  }
});

Deno.test("issue item 4: slow, oversized and redirect-looping responses fail within limits", async () => {
  const srv = startServer(async (r) => {
    if (r.url.pathname === "/slow") {
      await new Promise((res) => setTimeout(res, 1500));
      return json({});
    }
    if (r.url.pathname === "/big") return new Response("x".repeat(5000));
    return new Response(null, { status: 302, headers: { location: "/loop" } });
  });
  try {
    const ws = new TimedMemory({
      "module.toml": ["slow", "big", "loop"].map((n) =>
        `[generator.${n}]\nurl = "${srv.base}/${n}"\ntarget_input = "${n}.txt"\n`
      ).join(""),
    });
    const { s, lines } = scheduler(ws, {
      limits: {
        connectTimeoutMs: 200,
        totalTimeoutMs: 5000,
        maxResponseBytes: 1000,
        maxRedirects: 3,
      },
    });
    const summary = await s.run(() => {});
    assertEquals(summary.failed, 3, lines.join("\n"));
    const text = lines.join("\n");
    assert(text.includes("connect time-out"), text);
    assert(text.includes("exceeds the limit of 1000 bytes"), text);
    assert(text.includes("more than 3 redirects"), text);
    assertEquals(srv.seen.filter((x) => x.url.pathname === "/loop").length, 4);
  } finally {
    await srv.close();
  }
});

Deno.test("GN13 conditional requests: ETag and Last-Modified are stored and a 304 keeps the file", async () => {
  const srv = startServer((r) => {
    if (r.headers.get("if-none-match") === '"v1"') return new Response(null, { status: 304 });
    return json({ v: 1 }, {
      headers: { etag: '"v1"', "last-modified": "Mon, 01 Jan 2024 00:00:00 GMT" },
    });
  });
  try {
    const ws = new TimedMemory({
      "module.toml": `[generator.e]\nurl = "${srv.base}/e"\ntarget_input = "e.json"\n`,
    });
    const { s, lines } = scheduler(ws);
    await s.run(() => {});
    assertEquals(await ws.readText("input/e.json.etag"), '"v1"');
    assertEquals(await ws.readText("input/e.json.last_mod"), "Mon, 01 Jan 2024 00:00:00 GMT");
    s.requestFullRun();
    const summary = await s.run(() => {});
    assertEquals(summary.run, 1);
    assertEquals(srv.seen[1].headers.get("if-modified-since"), "Mon, 01 Jan 2024 00:00:00 GMT");
    assertEquals(await ws.readText("input/e.json"), '{"v":1}');
    assert(
      lines.includes("info generator e: not modified (304), kept input/e.json"),
      lines.join("\n"),
    );
  } finally {
    await srv.close();
  }
});

Deno.test("GN14 GN15 jmespath! filter to a CSV asset: name first, arrays joined, objects as JSON", async () => {
  const srv = startServer(() =>
    json({
      items: [{ id: 1, name: "a", tags: ["x", "y"], meta: { k: 1 } }, { name: "b", extra: "z" }],
    })
  );
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.c]\nurl = "${srv.base}/c"\ntarget_asset = "c.csv"\nresponse_filter = { "jmespath!" = "items" }\n`,
    });
    const { s } = scheduler(ws);
    await s.run(() => {});
    assertEquals(
      await ws.readText("assets/c.csv"),
      'name,id,tags,meta,extra\na,1,"x,y","{""k"":1}",\nb,,,,z\n',
    );
  } finally {
    await srv.close();
  }
});

Deno.test("GN14 a tera! filter sees response, params and env; its output must be JSON", async () => {
  const srv = startServer(() => json({ regions: { a: { d: "A" }, b: { d: "B" } } }));
  try {
    const ws = new TimedMemory({
      "module.toml": `
[params.p]
default = "P"
[generator.t]
url = "${srv.base}/t"
target_input = "t.json"
response_filter = { "tera!" = '''{ {% for k, v in response.regions %}"{{ v.d }}": "{{ k }}-{{ p }}-{{ env.E }}"{% if not loop.last %},{% endif %}{% endfor %} }''' }
[generator.bad]
url = "${srv.base}/t"
target_input = "bad.json"
response_filter = { "tera!" = "not json {{ response.regions.a.d }}" }
`,
    });
    const { s, lines } = scheduler(ws, { env: { E: "e" } });
    const summary = await s.run(() => {});
    assertEquals(JSON.parse((await ws.readText("input/t.json"))!), { A: "a-P-e", B: "b-P-e" });
    assertEquals(summary.failed, 1);
    assert(
      lines.some((l) => l.includes("tera! filter did not produce valid JSON")),
      lines.join("\n"),
    );
  } finally {
    await srv.close();
  }
});

Deno.test("GN8 environment-held secrets are masked even when read through env.*", async () => {
  const srv = startServer(() => new Response("nope", { status: 404 }));
  try {
    const ws = new TimedMemory({
      "module.toml":
        `[generator.e]\nurl = "${srv.base}/e?k={{ env.GRAPHSVC_SECRET_X_Y }}"\ntarget_input = "e.json"\n`,
    });
    const { s, lines } = scheduler(ws, { env: { GRAPHSVC_SECRET_X_Y: "envsecret" } });
    await s.run(() => {});
    assertEquals(srv.seen[0].url.searchParams.get("k"), "envsecret");
    assert(lines.some((l) => l.includes("/e?k=***): HTTP 404")), lines.join("\n"));
    assert(!lines.join("\n").includes("envsecret"));
  } finally {
    await srv.close();
  }
});
