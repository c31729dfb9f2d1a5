/**
 * The fast paths of string filters (issue 15 item 4) agree with straightforward reference
 * implementations on random text (reference T-rules on built-in filters). Oracle cross-checks of
 * edge inputs are in cases/filters_edge.jsonl.
 */
import fc from "fast-check";
import { assertEquals } from "./_assert.ts";
import { slugify, slugifyByChar, textFilters } from "../../lib/template/builtins/text.ts";
import { isRustWhitespace } from "../../lib/template/value.ts";

const PIECES = [
  "a",
  "Z",
  "0",
  " ",
  "-",
  "_",
  ".",
  "/",
  "%",
  "!",
  "*",
  "'",
  "(",
  ")",
  "~",
  "&",
  "<",
  ">",
  '"',
  "?",
  "#",
  "\t",
  "\n",
  "\u0085",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\ufeff",
  "é",
  "ß",
  "Æ",
  "日",
  "👍🏽",
  "e\u0301",
  "\ud800",
  "\udc00",
  "\u007f",
  "\u0000",
  "½",
  "\ud835",
  "\u{1D400}",
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((p) => p.join(""));

function percentRef(s: string, keep: (c: number) => boolean): string {
  let out = "";
  for (const b of new TextEncoder().encode(s)) {
    out += b < 128 && keep(b)
      ? String.fromCharCode(b)
      : "%" + b.toString(16).toUpperCase().padStart(2, "0");
  }
  return out;
}
const URL_ENCODED = new Set(" \"#<>`?{}:;=@[\\]^|!$&'()*+,".split("").map((c) => c.charCodeAt(0)));
const alnum = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

Deno.test("urlencode / urlencode_strict match byte-wise percent-encoding", () => {
  fc.assert(
    fc.property(text, (s) => {
      assertEquals(
        textFilters.urlencode(s, {}),
        percentRef(s, (c) => c >= 0x20 && c !== 0x7f && !URL_ENCODED.has(c)),
      );
      assertEquals(textFilters.urlencode_strict(s, {}), percentRef(s, alnum));
    }),
    { numRuns: 2000 },
  );
});

Deno.test("slugify matches the character loop of the slug crate", () => {
  fc.assert(fc.property(text, (s) => assertEquals(slugify(s), slugifyByChar(s))), {
    numRuns: 2000,
  });
});

Deno.test("wordcount is Rust's split_whitespace().count()", () => {
  fc.assert(
    fc.property(text, (s) => {
      const words = s.split("").map((c) => isRustWhitespace(c.charCodeAt(0)) ? " " : "x").join("")
        .split(" ").filter((w) => w !== "").length;
      assertEquals(textFilters.wordcount(s, {}), words);
    }),
    { numRuns: 2000 },
  );
});

Deno.test("escape and escape_xml replace exactly their characters", () => {
  fc.assert(
    fc.property(text, (s) => {
      assertEquals(
        textFilters.escape(s, {}),
        s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
          .replace(/'/g, "&#x27;").replace(/\//g, "&#x2F;"),
      );
      assertEquals(
        textFilters.escape_xml(s, {}),
        s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
          .replace(/'/g, "&apos;"),
      );
    }),
    { numRuns: 1000 },
  );
});

Deno.test("slugify: long inputs whose transliterations are longer than the text (buffer growth)", () => {
  for (
    const s of [
      "ß".repeat(3000),
      "Æ a ".repeat(1500),
      "ǅ".repeat(2500) + "x",
      "x" + "þ ".repeat(4000),
    ]
  ) {
    assertEquals(slugify(s), slugifyByChar(s));
  }
});

Deno.test("slugify: more distinct characters than its piece table keeps, seen twice, agree with the character loop", () => {
  // Tera's slugify (slug crate) handles every code point on its own: the table of cached pieces
  // (BMP by code unit, astral by code point) must give the same slug once it is full
  const chars: string[] = [];
  for (let cp = 0x20000; cp < 0x20000 + 5000; cp++) chars.push(String.fromCodePoint(cp));
  for (let cp = 0x1d400; cp < 0x1d400 + 600; cp++) chars.push(String.fromCodePoint(cp));
  for (let cp = 0xc0; cp < 0x250; cp++) chars.push(String.fromCodePoint(cp));
  const s = chars.map((c, i) => (i % 3 === 0 ? c + " x" : c)).join("");
  assertEquals(slugify(s), slugifyByChar(s));
  assertEquals(slugify(s), slugifyByChar(s));
  assertEquals(
    slugify("a\ud840b\udc00c\ud840\udc00d"),
    slugifyByChar("a\ud840b\udc00c\ud840\udc00d"),
  );
});

Deno.test("urlencode / slugify: inputs larger than the kept scratch buffer, then small ones", () => {
  const big = "日a/ ".repeat(60_000);
  assertEquals(textFilters.urlencode(big, {}), "%E6%97%A5a/%20".repeat(60_000));
  assertEquals(slugify("ß".repeat(600_000)), "ss".repeat(600_000));
  assertEquals(textFilters.urlencode_strict("a b", {}), "a%20b");
  assertEquals(slugify("Hello World"), "hello-world");
});

Deno.test("replace: replacements with `$` patterns are literal, like Rust's str::replace", () => {
  const r = (s: string, from: string, to: string) => textFilters.replace(s, { from, to });
  assertEquals(r("a-b-c", "-", "$&$&"), "a$&$&b$&$&c");
  assertEquals(r("a-b", "-", "$1$$"), "a$1$$b");
  assertEquals(r("the cat the", "the", "THE"), "THE cat THE");
  assertEquals(r("aaa", "aa", "b"), "ba");
  fc.assert(
    fc.property(
      text,
      fc.constantFrom("a", " ", "é", "👍🏽", "ab"),
      fc.string({ maxLength: 3 }),
      (s, from, to) => {
        assertEquals(r(s, from, to), s.split(from).join(to));
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("upper equals toUpperCase on any text (the byte-buffer path from 64 units on)", () => {
  const long = fc.array(fc.constantFrom(...PIECES, "ΐ", "ŉ", "ﬃ", "ǅ", "ς", "i"), {
    minLength: 30,
    maxLength: 200,
  }).map((p) => p.join(""));
  fc.assert(
    fc.property(long, (s) => assertEquals(textFilters.upper(s, {}), s.toUpperCase())),
    { numRuns: 2000 },
  );
  const bom = "\ufeff" + "a".repeat(80); // a leading U+FEFF is text, not a BOM to drop
  assertEquals(textFilters.upper(bom, {}), bom.toUpperCase());
  const big = "aßΐ日👍🏽 ".repeat(20_000);
  assertEquals(textFilters.upper(big, {}), big.toUpperCase());
});
