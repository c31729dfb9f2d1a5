/**
 * Checks tests/template/cases/corpus_snippets.jsonl: every line is a well-formed case, and every
 * case that real Tera 1.17 can run (no engine extensions, no Tera 1.20 syntax) renders on the
 * oracle, or fails when the case says `"expect": "error"`. Skipped when the oracle is not built
 * (see /work/shared/tools/README.md). Needs --allow-read --allow-run --allow-env.
 */
import { assertEquals } from "./_assert.ts";

interface Case {
  template: string;
  context: Record<string, unknown>;
  note: string;
  extensions?: boolean;
  expected?: string;
  requires?: string;
  expect?: "error";
  why?: string;
  nondeterministic?: boolean;
}

const FILE = new URL("../cases/corpus_snippets.jsonl", import.meta.url);
const DEFAULT_ORACLE = "/tmp/tera-oracle/target/release/tera-oracle";

function granted(desc: Deno.PermissionDescriptor): boolean {
  return Deno.permissions.querySync(desc).state === "granted";
}

/** Without the permissions (plain `deno test`) these checks are reported as ignored. */
const CAN_READ = granted({ name: "read", path: FILE });
const ORACLE = granted({ name: "env", variable: "TERA_ORACLE" })
  ? Deno.env.get("TERA_ORACLE") ?? DEFAULT_ORACLE
  : DEFAULT_ORACLE;

function loadCases(): Case[] {
  const lines = Deno.readTextFileSync(FILE).split("\n").filter((l) => l.trim() !== "");
  return lines.map((line, i) => {
    const c = JSON.parse(line) as Case;
    if (typeof c.template !== "string" || typeof c.note !== "string") {
      throw new Error(`line ${i + 1}: template and note must be strings`);
    }
    if (typeof c.context !== "object" || c.context === null || Array.isArray(c.context)) {
      throw new Error(`line ${i + 1}: context must be an object`);
    }
    return c;
  });
}

Deno.test({ name: "corpus snippets: well-formed, more than 100 cases", ignore: !CAN_READ }, () => {
  const cases = loadCases();
  assertEquals(cases.length > 100, true, `only ${cases.length} cases`);
  for (const c of cases) {
    assertEquals(/\{\{|\{%|\{#/.test(c.template), true, `${c.note} is not a template`);
  }
});

function oracleExists(): boolean {
  if (!CAN_READ || !granted({ name: "read", path: ORACLE })) return false;
  if (!granted({ name: "run", command: ORACLE })) return false;
  try {
    return Deno.statSync(ORACLE).isFile;
  } catch {
    return false;
  }
}

Deno.test({
  name: "corpus snippets: Tera-only cases render on real Tera",
  ignore: !oracleExists(),
  fn: async () => {
    const cases = loadCases().filter((c) => !c.extensions && !c.requires);
    const input = cases.map((c) => JSON.stringify({ template: c.template, context: c.context }))
      .join("\n") + "\n";
    const child = new Deno.Command(ORACLE, { args: ["--jsonl"], stdin: "piped", stdout: "piped" })
      .spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(input));
    await writer.close();
    const out = await child.output();
    const answers = new TextDecoder().decode(out.stdout).trim().split("\n").map((l) =>
      JSON.parse(l) as { ok?: string; error?: string }
    );
    assertEquals(answers.length, cases.length, "one answer per case");
    const problems: string[] = [];
    cases.forEach((c, i) => {
      const a = answers[i];
      if (c.expect === "error" ? a.error === undefined : a.ok === undefined) {
        problems.push(`${c.note}: ${a.error ?? "rendered but an error was expected"}`);
      }
    });
    assertEquals(problems, []);
  },
});
