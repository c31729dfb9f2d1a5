import { assertEquals, assertThrows } from "./_assert.ts";
import { lex } from "../../lib/jsonnet/lexer.ts";
import { JsonnetError } from "../../lib/jsonnet/errors.ts";

const kinds = (src: string) => lex(src, "f").map((t) => `${t.kind}:${t.value}`);

Deno.test("lexer: identifiers, keywords, numbers, punctuation", () => {
  assertEquals(kinds("local x = 1.5e3; x"), [
    "kw:local",
    "id:x",
    "op:=",
    "num:1.5e3",
    "punc:;",
    "id:x",
    "eof:",
  ]);
  assertEquals(lex("12.25", "f")[0].num, 12.25);
});

Deno.test("lexer: operators split so unary operators can follow", () => {
  assertEquals(kinds("a+-b"), ["id:a", "op:+", "op:-", "id:b", "eof:"]);
  assertEquals(kinds("{a:-1}"), ["punc:{", "id:a", "op::", "op:-", "num:1", "punc:}", "eof:"]);
  assertEquals(kinds("x+::y"), ["id:x", "op:+::", "id:y", "eof:"]);
  assertEquals(kinds("a==!b"), ["id:a", "op:==", "op:!", "id:b", "eof:"]);
});

Deno.test("lexer: string escapes and surrogate pairs", () => {
  const [t] = lex(String.raw`"a\n\t\"\u00e9\ud83d\ude00\/"`, "f");
  assertEquals(t.value, 'a\n\t"é😀/');
  assertEquals(lex(`'it\\'s'`, "f")[0].value, "it's");
});

Deno.test("lexer: verbatim strings double their quote", () => {
  assertEquals(lex(`@'a''b\\n'`, "f")[0].value, "a'b\\n");
  assertEquals(lex(`@"x""y"`, "f")[0].value, 'x"y');
});

Deno.test("lexer: text blocks strip the first line's indentation and may chomp", () => {
  assertEquals(lex("|||\n  a\n    b\n\n  c\n|||", "f")[0].value, "a\n  b\n\nc\n");
  assertEquals(lex("|||-\n  a\n|||", "f")[0].value, "a");
});

Deno.test("lexer: comments are skipped and locations track lines", () => {
  const toks = lex("// c\n# h\n/* x\n y */ foo", "f.jsonnet");
  assertEquals(toks[0].value, "foo");
  assertEquals([toks[0].loc.line, toks[0].loc.col, toks[0].loc.endCol], [4, 7, 10]);
});

Deno.test("lexer: malformed input is a static error with a location", () => {
  const e = assertThrows(() => lex("1 ` 2", "f"), JsonnetError) as JsonnetError;
  assertEquals([e.kind, e.line, e.column], ["STATIC ERROR", 1, 3]);
  assertThrows(() => lex(`"abc`, "f"), JsonnetError);
  assertThrows(() => lex(String.raw`"\q"`, "f"), JsonnetError);
  assertThrows(() => lex("|||\nnot indented\n|||", "f"), JsonnetError);
  assertThrows(() => lex("/* open", "f"), JsonnetError);
  assertThrows(() => lex("1.", "f"), JsonnetError);
});
