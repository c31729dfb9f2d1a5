// Fuzz tests of the TOML readers (issue 16; reference M1, M2, MP1): rule files
// (parseRuleFile, chunked) and manifests (parseTomlDocument). Whatever the bytes, the only error
// that may escape is a ParseError naming the file and a line.
// Fixed seed; FC_RUNS=… for long local runs (see tests/fuzz/_fuzz.ts).
import fc from "fast-check";
import { assert, assertEquals } from "../_assert.ts";
import { ParseError } from "../../lib/formats/errors.ts";
import { parseRuleFile } from "../../lib/formats/toml.ts";
import { TOML_MAX_DEPTH } from "../../lib/formats/toml_depth.ts";
import { parseTomlDocument } from "../../lib/workspace/manifest.ts";
import { fuzzParams, mutations, readIfAllowed } from "./_fuzz.ts";

const KINDS = { blockKinds: ["create_resource", "link_resources", "copy_property"] };

/** Runs both entry points; fails on anything but a located ParseError. */
function checkBoth(text: string): void {
  for (
    const [file, run] of [
      ["module.toml", () => parseTomlDocument(text, "module.toml")],
      ["models/m.toml", () => parseRuleFile(text, "models/m.toml", KINDS)],
    ] as const
  ) {
    try {
      run();
    } catch (e) {
      if (!(e instanceof ParseError)) {
        throw new Error(`${file}: ${(e as Error)?.name} escaped: ${(e as Error)?.message}`, {
          cause: e,
        });
      }
      assertEquals(e.file, file);
      assert(typeof e.line === "number" && e.line >= 1, `no line: ${e.message}`);
      assert(e.line <= text.split("\n").length + 1, `line past the end: ${e.message}`);
    }
  }
}

const SAMPLES = [
  '[module]\nname = "x"\nversion = "1.0.0"\n[params.stage]\ndefault = "DEV"\nallowed_values = ["DEV", "PRD"]\n',
  '[assets."host.csv"]\nresource_type = "server"\n[assets."host.csv".columns]\nname = { type = "string", required = true }\n',
  'origin_resource = "server"\n[[create_resource]]\nresource_type = "disk"\nname = "{{ origin_resource.name }}"\n[create_resource.properties]\nsize = 10\n\norigin_resource = "disk"\n[[link_resources]]\nwith = "server"\nmatch_on = [{ property = "host", key = "name" }]\n',
  'a = \'\'\'\nmulti\n[[not_a_header]]\n\'\'\'\nb = """x\\""""\nc = 1979-05-27T07:32:00Z\nd = [1, 2.5, -3e2, inf, nan, true]\n',
];

function corpusTomlFiles(): string[] {
  const root = "/work/shared/corpus";
  if (Deno.permissions.querySync({ name: "read", path: root }).state !== "granted") return [];
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir)) {
      if (e.isDirectory && !e.name.startsWith(".")) walk(`${dir}/${e.name}`);
      else if (e.isFile && e.name.endsWith(".toml")) paths.push(`${dir}/${e.name}`);
    }
  };
  try {
    walk(root);
  } catch {
    return [];
  }
  return readIfAllowed(paths.sort()).filter((t) => t.length < 30_000);
}

const TOKENS = [
  "[",
  "]",
  "[[",
  "]]",
  "{",
  "}",
  "=",
  ".",
  ",",
  "\n",
  '"',
  "'",
  '"""',
  "'''",
  "#",
  "\\",
  "\\u",
  "a.b.c",
  "x = ",
  "1979-05-27",
  "0x",
  "1_000",
  "+inf",
  "\r\n",
  "\u0000",
  "\uFEFF",
  'origin_resource = "t"\n',
  "[[create_resource]]\n",
  "[create_resource.properties]\n",
];

// ---- arbitrary strings ----------------------------------------------------------------------

Deno.test("fuzz M1/MP1: arbitrary strings give only located ParseErrors", () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.string({ unit: "binary", maxLength: 200 }),
        fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join("")),
      ),
      checkBoth,
    ),
    fuzzParams(600),
  );
});

// ---- TOML-shaped documents ------------------------------------------------------------------

const bareKey = fc.constantFrom("a", "name", "origin_resource", "create_resource", "x-y", "1", "");
const key = fc.array(
  fc.oneof(bareKey, bareKey.map((k) => `"${k}.q"`), bareKey.map((k) => `'${k}'`)),
  { minLength: 1, maxLength: 4 },
).map((p) => p.join("."));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom('"s"', "'lit'", "1", "-0.5", "true", "1979-05-27", "07:32:00", '"\\u00e9"'),
    fc.array(tie("value"), { maxLength: 3 }).map((v) => `[${v.join(", ")}]`),
    fc.array(fc.tuple(key, tie("value")), { maxLength: 3 })
      .map((kv) => `{ ${kv.map(([k, v]) => `${k} = ${v}`).join(", ")} }`),
  ),
}));
const line = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => `${k} = ${v}`),
  key.map((k) => `[${k}]`),
  key.map((k) => `[[${k}]]`),
  fc.constantFrom("", "# comment", 'origin_resource = "server"', "[[create_resource]]"),
);
const document = fc.array(line, { maxLength: 12 }).map((l) => l.join("\n") + "\n");

Deno.test("fuzz M1/M2: TOML-shaped documents give a value or a located ParseError", () => {
  fc.assert(fc.property(document, checkBoth), fuzzParams(400));
});

// ---- nesting bound --------------------------------------------------------------------------

const deep = fc.record({
  n: fc.integer({ min: 1, max: 3 * TOML_MAX_DEPTH }),
  shape: fc.constantFrom("dotted", "header", "arrayHeader", "inline", "array", "mixed", "open"),
  prefix: fc.constantFrom("", "x = 1\n", "[t]\n", "a = '''\n.\n'''\n"),
}).map(({ n, shape, prefix }) => {
  const seg = Array.from({ length: n }, () => "a").join(".");
  const body = {
    dotted: `${seg} = 1\n`,
    header: `[${seg}]\nk = 1\n`,
    arrayHeader: `[[${seg}]]\nk = 1\n`,
    inline: `v = ${"{a = ".repeat(n)}1${"}".repeat(n)}\n`,
    array: `v = ${"[".repeat(n)}1${"]".repeat(n)}\n`,
    mixed: `v = ${"{a.b = [".repeat(n)}1${"]}".repeat(n)}\n`,
    open: `v = ${"[{x = ".repeat(n)}\n`,
  }[shape];
  return prefix + body;
});

Deno.test("fuzz issue 16: deep TOML nesting is a value or a located toml_too_deep", () => {
  fc.assert(fc.property(deep, checkBoth), fuzzParams(150));
});

// Regression (issue 16: "10k dotted TOML keys give an internal_error without location"): the
// inputs below used to escape as RangeError (stack overflow converting the parsed value).
Deno.test("issue 16 regression: 10 000-segment dotted key, header and array header", () => {
  const seg = Array.from({ length: 10_000 }, () => "a").join(".");
  for (
    const [text, line] of [
      [`x = 1\n${seg} = 1\n`, 2],
      [`[${seg}]\nk = 1\n`, 1],
      [`# c\n\n[[${seg}]]\nk = 1\n`, 3],
      [`v = ${"{a = ".repeat(10_000)}1${"}".repeat(10_000)}\n`, 1],
    ] as const
  ) {
    for (
      const run of [
        () => parseTomlDocument(text, "m.toml"),
        () => parseRuleFile(text, "m.toml", KINDS),
      ]
    ) {
      try {
        run();
        throw new Error("expected a ParseError");
      } catch (e) {
        assert(e instanceof ParseError, String(e));
        assertEquals([e.code, e.file, e.line], ["toml_too_deep", "m.toml", line]);
        assert(e.column !== undefined && e.column >= 1);
      }
    }
  }
});

Deno.test("toml_too_deep: nesting up to the bound still parses", () => {
  const seg = Array.from({ length: TOML_MAX_DEPTH }, () => "a").join(".");
  const doc = parseTomlDocument(`${seg} = 1\n`, "m.toml");
  let v: unknown = doc;
  for (let i = 0; i < TOML_MAX_DEPTH; i++) v = (v as Record<string, unknown>).a;
  assertEquals(v, 1);
  const arrays = parseTomlDocument(
    `v = ${"[".repeat(TOML_MAX_DEPTH - 1)}1${"]".repeat(TOML_MAX_DEPTH - 1)}\n`,
    "m.toml",
  );
  assert(Array.isArray(arrays.v));
});

// ---- mutations of real files ----------------------------------------------------------------

Deno.test("fuzz M1/M2/MP1: mutated corpus TOML files give only located ParseErrors", () => {
  const texts = [...SAMPLES, ...corpusTomlFiles()];
  for (const t of texts) checkBoth(t); // the originals too
  fc.assert(
    fc.property(
      fc.nat(texts.length - 1).chain((i) => mutations(texts[i], TOKENS)),
      checkBoth,
    ),
    fuzzParams(400),
  );
});

// Regressions found by probing sizes (issue 16): both used to take time quadratic in the input.
Deno.test("issue 16 regression: `x = {,,,,…}` (100 000 commas) is a ParseError at 1:6", () => {
  const text = "x = {" + ",".repeat(100_000) + "}\n";
  for (
    const run of [
      () => parseTomlDocument(text, "m.toml"),
      () => parseRuleFile(text, "m.toml", KINDS),
    ]
  ) {
    try {
      run();
      throw new Error("expected a ParseError");
    } catch (e) {
      assert(e instanceof ParseError, String(e));
      assertEquals([e.code, e.line, e.column], ["toml_syntax", 1, 6]);
    }
  }
});

Deno.test("issue 16 regression: M2 a rule file of 10 000 chunks parses; errors keep file lines", () => {
  const chunk = 'origin_resource = "a"\n[[create_resource]]\nname = "x"\n';
  const file = parseRuleFile(chunk.repeat(10_000), "models/m.toml", KINDS);
  assertEquals(file.chunks.length, 10_000);
  assertEquals(file.chunks[9_999].startLine, 29_998);
  assertEquals(file.chunks[9_999].blocks[0].position, { line: 29_999, column: 1 });
  try {
    parseRuleFile(chunk.repeat(3) + "name = = 1\n", "models/m.toml", KINDS);
    throw new Error("expected a ParseError");
  } catch (e) {
    assert(e instanceof ParseError, String(e));
    assertEquals([e.code, e.line], ["toml_syntax", 10]);
  }
});

Deno.test("toml_too_deep names the line of the deep value after multi-line strings and keys", () => {
  const deepValue = `v = ${"[".repeat(150)}1${"]".repeat(150)}\n`;
  for (
    const [prefix, line] of [
      ['a = """x\\\n\\\ny"""\n', 4],
      ["x = '''\n\n'''\n", 4],
      ['"""\n\n\n""" junk\n', 5], // not a key: the line count survives the failed key read
      ['t = { a = 1,\n  b = "}" }\n', 3],
    ] as const
  ) {
    try {
      parseTomlDocument(prefix + deepValue, "m.toml");
      throw new Error("expected a ParseError");
    } catch (e) {
      assert(e instanceof ParseError, String(e));
      assertEquals([e.code, e.line, e.column], ["toml_too_deep", line, 104], prefix);
    }
  }
});
