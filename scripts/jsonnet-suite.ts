/**
 * Runs the official Jsonnet test suite (the `test_suite/` directory of google/jsonnet, Apache-2.0;
 * not vendored here) through our engine and prints the pass count.
 *
 *   git clone --depth 1 https://github.com/google/jsonnet /tmp/jsonnet-src
 *   node_modules/.bin/deno run -A scripts/jsonnet-suite.ts /tmp/jsonnet-src/test_suite [--list] [--exact]
 *
 * The suite's conventions (its `tests.source`): every top-level `*.jsonnet` is a case, run from
 * the suite directory with `--ext-str var1=test --ext-code var2={"x": 1, "y": 2}` (and the same
 * pair as top-level arguments for `tla.*` cases). A case with a `.golden` file must print it
 * (stdout on success, the error message on failure); one without must print `true`. Cases whose
 * name starts with `fmt` test the formatter, not the evaluator, and are skipped.
 *
 * Verdicts: on success the output must be byte-identical. On an error, the error's first line
 * (kind, location for static errors, message) must equal the golden's first line; `--exact`
 * also requires the whole stack trace to match. Exits 1 when any case fails.
 */
import { evaluateJsonnet, JsonnetError } from "../lib/jsonnet/mod.ts";

const args = Deno.args.filter((a) => !a.startsWith("--"));
const list = Deno.args.includes("--list");
const exact = Deno.args.includes("--exact");
if (args.length !== 1) {
  console.error("usage: jsonnet-suite.ts <google/jsonnet test_suite dir> [--list] [--exact]");
  Deno.exit(2);
}
const dir = args[0].replace(/\/$/, "");

function read(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return undefined;
    throw e;
  }
}

const cases = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".jsonnet") && !e.name.startsWith("fmt"))
  .map((e) => e.name)
  .sort();

Deno.chdir(dir); // imports and error locations are relative to the suite, as in its runner
const vars = { str: { var1: "test" }, code: { var2: '{"x": 1, "y": 2}' } };
let passed = 0;
const failed: string[] = [];
for (const name of cases) {
  const golden = read(`${name}.golden`);
  const expected = golden ?? "true\n";
  const tla = name.startsWith("tla.");
  let out: string;
  let isError = false;
  try {
    out = evaluateJsonnet(Deno.readTextFileSync(name), {
      filename: name,
      extStr: vars.str,
      extCode: vars.code,
      tlaStr: tla ? vars.str : undefined,
      tlaCode: tla ? vars.code : undefined,
      readFile: (p) => {
        try {
          return Deno.readFileSync(p);
        } catch {
          return undefined;
        }
      },
    });
  } catch (e) {
    if (!(e instanceof JsonnetError)) {
      out = `CRASH: ${e instanceof Error ? e.stack : String(e)}`;
    } else out = e.message + "\n";
    isError = true;
  }
  const firstLine = (s: string) => s.split("\n")[0];
  const ok = isError && !exact
    ? golden !== undefined && firstLine(out) === firstLine(expected)
    : out.trimEnd() === expected.trimEnd();
  if (ok) passed++;
  else failed.push(name);
  if (list || !ok) {
    console.log(`${ok ? "ok  " : "FAIL"} ${name}`);
    if (!ok) console.log(`  expected: ${firstLine(expected)}\n  got:      ${firstLine(out)}`);
  }
}
console.log(`${passed}/${cases.length} passed${exact ? " (exact traces)" : ""}`);
if (failed.length) Deno.exit(1);
