/**
 * CsvEditor on a 100k-row file vs parseCsv on the same text: the cost of one write-back.
 * Run: node_modules/.bin/deno run -A bench/csv_edit_bench.ts [rows] [runs]
 * (add --v8-flags=--expose-gc to collect garbage before each timing: steadier numbers).
 */
import { CsvEditor } from "../lib/formats/csv_edit.ts";
import { parseCsv } from "../lib/formats/csv.ts";

const ROWS = Number(Deno.args[0] ?? 100_000);
const RUNS = Number(Deno.args[1] ?? 11);

function generate(rows: number): string {
  const lines = ["name,ip,ttl,zone,note,disabled"];
  for (let i = 0; i < rows; i++) {
    const note = i % 10 === 0 ? `"owner ""ops"", rack ${i % 7}"` : i % 33 === 0 ? `"a\nb"` : "";
    lines.push(
      `host-${i},10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255},3600,z${
        i % 50
      }.example.ch,${note},False`,
    );
  }
  return lines.join("\n") + "\n";
}

const text = generate(ROWS);
const middle = Math.floor(ROWS / 2);
let sink = 0;
const edited = CsvEditor.parse(text, "b.csv");
edited.setCell(middle, 2, "300");

const cases: Record<string, () => void> = {
  "parseCsv (reference)": () => {
    sink += parseCsv(text, "b.csv").rows.length;
  },
  "CsvEditor.parse only": () => {
    sink += CsvEditor.parse(text, "b.csv").rowCount;
  },
  "parse + setCell + toString": () => {
    const ed = CsvEditor.parse(text, "b.csv");
    ed.setCell(middle, 2, "300");
    sink += ed.toString().length;
  },
  "parse + appendRow + toString": () => {
    const ed = CsvEditor.parse(text, "b.csv");
    ed.appendRow(["host-new", "10.9.9.9", "60", "z.example.ch", "new, row", "False"]);
    sink += ed.toString().length;
  },
  "parse + key scan (cell(r,0) of every row) + setCell + toString": () => {
    const ed = CsvEditor.parse(text, "b.csv");
    const key = `host-${middle}`;
    for (let r = 0; r < ed.rowCount; r++) {
      if (ed.cell(r, 0) === key) {
        ed.setCell(r, 2, "300");
        break;
      }
    }
    sink += ed.toString().length;
  },
  "toString only, after one setCell (parsed once, outside the timing)": () => {
    sink += edited.toString().length;
  },
  "parse + removeRow + addColumn + toString": () => {
    const ed = CsvEditor.parse(text, "b.csv");
    ed.removeRow(middle);
    ed.addColumn("owner");
    sink += ed.toString().length;
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${ROWS} rows, ${(text.length / 1e6).toFixed(1)} MB, median of ${RUNS} runs`);
for (const fn of Object.values(cases)) fn(); // warm up
// Round-robin, so load from other processes hits every case alike.
const times = new Map<string, number[]>(Object.keys(cases).map((name) => [name, []]));
for (let i = 0; i < RUNS; i++) {
  for (const [name, fn] of Object.entries(cases)) {
    gc?.();
    const t0 = performance.now();
    fn();
    times.get(name)!.push(performance.now() - t0);
  }
}
for (const [name, xs] of times) console.log(`${median(xs).toFixed(1).padStart(8)} ms  ${name}`);
if (sink === 0) console.log("unreachable");
