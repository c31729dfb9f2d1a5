import { check, fails } from "./_call.ts";

Deno.test("substr counts code points and truncates fractions", () => {
  check("substr", ["hello", 1, 3], "ell");
  check("substr", ["hello", 3, 10], "lo");
  check("substr", ["hello", 7, 2], "");
  check("substr", ["a😀bc", 1, 2], "😀b");
  check("substr", ["abcdef", 1.5, 2], "bc");
  fails("substr", ["abc", -1, 2], "substr second parameter should be greater than zero, got -1");
  fails("substr", ["abc", 0, -1], "substr third parameter should be greater than zero, got -1");
  fails(
    "substr",
    [1, 0, 1],
    "Builtin function substr expected (string, number, number) but got (number, number, number)",
  );
});

Deno.test("startsWith / endsWith / stringChars / isEmpty / equalsIgnoreCase", () => {
  check("startsWith", ["foobar", "foo"], true);
  check("startsWith", ["foo", "foobar"], false);
  check("endsWith", ["ab😀", "😀"], true);
  check("stringChars", ["ab😀"], ["a", "b", "😀"]);
  check("isEmpty", [""], true);
  check("isEmpty", ["x"], false);
  check("equalsIgnoreCase", ["AbC", "aBc"], true);
  check("equalsIgnoreCase", ["É", "é"], false);
  fails("startsWith", [1, "a"], "length operates on strings, objects, and arrays, got number");
});

Deno.test("strip functions", () => {
  check("stripChars", ["  ab  ", " "], "ab");
  check("lstripChars", ["aabba", "a"], "bba");
  check("rstripChars", ["aabba", "a"], "aabb");
  check("stripChars", ["xyhixy", "yx"], "hi");
  check("stripChars", ["..a.b..", ["."]], "a.b");
  check("stripChars", ["😀hi😀", "😀"], "hi");
  check("trim", [" \t\n hi \r\f\u0085"], "hi");
});

Deno.test("split / splitLimit / splitLimitR", () => {
  check("split", ["a,b,,c", ","], ["a", "b", "", "c"]);
  check("split", ["", ","], [""]);
  check("split", ["a::b::c", "::"], ["a", "b", "c"]);
  check("splitLimit", ["a,b,c,d", ",", 2], ["a", "b", "c,d"]);
  check("splitLimit", ["a,b,c", ",", 0], ["a,b,c"]);
  check("splitLimitR", ["a,b,c,d", ",", 2], ["a,b", "c", "d"]);
  check("splitLimitR", ["a,b,c", ",", -1], ["a", "b", "c"]);
  check("splitLimitR", ["a😀b😀c", "😀", 1], ["a😀b", "c"]);
  fails("split", [1, ","], "std.split first parameter should be a string, got number");
  fails("split", ["a", 1], "std.split second parameter should be a string, got number");
});

Deno.test("strReplace / ascii case / findSubstr / lines", () => {
  check("strReplace", ["aaa", "aa", "b"], "ba");
  check("strReplace", ["a.b.c", ".", "::"], "a::b::c");
  fails("strReplace", ["abc", "", "x"], "'from' string must not be zero length.");
  check("asciiUpper", ["abcXYZ-é1"], "ABCXYZ-é1");
  check("asciiLower", ["ABCxyz-É1"], "abcxyz-É1");
  fails("asciiUpper", [1], "Builtin function asciiUpper expected (string) but got (number)");
  check("findSubstr", ["aa", "aaaa"], [0, 1, 2]);
  check("findSubstr", ["", "abc"], []);
  check("findSubstr", ["b", "a😀b"], [2]);
  check("lines", [["a", "b", null, "c"]], "a\nb\nc\n");
  check("lines", [[]], "");
});

Deno.test("parseInt / parseOctal / parseHex", () => {
  check("parseInt", ["123"], 123);
  check("parseInt", ["-45"], -45);
  check("parseOctal", ["755"], 493);
  check("parseHex", ["fF"], 255);
  check("parseHex", ["DEADbeef"], 3735928559);
  fails("parseInt", ["12a"], "12a is not a base 10 integer");
  fails("parseInt", ["-"], 'Not an integer: "-"');
  fails("parseInt", [""], 'Not an integer: ""');
  fails("parseInt", ["+5"], "+5 is not a base 10 integer");
  fails("parseOctal", ["19"], "19 is not a base 8 integer");
  fails("parseHex", [""], 'Not hexadecimal: ""');
  fails("parseInt", [5], "Expected string, got number");
});

Deno.test("toString and escapes", () => {
  check("toString", [[1, [2, []], {}]], "[1, [2, [ ]], { }]");
  check("toString", [{ b: 1, a: [null] }], '{"a": [null], "b": 1}');
  check("toString", [1e21], "1000000000000000000000");
  check("toString", [-0], "-0");
  check(
    "escapeStringJson",
    ['a"b\\\n\u0001\u007f\u0080\u00a0é😀'],
    '"a\\"b\\\\\\n\\u0001\\u007f\\u0080\u00a0é😀"',
  );
  check("escapeStringJson", [1], '"1"');
  check("escapeStringPython", ["x'\n"], '"x\'\\n"');
  check("escapeStringBash", ["it's"], `'it'"'"'s'`);
  check("escapeStringDollars", ["$x $$"], "$$x $$$$");
  check(
    "escapeStringXml",
    [`<a href="x">&'</a>`],
    "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;",
  );
});
