/**
 * Single-cell edits of real modules (issue 25 §3), shared by the corpus test and
 * `bench/corpus_edit_bench.ts`: for every asset CSV of the data directory, one edit per column
 * of its first row (a non-empty value gets an `x` appended, an empty one becomes `x`), made with
 * the REST write path's byte-preserving CSV editor.
 */
import { CsvEditor } from "../../lib/formats/csv_edit.ts";
import type { Layer, SourceSet } from "../../lib/workspace/sources.ts";

/** One edited source set and what was edited. */
export interface CellEdit {
  /** `path column`, for messages. */
  label: string;
  /** The edited file's path. */
  path: string;
  /** The edited column. */
  column: string;
  /** The sources with the edit. */
  sources: SourceSet;
}

/** Every first-row cell edit of the data directory's asset CSVs of `base`. */
export function firstRowEdits(base: SourceSet): CellEdit[] {
  const out: CellEdit[] = [];
  for (const [path, text] of base.data.files) {
    if (!path.startsWith("assets/") || !path.endsWith(".csv")) continue;
    let editor: CsvEditor;
    try {
      editor = CsvEditor.parse(text, path);
    } catch {
      continue; // a file the loader rejects too: no edit to make
    }
    if (editor.rowCount === 0) continue;
    editor.header.forEach((column, i) => {
      const ed = CsvEditor.parse(text, path);
      const value = ed.cell(0, i);
      ed.setCell(0, i, value === "" ? "x" : value + "x");
      const data: Layer = {
        ...base.data,
        files: new Map(base.data.files).set(path, ed.toString()),
      };
      out.push({ label: `${path} ${column}`, path, column, sources: { ...base, data } });
    });
  }
  return out;
}
