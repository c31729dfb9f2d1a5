// Fuzz tests of the HTTP layer (issue 16; reference R1–R2, R10–R14, R90, R93, G8): hostile GraphQL
// filter arguments through real requests, and arbitrary REST paths and percent-encodings against
// every route prefix. Never a 500, errors are problem documents (REST) or GraphQL errors, and no
// file outside assets/ is ever served or written. Fixed seed; FC_RUNS=… for long local runs.
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { MemoryWorkspace } from "../../lib/workspace/memory.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp } from "../../lib/api/app.ts";
import { compileFilter, FILTER_OPERATORS } from "../../lib/api/graphql/filter.ts";
import { FilterError } from "../../lib/api/graphql/errors.ts";
import type { JsonValue, Resource } from "../../lib/graph/graph.ts";
import { fuzzParams } from "./_fuzz.ts";
import { uiAssets } from "../../ui.ts";

const SECRET = "TOP-SECRET-7f3a";
const FILES: Record<string, string> = {
  "assets/service.csv": 'name,database,port,tags\napi,orders,8080,"a,b"\nweb,orders,443,x\n',
  "assets/database.csv": "name,engine\norders,postgres\n",
  "assets/sub/zone.csv": "name\ndmz\n",
  "module.toml": `[module]\nname = "fuzz"\nversion = "1.0.0"\n# ${SECRET}\n`,
  "secret.csv": `name\n${SECRET}\n`,
  "models/x.toml": `# ${SECRET}\n`,
};

async function setup() {
  const workspace = new MemoryWorkspace({ ...FILES });
  const engine = new GraphEngine({
    workspace,
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  const app = createApp(engine, {
    ui: uiAssets,
    edition: "ce",
    version: "9.9.9",
    features: ["admin_assets"],
  });
  return { workspace, app };
}

const { workspace, app } = await setup();

function isProblem(res: Response): boolean {
  return (res.headers.get("content-type") ?? "").startsWith("application/problem+json");
}

/** Sends one request; checks the invariants every response must keep. */
async function send(
  method: string,
  url: string,
  body?: string,
): Promise<{ status: number; text: string } | undefined> {
  let request: Request;
  try {
    request = new Request(url, {
      method,
      body: method === "GET" || method === "HEAD" ? undefined : body,
      headers: body === undefined ? {} : { "content-type": "application/json" },
    });
  } catch {
    return undefined; // not a URL a client could send
  }
  const res = await app.fetch(request);
  const where = `${method} ${url.slice(0, 200)}`;
  assert(res.status !== 500 && res.status < 600 && res.status >= 200, `${where} → ${res.status}`);
  const text = await res.text();
  assert(!text.includes(SECRET), `${where} served a file outside assets/`);
  if (res.status >= 400 && !new URL(url).pathname.startsWith("/graphql")) {
    assert(isProblem(res), `${where} → ${res.status} without a problem document`);
  }
  return { status: res.status, text };
}

// ---- REST paths -----------------------------------------------------------------------------

const PREFIXES = [
  "/api/assets/",
  "/api/assets",
  "/api/outputs/",
  "/api/outputs/index",
  "/api/mutations/",
  "/api/mutations/service/",
  "/apps/",
  "/apps",
  "/graphql",
  "/graphql/",
  "/graphiql/assets/",
  "/api/",
  "/api/module-params",
  "/api/engine-info",
  "/",
  "//",
  "/api/assets//",
];
const SEGMENTS = [
  "..",
  ".",
  "%2e%2e",
  "%2E%2E",
  "%2f",
  "%2F",
  "%5c",
  "%5C",
  "%00",
  "%ZZ",
  "%",
  "%C0%AE",
  "%c0%af",
  "%FF",
  "..%2f",
  "..%5c",
  "....//",
  "module.toml",
  "secret.csv",
  "service.csv",
  "sub",
  "zone.csv",
  "models",
  "x.toml",
  "api",
  "orders",
  "%252e%252e",
  "\\",
  ";",
  "?x=1",
  "#f",
  "~",
  "%20",
  "é",
  "%E2%80%AE",
  "a".repeat(300),
  "*",
  ":asset",
  "index",
  "%3F",
];
const path = fc.tuple(
  fc.constantFrom(...PREFIXES),
  fc.array(
    fc.oneof(
      fc.constantFrom(...SEGMENTS),
      fc.string({ maxLength: 8 }),
      fc.string({ maxLength: 8 }).map(encodeURIComponent),
    ),
    { maxLength: 6 },
  ),
  fc.constantFrom("/", "//", "\\", "/./"),
).map(([prefix, segs, sep]) => prefix + segs.join(sep));

Deno.test("fuzz R2/R90/R10: arbitrary paths on every route prefix: no 500, no file outside assets/", async () => {
  await fc.assert(
    fc.asyncProperty(
      path,
      fc.constantFrom("GET", "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"),
      fc.constantFrom(undefined, "{}", '{"name":"n1","port":1}', "not json", "[]", "null"),
      async (p, method, body) => {
        await send(method, `http://test${p}`, body);
      },
    ),
    fuzzParams(400),
  );
  // no write escaped assets/ either
  for (const file of Object.keys(workspace.entries())) {
    // `.graphsvc/module-params.json` is the state POST /api/module-params keeps (R21)
    const own = file === ".graphsvc/module-params.json";
    assert(file.startsWith("assets/") || file in FILES || own, `a write created ${file}`);
  }
  for (const [file, text] of Object.entries(FILES)) {
    if (!file.startsWith("assets/")) assertEquals(workspace.entries()[file], text, file);
  }
});

// ---- GraphQL filters ------------------------------------------------------------------------

/**
 * Deep operands are generated as markers and built inside the property: fast-check itself
 * recurses when it prints a value.
 */
class Deep {
  constructor(readonly kind: "array" | "object", readonly n: number) {}
  toString(): string {
    return `Deep(${this.kind}, ${this.n})`;
  }
}

/** JSON text of a generated value; deep markers are written by repetition, not recursion. */
function jsonText(v: unknown): string {
  if (v instanceof Deep) {
    return v.kind === "array"
      ? "[".repeat(v.n) + "1" + "]".repeat(v.n)
      : '{"eq":'.repeat(v.n) + '"x"' + "}".repeat(v.n);
  }
  if (Array.isArray(v)) return `[${v.map(jsonText).join(",")}]`;
  if (v !== null && typeof v === "object") {
    return `{${
      Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(",")
    }}`;
  }
  return JSON.stringify(v) ?? "null";
}

const REGEXES = [
  "(a+)+$",
  "(?i)API",
  "^(\\d+)$",
  "\\1",
  "(?<=a)b",
  "(?=x)",
  "[",
  "(",
  "a{1000}{1000}",
  "a{100000}",
  "\\p{Greek}",
  "(?P<n>a)",
  "\\",
  "".padStart(500, "("),
  "(".repeat(2000) +
  ")".repeat(2000),
  "\u0000",
  "[\\d-z]",
  "(?x) a # c",
  ".*".repeat(200),
];
const operand = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom<unknown>(
    "x".repeat(200_000),
    1e308,
    -0,
    Number.MAX_SAFE_INTEGER,
    "1e999",
    " 8080 ",
    "True",
  ),
  fc.constantFrom(...REGEXES),
  fc.nat(20_000).map((n) => new Deep("array", n)),
  fc.nat(20_000).map((n) => new Deep("object", n)),
);
const key = fc.oneof(
  fc.constantFrom(
    "name",
    "port",
    "database",
    "tags",
    "engine",
    "and",
    "or",
    "not",
    "__proto__",
    "constructor",
    "toString",
    "",
  ),
  fc.string({ maxLength: 6 }),
);
const op = fc.oneof(
  fc.constantFrom(...FILTER_OPERATORS),
  fc.constantFrom("and", "or", "not", "__proto__", "EQ", ""),
);
const { filter } = fc.letrec((tie) => ({
  filter: fc.oneof(
    { depthSize: "small" },
    fc.dictionary(
      key,
      fc.oneof(operand, fc.dictionary(op, operand, { maxKeys: 3 }), tie("filter")),
      { maxKeys: 4 },
    ),
    fc.tuple(fc.constantFrom("and", "or", "not"), fc.array(tie("filter"), { maxLength: 3 }))
      .map(([k, v]) => ({ [k]: v })),
    operand,
  ),
}));

async function graphql(query: string, variablesJson?: string) {
  const res = await send(
    "POST",
    "http://test/graphql",
    `{"query":${JSON.stringify(query)}${
      variablesJson === undefined ? "" : `,"variables":${variablesJson}`
    }}`,
  );
  assert(res !== undefined);
  const text = res.text;
  let body: { data?: unknown; errors?: { message: string }[] };
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`GraphQL answered non-JSON (${res.status}): ${text.slice(0, 200)}`);
  }
  assert(res.status < 500, `GraphQL → ${res.status}`);
  for (const e of body.errors ?? []) {
    assert(!/internal|TypeError|RangeError|Maximum call stack/i.test(e.message), e.message);
  }
  return { status: res.status, body };
}

Deno.test("fuzz G8: hostile filter arguments give data or GraphQL errors, never a crash", async () => {
  await fc.assert(
    fc.asyncProperty(filter, fc.constantFrom("service", "database"), async (f, field) => {
      await graphql(`query($f: JSON) { ${field}(filter: $f) { name } }`, `{"f":${jsonText(f)}}`);
    }),
    fuzzParams(150),
  );
});

/** GraphQL literal of a generated value (keys that are not names are left out). */
function literal(v: unknown): string {
  if (v instanceof Deep) {
    return v.kind === "array"
      ? "[".repeat(v.n) + "1" + "]".repeat(v.n)
      : "{eq: ".repeat(v.n) + '"x"' + "}".repeat(v.n);
  }
  if (Array.isArray(v)) return `[${v.map(literal).join(", ")}]`;
  if (v !== null && typeof v === "object") {
    return `{${
      Object.entries(v).filter(([k]) => /^[_A-Za-z][_0-9A-Za-z]*$/.test(k))
        .map(([k, x]) => `${k}: ${literal(x)}`).join(", ")
    }}`;
  }
  return typeof v === "number" && !Number.isFinite(v) ? "null" : JSON.stringify(v) ?? "null";
}

Deno.test("fuzz G8: filters written inline in the query text", async () => {
  await fc.assert(
    fc.asyncProperty(filter, async (f) => {
      await graphql(`{ service(filter: ${literal(f)}) { name } }`);
    }),
    fuzzParams(150),
  );
});

Deno.test("issue 16 regression: 20 000-deep filter operands are GraphQL errors, not crashes", async () => {
  const deepA = new Deep("array", 20_000);
  const deepO = new Deep("object", 20_000);
  for (
    const f of [{ port: { eq: deepA } }, { port: { in: [deepA] } }, { port: deepO }, {
      port: deepA,
    }]
  ) {
    const { body } = await graphql(
      `query($f: JSON) { service(filter: $f) { name } }`,
      `{"f":${jsonText(f)}}`,
    );
    assert(body.errors === undefined || body.errors.length > 0);
    await graphql(`{ service(filter: ${literal(f)}) { name } }`);
  }
});

// ---- compileFilter directly (property values are not depth-bounded) -------------------------

function deepValue(kind: "array" | "object", n: number): JsonValue {
  let v: JsonValue = 1;
  for (let i = 0; i < n; i++) v = kind === "array" ? [v] : { k: v };
  return v;
}

Deno.test("issue 16 regression: G8 equality against a 50 000-deep property value does not overflow", () => {
  const resource = (value: JsonValue) =>
    ({ name: "r", properties: { p: value } }) as unknown as Resource;
  for (const kind of ["array", "object"] as const) {
    const value = deepValue(kind, 50_000);
    assertEquals(compileFilter({ p: { eq: { k: 1 } } })(resource(value)), false);
    assertEquals(compileFilter({ p: { ne: [[1]] } })(resource(value)), true);
    assertEquals(compileFilter({ p: { in: [[2], { k: 2 }] } })(resource(value)), false);
  }
  // structural equality still works
  assertEquals(
    compileFilter({ p: { eq: { b: [1, "x"], a: null } } })(resource({ a: null, b: [1, "x"] })),
    true,
  );
  assertEquals(compileFilter({ p: [[1, 2]] })(resource([[1, 2]])), true);
  assertEquals(compileFilter({ p: [[1, 2]] })(resource([[2, 1]])), false);
});

Deno.test("fuzz G8: compileFilter gives a predicate or a FilterError for any JSON", () => {
  const value = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;
  fc.assert(
    fc.property(filter, value, (f, v) => {
      let test;
      try {
        test = compileFilter(JSON.parse(jsonText(f)));
      } catch (e) {
        assert(e instanceof FilterError, `${(e as Error)?.name}: ${(e as Error)?.message}`);
        return;
      }
      const r = test(
        { name: "r", properties: { name: v, port: v, tags: v, and: v } } as unknown as Resource,
      );
      assert(typeof r === "boolean");
    }),
    fuzzParams(200),
  );
});
