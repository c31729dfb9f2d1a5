/**
 * Differential test: every case in tests/template/cases/*.jsonl is rendered by the real Tera
 * (env TERA_ORACLE) and by our engine; outputs must be identical (both erroring counts as
 * agreement). Cases with an `expect` field are deliberate differences (DIFFERENCES.md) and are
 * checked by differences_test.ts instead.
 */
import { TemplateEnvironment } from "../../lib/template/mod.ts";
import { loadCases, oraclePath, oracleRequired, runOracle, runOurs } from "./_oracle.ts";

const bin = oraclePath();
const dir = new URL("./cases", import.meta.url).pathname;

Deno.test({
  name: "tera oracle: all JSONL cases agree with Tera",
  ignore: bin === null && !oracleRequired(),
  async fn() {
    if (bin === null) throw new Error("CI=true but TERA_ORACLE is not set");
    const cases = loadCases(dir).filter((c) => c.expect === undefined);
    if (cases.length < 400) throw new Error(`only ${cases.length} cases found in ${dir}`);
    const env = new TemplateEnvironment();
    // templates reading the clock are rendered before and after the oracle runs: its second
    // lies between the two (a loaded machine made a single render cross a second boundary)
    const clocked = cases.map((c) => c.template.includes("now(") ? runOurs(env, c) : null);
    const oracle = await runOracle(bin, cases);
    const failures: string[] = [];
    cases.forEach((c, i) => {
      const o = oracle[i];
      const u = runOurs(env, c);
      const b = clocked[i];
      const agree = ("ok" in o && "ok" in u && o.ok === u.ok) || ("error" in o && "error" in u) ||
        (b !== null && "ok" in o && "ok" in b && o.ok === b.ok);
      if (!agree || ("error" in u && u.error.startsWith("NON-TEMPLATE"))) {
        failures.push(
          `${c.file}:${c.line} ${JSON.stringify(c.template)}\n  tera: ${
            JSON.stringify(o)
          }\n  ours: ${JSON.stringify(u)}`,
        );
      }
    });
    if (failures.length) {
      throw new Error(`${failures.length}/${cases.length} disagreements:\n${failures.join("\n")}`);
    }
  },
});
