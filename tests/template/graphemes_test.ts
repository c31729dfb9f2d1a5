/**
 * `truncate` segments only as far as it keeps (issue 15 item 4): graphemeOffset must agree with
 * segmenting the whole string (UAX #29 extended grapheme clusters, as Tera's
 * unicode-segmentation counts them; reference T-rules on built-in filters). The oracle
 * cross-check of the same edge inputs is in cases/filters_edge.jsonl.
 */
import fc from "fast-check";
import { assertEquals } from "./_assert.ts";
import { graphemeOffset, graphemes } from "../../lib/template/builtins/graphemes.ts";

function naive(s: string, n: number): number {
  const g = graphemes(s);
  if (n >= g.length) return -1;
  return g.slice(0, n).join("").length;
}

// pieces that exercise every joining rule next to plain text
const PIECES = [
  "a",
  "Z",
  " ",
  "\t",
  "\r",
  "\n",
  "\r\n",
  "é",
  "ß",
  "Ω",
  "ж",
  "日",
  "\u00ad",
  "\u0085",
  "\u0301",
  "\u0308",
  "\u200d",
  "\u200c",
  "👍",
  "🏽",
  "👩\u200d💻",
  "🇩🇪",
  "🇫",
  "\u{1F1F7}",
  "\u0915\u094d\u0937",
  "\u0e33",
  "\u0600",
  "\u1100",
  "\u1161",
  "\u11a8",
  "\uac00",
  "\ud800",
  "\udc00",
  "\ufe0f",
  "❤",
  "©",
  "\u0903",
  "\u0483",
  "\u3099",
  "か",
  "\u0300",
  "\u036f",
  "\u0080",
  "\u009f",
  "\u0482",
  "\u{1F3FB}",
  "\u{1F3FF}",
  "😀",
  "🚀",
  "🤖",
  "\u{1F650}",
  "\u{1F6FF}",
  "\u{1F9FF}",
];

Deno.test("graphemeOffset agrees with whole-string segmentation (property)", () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }),
      fc.nat(70),
      (parts, n) => {
        const s = parts.join("");
        assertEquals(graphemeOffset(s, n), naive(s, n), JSON.stringify([s, n]));
      },
    ),
    { numRuns: 3000 },
  );
});

Deno.test("graphemeOffset edge cases", () => {
  assertEquals(graphemeOffset("", 0), -1);
  assertEquals(graphemeOffset("a", 0), 0);
  assertEquals(graphemeOffset("ab", 1), 1);
  assertEquals(graphemeOffset("ab", 2), -1);
  assertEquals(graphemeOffset("a\r\nb", 2), 3);
  assertEquals(graphemeOffset("e\u0301e\u0301", 1), 2);
  assertEquals(graphemeOffset("👍🏽x", 1), 4);
  assertEquals(graphemeOffset("🇩🇪🇫🇷", 1), 4);
});

Deno.test("Indic conjuncts split as in Unicode 15.0 (Tera's unicode-segmentation)", () => {
  assertEquals(graphemes("\u0915\u094d\u0937\u093f"), ["\u0915\u094d", "\u0937\u093f"]);
  assertEquals(graphemeOffset("\u0915\u094d\u0937\u093f x", 1), 2);
});

Deno.test("graphemeOffset: every code point of the fast path's ranges breaks as Intl.Segmenter says", () => {
  const ranges: [number, number, number][] = [
    [0, 0x482, 1],
    [0x4e00, 0x9fff, 13],
    [0x1f300, 0x1f9ff, 1],
  ];
  const contexts = ["a#b", "#\u0301", "\r#\n", "#\u{1F3FD}x", "\u0301#", "#\u200d#", "\u{1F44D}#a"];
  for (const [lo, hi, stride] of ranges) {
    for (let cp = lo; cp <= hi; cp += stride) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const ch = String.fromCodePoint(cp);
      for (const ctx of contexts) {
        const s = ctx.replaceAll("#", ch);
        for (let n = 1; n <= 4; n++) {
          assertEquals(graphemeOffset(s, n), naive(s, n), JSON.stringify([s, n]));
        }
      }
    }
  }
});
