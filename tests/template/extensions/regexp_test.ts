import { assertEquals, assertExtError, assertThrows, ext } from "./_helpers.ts";
import {
  compileRustRegex,
  compileUserRegex,
  RegexTranslationError,
  translateRustRegex,
} from "../../../lib/template/extensions/mod.ts";

const { filters } = ext();
const re = (v: unknown, expr: string) => filters.regexp(v, { expr });

Deno.test("regexp: corpus usages (aws-region-module location/router)", () => {
  // TOML '…\\(…' → template text s/.*\((.*)\)/\1/
  assertEquals(re("Zurich (ZRH)", "s/.*\\((.*)\\)/\\1/"), "ZRH");
  assertEquals(re("eu-central-2-router", "s/^([^-]+-[^-]+)-.*/\\1/"), "eu-central");
  assertEquals(re("no parens", "s/.*\\((.*)\\)/\\1/"), "no parens");
});

Deno.test("regexp: first match only unless g; i ignores case", () => {
  assertEquals(re("a-a-a", "s/a/b/"), "b-a-a");
  assertEquals(re("a-a-a", "s/a/b/g"), "b-b-b");
  assertEquals(re("A-a", "s/a/x/g"), "A-x");
  assertEquals(re("A-a", "s/a/x/gi"), "x-x");
});

Deno.test("regexp: Rust replacement syntax $1, ${1}, named groups", () => {
  assertEquals(re("john smith", "s/(\\w+) (\\w+)/$2 $1/"), "smith john");
  assertEquals(re("ab", "s/(a)(b)/${2}x${1}/"), "bxa");
  assertEquals(re("2024-05", "s/(?P<y>\\d+)-(?P<m>\\d+)/$m.$y/"), "05.2024");
  assertEquals(re("2024-05", "s/(?<y>\\d+)-(?<m>\\d+)/${m}_${y}/"), "05_2024");
  assertEquals(re("ab", "s/(a)/$$1/"), "$1b");
  assertEquals(re("ab", "s/(a)/$9/"), "b"); // missing group → empty
  assertEquals(re("ab", "s/a/&/"), "&b"); // '&' is literal
  assertEquals(re("ab", "s/(a)/\\0\\0/"), "aab");
});

Deno.test("regexp: other delimiters and escaped delimiters", () => {
  assertEquals(re("a/b/c", "s#/#_#g"), "a_b_c");
  assertEquals(re("a/b/c", "s/\\//_/g"), "a_b_c");
  assertEquals(re("a|b", "s|\\||-|"), "a-b");
  assertEquals(re("x", "s/x/\\/y/"), "/y");
  assertEquals(re("x", "s/x/y"), "y"); // closing delimiter may be omitted
});

Deno.test("regexp: Unicode-aware classes like Rust", () => {
  assertEquals(re("Zürich-١٢", "s/\\w+/W/"), "W-١٢");
  assertEquals(re("Zürich-١٢", "s/\\d+/D/"), "Zürich-D");
  assertEquals(re("a\u00a0b", "s/\\s/_/"), "a_b");
  assertEquals(re("über alles", "s/\\bal/AL/"), "über ALles");
  assertEquals(re("a\rb", "s/a.b/X/"), "X"); // Rust '.' only excludes \n
  assertEquals(re("a\nb", "s/a.b/X/"), "a\nb");
  assertEquals(re("a\nb", "s/a.b/X/s"), "X");
  assertEquals(re("ab12", "s/[[:alpha:]]+/L/"), "L12");
  assertEquals(re("Ωmega", "s/\\p{Greek}/O/"), "Omega");
  assertEquals(re("Abc", "s/\\pL/x/g"), "xxx");
});

Deno.test("regexp: inline flags scoped like Rust", () => {
  assertEquals(re("ABC", "s/(?i)abc/x/"), "x");
  assertEquals(re("aB Ab", "s/a(?i)b/x/g"), "x Ab");
  assertEquals(re("AB", "s/(?i:a)B/x/"), "x");
  assertEquals(re("ab AB", "s/a(?i)b|c/x/g"), "x AB");
});

Deno.test("regexp: ^ and $ like Rust (multi-line only breaks at \\n)", () => {
  assertEquals(re("a\nb", "s/^/> /g"), "> a\nb");
  assertEquals(re("a\nb", "s/^/> /gm"), "> a\n> b");
  assertEquals(re("a\r\nb", "s/$/;/gm"), "a\r;\nb;");
  assertEquals(re("a\u2028b", "s/^/>/gm"), ">a\u2028b");
  assertEquals(re("ab\n", "s/b$/X/"), "ab\n"); // $ is the end of the text, not before a final \n
  assertEquals(re("x\ny", "s/(?m)^y/Y/"), "x\nY");
});

Deno.test("regexp: empty matches advance by code point", () => {
  assertEquals(re("a😀b", "s/x*/-/g"), "-a-😀-b-");
});

Deno.test("regexp: errors name the filter and the argument", () => {
  assertExtError(() => re("a", "a/b/"), "regexp", "expr");
  assertExtError(() => re("a", "s/a"), "regexp", "expr", "unterminated");
  assertExtError(() => re("a", "s/(/x/"), "regexp", "expr");
  assertExtError(() => re("a", "s/a/b/q"), "regexp", "expr", "flag");
  assertExtError(() => re("a", "s/(?=a)/b/"), "regexp", "expr", "look-around");
  assertExtError(() => re("aa", "s/(a)\\1/b/"), "regexp", "expr", "back-reference");
  assertExtError(() => re({ a: 1 }, "s/a/b/"), "regexp", "value");
  assertExtError(() => re(null, "s/a/b/"), "regexp", "value");
  assertExtError(() => filters.regexp("a", {}), "regexp", "expr");
  assertEquals(re(42, "s/4/5/"), "52");
});

Deno.test("compileRustRegex: translation details", () => {
  assertEquals(compileRustRegex("^\\d+$").test("١٢٣"), true);
  assertEquals(compileRustRegex("\\Aab\\z", "m").test("ab"), true);
  assertEquals(compileRustRegex("\\Aab\\z", "m").test("x\nab"), false);
  assertEquals(compileRustRegex("\\x{1F600}").test("😀"), true);
  assertEquals(compileRustRegex("a\\#b\\-c").test("a#b-c"), true);
  assertEquals(compileRustRegex("[a\\-z]").test("-"), true);
  assertEquals(compileRustRegex("[]a]").test("]"), true);
  assertThrows(() => compileRustRegex("[a[b]]"), RegexTranslationError);
  assertThrows(() => compileRustRegex("[a&&b]"), RegexTranslationError);
  assertThrows(() => compileRustRegex("[a-z--b]"), RegexTranslationError);
  assertThrows(() => compileRustRegex("\\q"), RegexTranslationError);
});

Deno.test("user regex: catastrophic patterns run in linear time (issue 16 item 1, T3)", () => {
  // A backtracking engine would not finish these (the test runner would hang).
  const long = "a".repeat(200_000);
  assertEquals(compileUserRegex("^(.|.)*Z$").test(long), false);
  assertEquals(compileUserRegex("^(a+)+$").test(`${long}!`), false);
  assertEquals(compileUserRegex("(a|aa)*b").test(long), false);
  assertEquals(re(`${long}x`, "s/(a*)*x/y/"), "y");
});

Deno.test("user regex: Rust (?x) verbose mode, scoped like every Rust flag", () => {
  assertEquals(compileRustRegex("(?x) a b # comment\n c").test("abc"), true);
  assertEquals(compileRustRegex("(?x)a\\ b").test("a b"), true);
  assertEquals(compileRustRegex("(?x)[ a b ]+").test(" "), false);
  assertEquals(compileRustRegex("(?x: a b) c").test("ab c"), true);
  assertEquals(compileRustRegex("(?x: a b) c").test("abc"), false);
});

Deno.test("user regex: Rust class names and escapes translated for RE2", () => {
  assertEquals(compileRustRegex("^\\p{Letter}+$").test("Ωé"), true);
  assertEquals(compileRustRegex("^\\p{sc=Greek}$").test("Ω"), true);
  assertEquals(compileRustRegex("^\\p{greek}$").test("Ω"), true);
  assertEquals(compileRustRegex("^\\P{Greek}$").test("Ω"), false);
  assertEquals(compileRustRegex("^[[:^alpha:]]+$").test("12"), true);
  assertEquals(compileRustRegex("^\\u{41}\\u0042\\U00000043$").test("ABC"), true);
  assertEquals(compileRustRegex("(?U)a+").first("aaa")?.text, "a");
  assertEquals(compileRustRegex("^\\w+$").test("Zürich_١"), true);
  assertEquals(compileRustRegex("^\\s$").test("\u3000"), true);
  assertEquals(translateRustRegex("(?u)a").source, "a");
  assertThrows(() => compileRustRegex("(?R)a"), RegexTranslationError);
  assertThrows(() => compileRustRegex("(?-u)a"), RegexTranslationError);
  assertThrows(() => compileRustRegex("\\p{NoSuchClass}"), RegexTranslationError);
});

Deno.test("user regex: match iteration like Rust find_iter; groups by number and name", () => {
  assertEquals(re("baaac", "s/a*/-/g"), "-b-c-"); // no empty match right after "aaa"
  const m = compileUserRegex("(?P<y>\\d+)-(\\d+)?").first("on 2024-")!;
  assertEquals([m.start, m.end, m.group("y"), m.group(2), m.group("nope")], [
    3,
    8,
    "2024",
    undefined,
    undefined,
  ]);
});

Deno.test("user regex: invalid patterns are typed errors naming the pattern", () => {
  for (const p of ["(", "a{1001}", "(?=a)", "(a)\\1", "[a", "\\q"]) {
    const e = assertThrows(() => compileUserRegex(p), RegexTranslationError);
    assertEquals(e.pattern, p);
    if (!e.message.includes(JSON.stringify(p))) throw new Error(`pattern not named: ${e.message}`);
  }
});
