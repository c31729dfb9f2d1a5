import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { formatCsvCell, parseCsv, stringifyCsv } from "../../lib/formats/csv.ts";
import { ParseError } from "../../lib/formats/errors.ts";

Deno.test("A11 RFC 4180: quoted commas, doubled quotes, embedded newlines", () => {
  const doc = parseCsv(
    'name,note,tags\nweb-1,"a, b","say ""hi"""\nweb-2,"line1\nline2",x\n',
    "f.csv",
  );
  assertEquals(doc.header, ["name", "note", "tags"]);
  assertEquals(doc.rows.map((r) => r.cells), [
    ["web-1", "a, b", 'say "hi"'],
    ["web-2", "line1\nline2", "x"],
  ]);
  assertEquals(doc.rows.map((r) => r.line), [2, 3]);
});

Deno.test("A11 BOM, CRLF, CR-only line ends and blank lines", () => {
  const doc = parseCsv("\uFEFFname,v\r\na,1\r\n\r\nb,2\rc,3", "f.csv");
  assertEquals(doc.header, ["name", "v"]);
  assertEquals(doc.rows.map((r) => r.cells), [["a", "1"], ["b", "2"], ["c", "3"]]);
  assertEquals(doc.rows.map((r) => r.line), [2, 4, 5]);
});

Deno.test("A12 empty cells are kept as empty strings", () => {
  const doc = parseCsv("name,a,b\nx,,\n", "f.csv");
  assertEquals(doc.rows[0].cells, ["x", "", ""]);
});

Deno.test("a row of only commas is data, not a blank line", () => {
  const doc = parseCsv("a,b\n,\n", "f.csv");
  assertEquals(doc.rows[0].cells, ["", ""]);
});

Deno.test("unterminated quote is fatal and names the line and column where it opened", () => {
  const e = assertThrows(() => parseCsv('name,v\nx,"open\nmore\n', "assets/h.csv"), ParseError);
  assert(e instanceof ParseError);
  assertEquals([e.line, e.column, e.code], [2, 3, "csv_unterminated_quote"]);
  assert(e.message.startsWith("assets/h.csv:2:3: "));
});

Deno.test("text after a closing quote is rejected with its position", () => {
  const e = assertThrows(() => parseCsv('name\n"a"b\n', "f.csv"), ParseError);
  assertEquals([e.code, e.line, e.column], ["csv_bad_quote", 2, 4]);
});

Deno.test("A4 empty header, empty header cell and duplicate header names are rejected", () => {
  assertEquals(assertThrows(() => parseCsv("", "f.csv"), ParseError).code, "csv_empty_header");
  assertEquals(
    assertThrows(() => parseCsv("name,,x\n", "f.csv"), ParseError).code,
    "csv_empty_header",
  );
  const dup = assertThrows(() => parseCsv("name,a,a\n", "f.csv"), ParseError);
  assertEquals(dup.code, "csv_duplicate_header");
  assert(dup.message.includes("columns 2 and 3"));
});

Deno.test("ragged rows are collected with their line and left out", () => {
  const doc = parseCsv("name,a\nx,1\ny\nz,1,2\nw,2\n", "f.csv");
  assertEquals(doc.rows.map((r) => r.cells[0]), ["x", "w"]);
  assertEquals(doc.errors.map((e) => [e.code, e.line]), [["csv_ragged_row", 3], [
    "csv_ragged_row",
    4,
  ]]);
});

Deno.test("writer quotes only where needed and round-trips", () => {
  assertEquals(formatCsvCell("plain"), "plain");
  assertEquals(formatCsvCell('a"b'), '"a""b"');
  const header = ["name", "note"];
  const rows = [["a", "x, y"], ["b", 'q"\nz'], ["c", ""]];
  const text = stringifyCsv(header, rows);
  const back = parseCsv(text, "f.csv");
  assertEquals(back.header, header);
  assertEquals(back.rows.map((r) => r.cells), rows);
});

Deno.test("property: random tables survive stringify → parse", () => {
  let seed = 42;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = ["a", "b", ",", '"', "\n", "\r\n", " ", "é", "😀", ""];
  for (let t = 0; t < 200; t++) {
    const cols = 1 + Math.floor(rnd() * 4);
    const header = Array.from({ length: cols }, (_, i) => `c${i}`);
    const rows = Array.from(
      { length: 1 + Math.floor(rnd() * 5) },
      () =>
        Array.from(
          { length: cols },
          () =>
            Array.from({ length: Math.floor(rnd() * 5) }, () =>
              alphabet[Math.floor(rnd() * alphabet.length)]).join(""),
        ),
    );
    // A row whose only cell is empty would be a blank line: give single-column rows content.
    const fixed = rows.map((r) => (cols === 1 && r[0] === "" ? ["x"] : r));
    const back = parseCsv(stringifyCsv(header, fixed), "p.csv");
    assertEquals(back.rows.map((r) => r.cells), fixed);
    assertEquals(back.errors, []);
  }
});

Deno.test("fuzz: arbitrary text never throws anything but ParseError", () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const alphabet = ["a", ",", '"', "\n", "\r", " ", "\uFEFF"];
  for (let t = 0; t < 2000; t++) {
    const text = Array.from(
      { length: Math.floor(rnd() * 30) },
      () => alphabet[Math.floor(rnd() * alphabet.length)],
    ).join("");
    try {
      parseCsv(text, "fuzz.csv");
    } catch (e) {
      assert(e instanceof ParseError, `unexpected ${e}`);
    }
  }
});
