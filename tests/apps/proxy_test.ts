import { assert, assertEquals } from "../_assert.ts";
import { setupApps, startUpstream } from "./_setup.ts";
import type { AppOptions } from "../../lib/api/app.ts";

const ENV: Record<string, string> = {
  API_TOKEN: "tok-s3cr3t-value",
  ACCOUNT: "acct42",
  LEDGER_SECRET: "ledger-key-xyz",
};
const env = (n: string) => ENV[n];

async function withProxy(
  proxyToml: (base: string) => string,
  test: (
    ctx: {
      get: (path: string, init?: RequestInit) => Promise<Response>;
      seen: ReturnType<typeof startUpstream>["seen"];
      base: string;
      warnings: string[];
    },
  ) => Promise<void>,
  options: {
    upstream?: Parameters<typeof startUpstream>[0];
    app?: AppOptions;
    data?: Record<string, string>;
  } = {},
) {
  const up = startUpstream(options.upstream);
  const warnings: string[] = [];
  try {
    const { get } = await setupApps(
      {
        "module.toml": '[module]\nname = "billing"\n',
        "app/index.html": "<p>billing</p>",
        "app/proxy.toml": proxyToml(up.base),
        ...options.data,
      },
      {},
      { apps: { env, warn: (w) => warnings.push(w) }, ...options.app },
    );
    await test({ get, seen: up.seen, base: up.base, warnings });
  } finally {
    await up.close();
  }
}

Deno.test("AP11 segment-boundary prefix routing, longest path wins, rest and query appended", async () => {
  await withProxy(
    (base) => `
[[route]]
path = "/api"
target = "${base}/short"
[[route]]
path = "/api/inv/*"
target = "${base}/v2/invoices"
[[route]]
path = "/api/inv"
target = "${base}/tie-loser"
`,
    async ({ get, seen }) => {
      const res = await get("/apps/billing/api/inv/42?expand=lines&x=%20y");
      assertEquals(res.status, 200);
      await res.body?.cancel();
      assertEquals(seen[0].url.pathname, "/v2/invoices/42");
      assertEquals(seen[0].url.search, "?expand=lines&x=%20y");
      const exact = await get("/apps/billing/api/inv");
      await exact.body?.cancel();
      assertEquals(seen[1].url.pathname, "/v2/invoices", "ties: first declared");
      const boundary = await get("/apps/billing/api/invoices");
      await boundary.body?.cancel();
      assertEquals(
        seen[2].url.pathname,
        "/short/invoices",
        "/api/inv does not match /api/invoices",
      );
      const rootMount = await get("/api/inv/7");
      await rootMount.body?.cancel();
      assertEquals(seen[3].url.pathname, "/v2/invoices/7", "the data dir app is also at /");
    },
  );
});

Deno.test("AP11/AP17 method and body are forwarded and the upstream status, headers and body stream back", async () => {
  await withProxy(
    (base) =>
      `[[route]]\npath = "/api/x"\ntarget = "${base}/up"\nforward_headers = ["Content-Type"]\n`,
    async ({ get, seen }) => {
      const res = await get("/apps/billing/api/x/items", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ a: 1 }),
      });
      assertEquals(res.status, 201);
      assertEquals(res.headers.get("x-upstream"), "yes");
      assertEquals(await res.text(), "created PUT");
      assertEquals(seen[0].method, "PUT");
      assertEquals(seen[0].body, '{"a":1}');
      assertEquals(seen[0].headers.get("content-type"), "application/json");
    },
    {
      upstream: (req) =>
        new Response(`created ${req.method}`, { status: 201, headers: { "x-upstream": "yes" } }),
    },
  );
});

Deno.test("AP15 only forward_headers pass; Cookie/Authorization dropped; injected headers replace; Host is the upstream's", async () => {
  await withProxy(
    (base) => `
[[route]]
path = "/api/cf"
target = "${base}/client/v4"
forward_headers = ["Content-Type", "Accept", "Authorization"]
inject_headers = { "Authorization" = "Bearer {{env.API_TOKEN}}", "X-Account" = "\${env.ACCOUNT}" }
`,
    async ({ get, seen, base }) => {
      const res = await get("/apps/billing/api/cf/zones", {
        headers: {
          accept: "application/json",
          cookie: "session=browser",
          authorization: "Bearer from-browser",
          "x-custom": "dropped",
          "content-type": "text/plain",
        },
      });
      const body = await res.text();
      const h = seen[0].headers;
      assertEquals(h.get("authorization"), "Bearer tok-s3cr3t-value");
      assertEquals(h.get("x-account"), "acct42");
      assertEquals(h.get("accept"), "application/json");
      assertEquals(h.get("content-type"), "text/plain");
      assertEquals(h.get("cookie"), null);
      assertEquals(h.get("x-custom"), null);
      assertEquals(h.get("host"), new URL(base).host);
      // The browser never sees the injected secret.
      assert(!body.includes("tok-s3cr3t") && !JSON.stringify([...res.headers]).includes("tok-"));
      const apps = await (await get("/api/apps")).text();
      assert(!apps.includes("tok-") && !apps.includes("127.0.0.1"), apps);
    },
  );
});

Deno.test("AP15 hop-by-hop headers are removed both ways", async () => {
  await withProxy(
    (base) =>
      `[[route]]\npath = "/api/x"\ntarget = "${base}"\nforward_headers = ["Keep-Alive", "TE", "X-Drop", "Connection", "Accept"]\n`,
    async ({ get, seen }) => {
      const res = await get("/apps/billing/api/x", {
        headers: { "keep-alive": "timeout=5", te: "trailers", accept: "*/*" },
      });
      assertEquals(seen[0].headers.get("keep-alive"), null);
      assertEquals(seen[0].headers.get("te"), null);
      assertEquals(seen[0].headers.get("accept"), "*/*");
      assertEquals(res.headers.get("x-hop"), null, "named by the upstream's Connection header");
      assertEquals(res.headers.get("x-kept"), "1");
      await res.body?.cancel();
    },
    {
      upstream: () =>
        new Response("ok", { headers: { connection: "x-hop", "x-hop": "1", "x-kept": "1" } }),
    },
  );
});

Deno.test("AP15 headers the client's Connection names are not forwarded, even when Connection is not", async () => {
  await withProxy(
    (base) =>
      `[[route]]\npath = "/api/x"\ntarget = "${base}"\nforward_headers = ["X-Drop", "Trailer", "Upgrade", "Accept"]\n`,
    async ({ get, seen }) => {
      const res = await get("/apps/billing/api/x", {
        headers: {
          connection: "keep-alive, X-Drop",
          "x-drop": "1",
          trailer: "x-t",
          upgrade: "websocket",
          accept: "*/*",
        },
      });
      await res.body?.cancel();
      for (const h of ["x-drop", "trailer", "upgrade", "connection"]) {
        assertEquals(seen[0].headers.get(h), null, h);
      }
      assertEquals(seen[0].headers.get("accept"), "*/*");
    },
  );
});

Deno.test("AP12/AP19 Tera at request time: request object and an HMAC signature header", async () => {
  await withProxy(
    (base) => `
[[route]]
path = "/api/ledger"
target = "${base}/v3"
forward_headers = ["Accept"]
[route.inject_headers]
"X-Signature" = """
{%- set msg = request.method ~ "\\n" ~ request.path ~ "\\n" ~ request.timestamp -%}
t={{ request.timestamp }},sig={{ msg | hmac_sha256(key=env.LEDGER_SECRET, encoding="hex") }}"""
"X-Req" = "{{ request.query }}|{{ request.query_values }}|{{ request.signed_query_args }}|{{ request.body }}|{{ request.headers['x-trace'] }}|{{ params.region }}"
`,
    async ({ get, seen }) => {
      const res = await get("/apps/billing/api/ledger/entries?b=2&a=1", {
        method: "POST",
        headers: { "x-trace": "t1" },
        body: "payload",
      });
      await res.body?.cancel();
      const h = seen[0].headers;
      assertEquals(h.get("x-req"), "b=2&a=1|21|b;a|payload|t1|eu");
      assertEquals(seen[0].body, "payload");
      const sig = h.get("x-signature")!;
      const m = /^t=(\d+),sig=([0-9a-f]{64})$/.exec(sig);
      assert(m, sig);
      const key = await crypto.subtle.importKey(
        "raw",
        new TextEncoder().encode(ENV.LEDGER_SECRET),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const msg = `POST\n/v3/entries\n${m[1]}`;
      const mac = new Uint8Array(
        await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(msg)),
      );
      assertEquals(m[2], [...mac].map((b) => b.toString(16).padStart(2, "0")).join(""));
    },
    {
      data: {
        "module.toml":
          '[module]\nname = "billing"\n[params.region]\ndefault = "eu"\ndescription = "r"\n',
      },
    },
  );
});

Deno.test("AP12 an unset variable expands to an empty string and logs a warning; AP10 ${env} in path", async () => {
  await withProxy(
    (base) => `
[[route]]
path = "/api/acct/\${env.ACCOUNT}"
target = "${base}/accounts/\${env.ACCOUNT}"
inject_headers = { "X-Missing" = "[\${env.NOT_SET_ANYWHERE}]" }
`,
    async ({ get, seen, warnings }) => {
      const apps = await (await get("/api/apps")).json();
      assertEquals(apps[0].proxies, [{ path: "/api/acct/acct42" }]);
      const res = await get("/apps/billing/api/acct/acct42/zones");
      await res.body?.cancel();
      assertEquals(seen[0].url.pathname, "/accounts/acct42/zones");
      assertEquals(seen[0].headers.get("x-missing"), "[]");
      assert(warnings.some((w) => w.includes("NOT_SET_ANYWHERE")), warnings.join("\n"));
      const again = await get("/apps/billing/api/acct/acct42/zones");
      await again.body?.cancel();
      assertEquals(warnings.filter((w) => w.includes("NOT_SET_ANYWHERE")).length, 1, "once");
    },
  );
});

Deno.test("AP13 dynamic routes: one per matching origin resource, listed by /api/apps", async () => {
  await withProxy(
    (base) => `
[[route]]
origin_resource = "tenant"
match_on = [{ property = "enabled", value = "yes" }]
path = "/api/tenants/{{ origin_resource.name }}"
target = "${base}/t/{{ origin_resource.slug }}"
inject_headers = { "X-Tenant-Token" = "{{ env.API_TOKEN }}" }
`,
    async ({ get, seen }) => {
      const apps = await (await get("/api/apps")).json();
      assertEquals(apps[0].proxies, [{ path: "/api/tenants/acme" }, { path: "/api/tenants/beta" }]);
      const res = await get("/apps/billing/api/tenants/beta/users");
      await res.body?.cancel();
      assertEquals(seen[0].url.pathname, "/t/b-slug/users");
      assertEquals(seen[0].headers.get("x-tenant-token"), ENV.API_TOKEN);
      const off = await get("/apps/billing/api/tenants/gamma/users");
      assertEquals(off.status, 404, "no route for a resource failing match_on");
      await off.body?.cancel();
    },
    {
      data: {
        "assets/tenant.csv":
          "name,slug,enabled\nacme,a-slug,yes\nbeta,b-slug,yes\ngamma,g-slug,no\n",
      },
    },
  );
});

Deno.test("AP17 response_filter: jp! and tera! reshape JSON (Content-Length recomputed); non-JSON passes", async () => {
  await withProxy(
    (base) => `
[[route]]
path = "/api/jp"
target = "${base}/json"
response_filter = { "jp!" = "result[].name" }
[[route]]
path = "/api/tera"
target = "${base}/json"
response_filter = { "tera!" = "{\\"count\\": {{ response.result | length }}, \\"p\\": \\"{{ params.region }}\\"}" }
[[route]]
path = "/api/text"
target = "${base}/text"
response_filter = { "jp!" = "result" }
[[route]]
path = "/api/bad"
target = "${base}/json"
response_filter = { "tera!" = "not json {{ env.API_TOKEN }}" }
`,
    async ({ get }) => {
      const jp = await get("/apps/billing/api/jp");
      const jpText = await jp.text();
      assertEquals(JSON.parse(jpText), ["a", "b"]);
      assertEquals(jp.headers.get("content-length"), String(jpText.length));
      const tera = await get("/apps/billing/api/tera");
      assertEquals(await tera.json(), { count: 2, p: "eu" });
      const text = await get("/apps/billing/api/text");
      assertEquals(await text.text(), "plain result");
      const bad = await get("/apps/billing/api/bad");
      assertEquals(bad.status, 500);
      assert(!(await bad.text()).includes(ENV.API_TOKEN), "no secret in the problem");
    },
    {
      upstream: (req) =>
        new URL(req.url).pathname === "/json"
          ? Response.json({ result: [{ name: "a" }, { name: "b" }] })
          : new Response("plain result", { headers: { "content-type": "text/plain" } }),
      data: {
        "module.toml":
          '[module]\nname = "billing"\n[params.region]\ndefault = "eu"\ndescription = "r"\n',
      },
    },
  );
});

Deno.test("AP18 upstream down → 502, no response in time → 504, template error → 500; no secrets in bodies", async () => {
  const closed = startUpstream();
  const deadBase = closed.base;
  await closed.close();
  let release!: () => void;
  const answered = new Promise<void>((r) => release = r);
  await withProxy(
    (base) => `
[[route]]
path = "/api/down"
target = "${deadBase}/x?key=\${env.API_TOKEN}"
[[route]]
path = "/api/slow"
target = "${base}/slow"
[[route]]
path = "/api/broken"
target = "${base}"
inject_headers = { "X-Bad" = "{{ env.API_TOKEN | no_such_filter }}" }
`,
    async ({ get }) => {
      const down = await get("/apps/billing/api/down");
      assertEquals(down.status, 502);
      assertEquals(down.headers.get("content-type"), "application/problem+json");
      const downBody = await down.text();
      assert(!downBody.includes(ENV.API_TOKEN), downBody);
      const slow = await get("/apps/billing/api/slow");
      assertEquals(slow.status, 504);
      assert(!(await slow.text()).includes(ENV.API_TOKEN));
      release();
      const broken = await get("/apps/billing/api/broken");
      assertEquals(broken.status, 500);
      const brokenBody = await broken.text();
      assert(!brokenBody.includes(ENV.API_TOKEN), brokenBody);
    },
    {
      // Answers only once the test has seen the 504 (no race against the clock).
      upstream: async () => {
        await answered;
        return new Response("late");
      },
      app: { apps: { env, proxyTimeoutMs: 100 } },
    },
  );
});

Deno.test("AP18 an invalid proxy.toml disables the app's routes with a warning; static files still served", async () => {
  const warnings: string[] = [];
  const { get } = await setupApps(
    {
      "app/index.html": "<p>still here</p>",
      "app/proxy.toml": '[[route]]\npath = "/api/x"\n', // no target
    },
    {},
    { apps: { env, warn: (w) => warnings.push(w) } },
  );
  const apps = await (await get("/api/apps")).json();
  assertEquals(apps[0].proxies, []);
  assert(warnings.some((w) => w.includes("app/proxy.toml") && w.includes("target")), warnings[0]);
  const page = await get("/apps/data/");
  assertEquals(await page.text(), "<p>still here</p>");
});

Deno.test("AP17 request and response bodies stream through the proxy", async () => {
  // The upstream sends its second chunk only after the browser side has read the first: a proxy
  // that buffered the response would never deliver it (the race below fails instead of hanging).
  let release!: () => void;
  const released = new Promise<void>((r) => release = r);
  await withProxy(
    (base) => `[[route]]\npath = "/api/stream"\ntarget = "${base}"\n`,
    async ({ get, seen }) => {
      const chunks = ["one,", "two,", "three"];
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          for (const ch of chunks) c.enqueue(new TextEncoder().encode(ch));
          c.close();
        },
      });
      const res = await get("/apps/billing/api/stream", {
        method: "POST",
        body,
        // @ts-ignore: stream bodies need duplex
        duplex: "half",
      });
      const reader = res.body!.getReader();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const first = await Promise.race([
        reader.read(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error("the response was buffered")), 10_000);
        }),
      ]);
      clearTimeout(timer);
      assertEquals(new TextDecoder().decode(first.value), "first;");
      release();
      let restText = "";
      for (let r = await reader.read(); !r.done; r = await reader.read()) {
        restText += new TextDecoder().decode(r.value);
      }
      assertEquals(restText, "second");
      assertEquals(seen[0].body, "one,two,three");
    },
    {
      upstream: () =>
        new Response(
          new ReadableStream({
            async start(c) {
              c.enqueue(new TextEncoder().encode("first;"));
              await released;
              c.enqueue(new TextEncoder().encode("second"));
              c.close();
            },
          }),
        ),
    },
  );
});
