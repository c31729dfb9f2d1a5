// CsvEditor unit tests: write-back changes only what it must (A27, A28; A29 upsert and A30
// delete are built on setCell/appendRow/removeRow).
import { assert, assertEquals, assertThrows } from "../_assert.ts";
import { CsvEditError, CsvEditor } from "../../lib/formats/csv_edit.ts";
import { parseCsv } from "../../lib/formats/csv.ts";
import { ParseError } from "../../lib/formats/errors.ts";
import { CAA_CSV, TXT_CSV } from "./csv_edit_corpus.ts";

const edit = (text: string) => CsvEditor.parse(text, "assets/x.csv");

/** Lines (split on any line end) that differ; both texts must have as many lines. */
function changedLines(before: string, after: string): string[] {
  const a = before.split(/\r\n|\r|\n/);
  const b = after.split(/\r\n|\r|\n/);
  assertEquals(b.length, a.length, "line count changed");
  return b.filter((line, i) => line !== a[i]);
}

Deno.test("A27 parse + toString is the identity (BOM, CRLF, blank lines, quoting, no final break)", () => {
  for (
    const text of [
      "name\n",
      "name",
      '\uFEFFname,v\r\n\r\na,"x\r\ny"\r\n\r\n',
      '\n\nname,v\n  a  , "q ""w"""\n',
      "name,v\ra,1\rb,2",
      CAA_CSV,
      TXT_CSV,
    ]
  ) assertEquals(edit(text).toString(), text);
});

Deno.test("A28 CRLF file stays CRLF after setCell, appendRow and addColumn", () => {
  const ed = edit("name,v\r\na,1\r\n");
  ed.setCell(0, 1, "2");
  ed.appendRow(["b", "3"]);
  assertEquals(ed.toString(), "name,v\r\na,2\r\nb,3\r\n");
  ed.addColumn("w");
  assertEquals(ed.toString(), "name,v,w\r\na,2,\r\nb,3,\r\n");
});

Deno.test("A28 line ends: detected from the first line break outside quotes, LF by default", () => {
  const embedded = edit('name,v\r\na,"x\ny"\r\n');
  embedded.appendRow(["b"]);
  assertEquals(embedded.toString(), 'name,v\r\na,"x\ny"\r\nb,\r\n');
  const cr = edit("name\ra");
  cr.appendRow(["b"]);
  assertEquals(cr.toString(), "name\ra\rb");
  const none = edit("name");
  none.appendRow(["a"]);
  assertEquals(none.toString(), "name\na");
  const leading = edit("\r\nname");
  leading.appendRow(["a"]);
  assertEquals(leading.toString(), "\r\nname\r\na");
});

Deno.test("A28 BOM is kept, also when a column is added", () => {
  const ed = edit("\uFEFFname\na\n");
  ed.setCell(0, 0, "b");
  assertEquals(ed.toString(), "\uFEFFname\nb\n");
  ed.addColumn("v");
  assertEquals(ed.toString(), "\uFEFFname,v\nb,\n");
  assertEquals(ed.header, ["name", "v"]);
});

Deno.test("A28 no trailing newline is kept after setCell on the last row and after appendRow", () => {
  const ed = edit("name,v\na,1\nb,2");
  ed.setCell(1, 1, "3");
  assertEquals(ed.toString(), "name,v\na,1\nb,3");
  ed.appendRow(["c", "4"]);
  assertEquals(ed.toString(), "name,v\na,1\nb,3\nc,4");
  const withBreak = edit("name,v\na,1\n");
  withBreak.appendRow(["c"]);
  assertEquals(withBreak.toString(), "name,v\na,1\nc,\n");
});

Deno.test("A27 quoted cells with embedded newlines and doubled quotes survive edits elsewhere", () => {
  const text = 'name,note,v\na,"l1\nl2 ""q""",1\nb,"x,y",2\n';
  const ed = edit(text);
  ed.setCell(1, 2, "3"); // another row
  assertEquals(ed.toString(), 'name,note,v\na,"l1\nl2 ""q""",1\nb,"x,y",3\n');
  ed.setCell(0, 2, "9"); // same row, another cell
  assertEquals(ed.toString(), 'name,note,v\na,"l1\nl2 ""q""",9\nb,"x,y",3\n');
  assertEquals(ed.cell(0, 1), 'l1\nl2 "q"');
});

Deno.test("A27 setCell with the same value leaves the row byte-identical", () => {
  const text = 'name,v\n"a","1"\n';
  const ed = edit(text);
  ed.setCell(0, 1, "1");
  assertEquals(ed.toString(), text);
});

Deno.test("A27 blank lines between rows are kept and are not rows", () => {
  const ed = edit("name\na\n\n\nb\n\n");
  assertEquals(ed.rowCount, 2);
  assertEquals([ed.lineOf(0), ed.lineOf(1)], [2, 5]);
  ed.setCell(1, 0, "c");
  ed.appendRow(["d"]);
  assertEquals(ed.toString(), "name\na\n\n\nc\nd\n\n");
});

Deno.test("A28 new columns are appended to the header and as empty cells to every row", () => {
  const ed = edit('"name","v"\n"a","1"\n');
  assertEquals(ed.addColumn("ip"), 2);
  assertEquals(ed.addColumn("note, long"), 3);
  assertEquals(ed.toString(), '"name","v",ip,"note, long"\n"a","1",,\n');
  assertEquals(ed.cells(0), ["a", "1", "", ""]);
  ed.setCell(0, 2, "10.0.0.1");
  ed.appendRow(["b"]);
  assertEquals(ed.toString(), '"name","v",ip,"note, long"\n"a","1",10.0.0.1,\nb,,,\n');
  assertEquals(ed.columnIndex("note, long"), 3);
  assertThrows(() => ed.addColumn("v"), CsvEditError);
  assertThrows(() => ed.addColumn(" pad"), CsvEditError);
  assertThrows(() => ed.addColumn(""), CsvEditError);
});

Deno.test("A30 removing the first, a middle and the last row", () => {
  const text = "name\na\nb\nc\nd\n";
  const first = edit(text);
  first.removeRow(0);
  assertEquals(first.toString(), "name\nb\nc\nd\n");
  const middle = edit(text);
  middle.removeRow(1);
  assertEquals(middle.toString(), "name\na\nc\nd\n");
  assertEquals(middle.cell(1, 0), "c");
  const last = edit("name\na\nb");
  last.removeRow(1);
  assertEquals(last.toString(), "name\na");
  last.removeRow(0);
  assertEquals(last.toString(), "name");
  assertEquals(last.rowCount, 0);
});

Deno.test("A30 removeRows removes several rows at once, checking every index first", () => {
  const ed = edit("name\na\n\nb\nc\nd");
  assertEquals(ed.removeRows([3, 1, 3]), 2);
  assertEquals(ed.toString(), "name\na\nc");
  assertThrows(() => ed.removeRows([0, 7]), CsvEditError);
  assertEquals(ed.rowCount, 2);
  assertEquals(ed.removeRows([]), 0);
});

Deno.test("A28 new or changed cells are quoted only when they need it", () => {
  const ed = edit("name,v\na,1\n");
  ed.setCell(0, 1, 'say "hi", then\nleave');
  ed.appendRow([" pad", "plain"]);
  assertEquals(ed.toString(), 'name,v\na,"say ""hi"", then\nleave"\n" pad",plain\n');
  assertEquals(parseCsv(ed.toString(), "f").rows.map((r) => r.cells), [
    ["a", 'say "hi", then\nleave'],
    [" pad", "plain"],
  ]);
});

Deno.test('A28 an empty cell of a one-column file is written as "" (not a blank line)', () => {
  const ed = edit("name\na\n");
  ed.setCell(0, 0, "");
  ed.appendRow([]);
  assertEquals(ed.toString(), 'name\n""\n""\n');
  assertEquals(parseCsv(ed.toString(), "f").rows.length, 2);
});

Deno.test("header-only files: with and without a final line break", () => {
  const ed = edit("name,v\n");
  assertEquals(ed.rowCount, 0);
  ed.appendRow(["a", "1"]);
  assertEquals(ed.toString(), "name,v\na,1\n");
  const bare = edit(" name ,v");
  assertEquals(bare.header, ["name", "v"]);
  bare.addColumn("w");
  assertEquals(bare.toString(), " name ,v,w");
});

Deno.test("CsvEditor.create writes an LF file with a trailing newline and no BOM", () => {
  const ed = CsvEditor.create(["name", "a,b"], "assets/new.csv");
  assertEquals(ed.toString(), 'name,"a,b"\n');
  ed.appendRow(["x", "1"]);
  assertEquals(ed.toString(), 'name,"a,b"\nx,1\n');
  assertEquals(ed.lineOf(0), undefined);
  assertEquals(ed.file, "assets/new.csv");
  assertThrows(() => CsvEditor.create([], "f"), CsvEditError);
  assertThrows(() => CsvEditor.create(["a", "a"], "f"), CsvEditError);
  assertThrows(() => CsvEditor.create(["a "], "f"), CsvEditError);
});

Deno.test("API misuse throws CsvEditError: out-of-range rows/columns, too many cells", () => {
  const ed = edit("name,v\na,1\n");
  assertEquals(assertThrows(() => ed.cell(1, 0), CsvEditError).code, "csv_index_out_of_range");
  assertThrows(() => ed.cell(0, 2), CsvEditError);
  assertThrows(() => ed.setCell(-1, 0, "x"), CsvEditError);
  assertThrows(() => ed.removeRow(5), CsvEditError);
  assertThrows(() => ed.lineOf(0.5), CsvEditError);
  assertThrows(() => ed.appendRow(["a", "b", "c"]), CsvEditError);
  assertEquals(ed.toString(), "name,v\na,1\n");
});

Deno.test("A4 A11 parse errors match parseCsv; a ragged row throws naming its line", () => {
  const cases: [string, string, number | undefined, number | undefined][] = [
    ["", "csv_empty_header", 1, 1],
    ["\n\n", "csv_empty_header", 1, 1],
    ["name,,x\n", "csv_empty_header", 1, undefined],
    ["name,a,a\n", "csv_duplicate_header", 1, undefined],
    ['name,v\nx,"open\nmore\n', "csv_unterminated_quote", 2, 3],
    ['name\n"a"b\n', "csv_bad_quote", 2, 4],
    ['name,v\n"a\nb",1\nc\n', "csv_ragged_row", 4, undefined],
    // Regression: a fatal quote error after a ragged row wins, as in parseCsv.
    ['name,v\nx\n"open', "csv_unterminated_quote", 3, 1],
  ];
  for (const [text, code, line, column] of cases) {
    const e = assertThrows(() => edit(text), ParseError);
    assertEquals([e.code, e.line, e.column], [code, line, column], JSON.stringify(text));
    assert(e.message.startsWith("assets/x.csv:"));
    if (code !== "csv_ragged_row") {
      const p = assertThrows(() => parseCsv(text, "assets/x.csv"), ParseError);
      assertEquals(p.message, e.message);
    }
  }
});

Deno.test("A28 corpus caa.csv (every cell quoted): one setCell is one changed line", () => {
  const ed = edit(CAA_CSV);
  const row = 5;
  const before = ed.cells(row);
  ed.setCell(row, ed.columnIndex("ttl"), "3600");
  const out = ed.toString();
  const changed = changedLines(CAA_CSV, out);
  assertEquals(changed.length, 1);
  // The other cells keep their quotes; only the changed one is written minimally.
  const ttl = ed.columnIndex("ttl");
  const expected = before.map((v, i) => i === ttl ? "3600" : `"${v.replaceAll('"', '""')}"`);
  assertEquals(changed[0], expected.join(","));
  assertEquals(parseCsv(out, "f").rows[row].cells[3], "3600");
});

Deno.test("A28 corpus txt.csv (doubled quotes): one setCell is one changed line", () => {
  const ed = edit(TXT_CSV);
  const row = ed.rowCount - 3;
  ed.setCell(row, ed.columnIndex("comment"), "checked, ok");
  const changed = changedLines(TXT_CSV, ed.toString());
  assertEquals(changed.length, 1);
  const original = TXT_CSV.split("\n")[ed.lineOf(row)! - 1];
  assertEquals(changed[0], original.replace(",14400,,", ',14400,"checked, ok",'));
  assertEquals(CsvEditor.parse(ed.toString(), "f").toString(), ed.toString());
});

Deno.test("A29 A30 upsert and delete by key on a corpus file keep other rows byte-identical", () => {
  const ed = edit(CAA_CSV);
  const names = Array.from({ length: ed.rowCount }, (_, r) => ed.cell(r, 1));
  const victim = names.lastIndexOf("directa.ch");
  ed.removeRow(victim);
  ed.appendRow(["caa", "example.ch", '0 issue "letsencrypt.org"', "300", "False", "example.ch"]);
  const lines = CAA_CSV.split("\n");
  const removedLine = lines[victim + 1];
  const expected = lines.filter((_, i) => i !== victim + 1);
  expected.splice(
    expected.length - 1,
    0,
    'caa,example.ch,"0 issue ""letsencrypt.org""",300,False,example.ch',
  );
  assertEquals(ed.toString(), expected.join("\n"));
  assert(!ed.toString().includes(removedLine + "\n"));
});
