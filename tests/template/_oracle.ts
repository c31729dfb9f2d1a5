/** Helpers for differential tests against the real Tera (`tera-oracle --jsonl`). */
import { toJson } from "../../lib/template/value.ts";
import {
  parseJsonPreservingFloats,
  type TemplateEnvironment,
  TemplateError,
} from "../../lib/template/mod.ts";

/** One case: a template, a context, and optionally our deliberate expected output. */
export interface Case {
  template: string;
  context: Record<string, unknown>;
  note?: string;
  /** Deliberate difference: our expected output (or `{ error: true }`), see DIFFERENCES.md. */
  expect?: string | { error: true };
  file?: string;
  line?: number;
}

/** An oracle or engine answer. */
export type Answer = { ok: string } | { error: string };

/** Path of the oracle binary, or null when not configured (tests then skip unless CI=true). */
export function oraclePath(): string | null {
  return Deno.env.get("TERA_ORACLE") ?? null;
}

/** True when oracle tests must run (CI) even without the binary. */
export function oracleRequired(): boolean {
  return Deno.env.get("CI") === "true";
}

/** Runs cases through the oracle in one batch. */
export async function runOracle(bin: string, cases: Case[]): Promise<Answer[]> {
  const input =
    cases.map((c) => `{"template":${JSON.stringify(c.template)},"context":${toJson(c.context)}}`)
      .join("\n") + "\n";
  const cmd = new Deno.Command(bin, {
    args: ["--jsonl"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(input));
  await writer.close();
  const out = await child.output();
  const lines = new TextDecoder().decode(out.stdout).split("\n").filter((l) => l.trim() !== "");
  if (lines.length !== cases.length) {
    throw new Error(
      `oracle answered ${lines.length} lines for ${cases.length} cases: ${
        new TextDecoder().decode(out.stderr)
      }`,
    );
  }
  return lines.map((l) => JSON.parse(l) as Answer);
}

/** Renders one case with our engine. */
export function runOurs(env: TemplateEnvironment, c: Case): Answer {
  try {
    return { ok: env.render(c.template, c.context) };
  } catch (e) {
    if (e instanceof TemplateError) return { error: e.message };
    return { error: `NON-TEMPLATE ERROR: ${e instanceof Error ? e.stack : String(e)}` };
  }
}

/** Loads all `*.jsonl` case files of a directory (contexts keep the int/float distinction). */
export function loadCases(dir: string): Case[] {
  const cases: Case[] = [];
  for (const entry of [...Deno.readDirSync(dir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!entry.isFile || !entry.name.endsWith(".jsonl")) continue;
    const text = Deno.readTextFileSync(`${dir}/${entry.name}`);
    text.split("\n").forEach((line, i) => {
      if (line.trim() === "") return;
      const parsed = parseJsonPreservingFloats(line) as Case;
      cases.push({ ...parsed, context: parsed.context ?? {}, file: entry.name, line: i + 1 });
    });
  }
  return cases;
}
