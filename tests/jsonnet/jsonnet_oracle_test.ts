/**
 * Differential tests: every tests/jsonnet/cases/**\/*.jsonnet program runs through the reference
 * binary (/usr/bin/jsonnet) and through our engine; stdout must be byte-identical, or both must
 * fail. A sidecar `<name>.options.json` may give `extStr`, `extCode`, `tlaStr`, `tlaCode`,
 * `stringOutput`, `jpath` (relative to the case) and `expect`: our expected stdout where we
 * deliberately differ from the 0.18 oracle (shortest number form, Jsonnet 0.20-only features);
 * with `expect` the oracle is not consulted for the verdict. `expectError` (a substring of our
 * error message) marks a program that must fail where 0.18 succeeds (0.21 checks, budgets).
 *
 * Needs --allow-read --allow-run --allow-env. Skips when the binary is missing unless CI=true.
 */
import { evaluateJsonnet, JsonnetError } from "../../lib/jsonnet/mod.ts";

const BIN = "/usr/bin/jsonnet";
const ROOT = new URL("./cases/", import.meta.url).pathname;

interface CaseOptions {
  extStr?: Record<string, string>;
  extCode?: Record<string, string>;
  tlaStr?: Record<string, string>;
  tlaCode?: Record<string, string>;
  stringOutput?: boolean;
  jpath?: string[];
  expect?: string;
  expectError?: string;
  budget?: { maxSteps?: number; maxMemory?: number };
}

function binaryAvailable(): boolean {
  try {
    return Deno.statSync(BIN).isFile;
  } catch {
    return false;
  }
}

function walk(dir: string, out: string[] = []): string[] {
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    const p = `${dir}${dir.endsWith("/") ? "" : "/"}${e.name}`;
    if (e.isDirectory) walk(p, out);
    else if (e.name.endsWith(".jsonnet")) out.push(p);
  }
  return out;
}

function readOptions(file: string): CaseOptions {
  try {
    return JSON.parse(Deno.readTextFileSync(file.replace(/\.jsonnet$/, ".options.json")));
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
}

function runBinary(file: string, o: CaseOptions): { ok: boolean; stdout: string; stderr: string } {
  const args: string[] = [];
  for (const [k, v] of Object.entries(o.extStr ?? {})) args.push("--ext-str", `${k}=${v}`);
  for (const [k, v] of Object.entries(o.extCode ?? {})) args.push("--ext-code", `${k}=${v}`);
  for (const [k, v] of Object.entries(o.tlaStr ?? {})) args.push("--tla-str", `${k}=${v}`);
  for (const [k, v] of Object.entries(o.tlaCode ?? {})) args.push("--tla-code", `${k}=${v}`);
  if (o.stringOutput) args.push("-S");
  for (const j of o.jpath ?? []) args.push("-J", j);
  args.push(file);
  const r = new Deno.Command(BIN, { args, stdout: "piped", stderr: "piped" }).outputSync();
  const dec = new TextDecoder();
  return { ok: r.success, stdout: dec.decode(r.stdout), stderr: dec.decode(r.stderr) };
}

// Bytes, not text: `importbin` must see the file's raw bytes.
function readFile(path: string): Uint8Array | undefined {
  try {
    return Deno.readFileSync(path);
  } catch {
    return undefined;
  }
}

function envCI(): boolean {
  try {
    return Deno.env.get("CI") === "true";
  } catch {
    return false; // no --allow-env
  }
}

// Without --allow-read/--allow-run the statSync above fails and every case is skipped.
const available = binaryAvailable() &&
  Deno.permissions.querySync({ name: "run", command: BIN }).state === "granted";
if (!available && envCI()) {
  Deno.test("jsonnet oracle binary is installed", () => {
    throw new Error(`${BIN} is missing but CI=true`);
  });
}

for (const file of available ? walk(ROOT) : []) {
  const name = file.slice(ROOT.length);
  Deno.test(`jsonnet oracle: ${name}`, () => {
    const o = readOptions(file);
    const dir = file.slice(0, file.lastIndexOf("/") + 1);
    // jpath entries are relative to the case's directory.
    if (o.jpath) o.jpath = o.jpath.map((j) => (j.startsWith("/") ? j : dir + j));
    const ref = runBinary(file, o);
    let ours: string | undefined;
    let err: unknown;
    try {
      ours = evaluateJsonnet(Deno.readTextFileSync(file), {
        filename: file,
        extStr: o.extStr,
        extCode: o.extCode,
        tlaStr: o.tlaStr,
        tlaCode: o.tlaCode,
        stringOutput: o.stringOutput,
        jpath: o.jpath,
        readFile,
        budget: o.budget,
      });
    } catch (e) {
      err = e;
    }
    if (err !== undefined && !(err instanceof JsonnetError)) throw err;
    if (o.expectError !== undefined) {
      if (err === undefined) throw new Error(`expected an error, got:\n${ours}`);
      if (!(err as Error).message.includes(o.expectError)) throw err;
      return;
    }
    if (o.expect !== undefined) {
      // A deliberate difference from the 0.18 oracle (number format, 0.20-only features).
      if (err !== undefined) throw err;
      if (ours !== o.expect) {
        throw new Error(`stdout differs.\n--- expected\n${o.expect}\n--- ours\n${ours}`);
      }
      return;
    }
    if (!ref.ok) {
      if (err === undefined) {
        throw new Error(
          `reference failed but we succeeded.\nreference:\n${ref.stderr}\nours:\n${ours}`,
        );
      }
      return;
    }
    if (err !== undefined) {
      throw new Error(
        `we failed but the reference succeeded.\nours:\n${
          (err as Error).message
        }\nreference:\n${ref.stdout}`,
      );
    }
    const expected = o.expect ?? ref.stdout;
    if (ours !== expected) {
      throw new Error(`stdout differs.\n--- expected\n${expected}\n--- ours\n${ours}`);
    }
  });
}
