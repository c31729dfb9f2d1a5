/**
 * Property test: ~300 random templates from a small grammar (seeded PRNG) rendered by Tera
 * (env TERA_ORACLE) and by our engine must agree (both erroring counts as agreement).
 */
import { TemplateEnvironment } from "../../lib/template/mod.ts";
import { type Case, oraclePath, oracleRequired, runOracle, runOurs } from "./_oracle.ts";

function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CONTEXT = {
  a: 3,
  b: -2,
  f: 1.5,
  s: "Tera",
  e: "",
  t: true,
  xs: [3, 1, 2],
  ss: ["b", "a"],
  m: { k: "v", n: 2 },
  k: "k",
  us: [{ n: "x", v: 1 }, { n: "y", v: 2 }],
};

/** Generates one random template. */
export function generate(rnd: () => number): string {
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const atom = (d: number): string =>
    pick([
      "a",
      "b",
      "f",
      "s",
      "e",
      "t",
      "xs",
      "m.k",
      "m[k]",
      "us[0].n",
      "missing",
      "1",
      "2.5",
      "-3",
      "'str'",
      "true",
      "[1, 2]",
      d > 0 ? `(${num(d - 1)})` : "0",
    ]);
  const num = (d: number): string =>
    d <= 0
      ? atom(0)
      : pick([atom(d), `${num(d - 1)} ${pick(["+", "-", "*", "/", "%"])} ${atom(d - 1)}`]);
  const filt = (): string =>
    pick([
      "",
      " | upper",
      " | length",
      " | default(value='d')",
      " | json_encode",
      " | first",
      " | join(sep=',')",
      " | reverse",
      " | round",
      " | as_str",
      " | int",
      " | trim",
      " | sort",
      " | replace(from='e', to='E')",
    ]);
  const expr = (d: number): string =>
    pick([
      `${num(d)}${filt()}`,
      `${atom(d)} ${pick(["==", "!=", "<", ">=", "<="])} ${atom(d)}`,
      `${atom(d)} ${pick(["and", "or"])} ${atom(d)}`,
      `not ${atom(d)}`,
      `${atom(d)} ${pick(["in", "not in"])} ${pick(["xs", "s", "m", "[1, 'a']"])}`,
      `${pick(["a", "s", "missing", "xs"])} is ${
        pick(["defined", "undefined", "string", "number", "odd", "iterable"])
      }`,
      `${atom(d)} ~ ${atom(d)}`,
    ]);
  const ws = () => pick(["", "", "-"]);
  const node = (d: number): string =>
    pick([
      "text ",
      " \n ",
      `{{${ws()} ${expr(d)} ${ws()}}}`,
      `{%${ws()} if ${expr(d)} ${ws()}%}${body(d - 1)}{% else %}${body(d - 1)}{%${ws()} endif %}`,
      `{% for x in ${pick(["xs", "ss", "s", "us", "range(end=3)", "[1, 2]"])} %}${
        body(d - 1)
      }{{ loop.index }}{%${ws()} endfor ${ws()}%}`,
      `{% for k2, v in m %}{{ k2 }}={{ v }}${body(d - 1)}{% endfor %}`,
      `{% set y = ${expr(d)} %}{{ y }}`,
      `{# c ${ws()}#}`,
    ]);
  const body = (d: number): string => {
    if (d <= 0) return "z";
    let out = "";
    const n = 1 + Math.floor(rnd() * 3);
    for (let i = 0; i < n; i++) out += node(d);
    return out;
  };
  return body(3);
}

const bin = oraclePath();

Deno.test({
  name: "tera oracle: 300 random templates agree",
  ignore: bin === null && !oracleRequired(),
  async fn() {
    if (bin === null) throw new Error("CI=true but TERA_ORACLE is not set");
    const rnd = prng(20240527);
    const cases: Case[] = [];
    for (let i = 0; i < 300; i++) cases.push({ template: generate(rnd), context: CONTEXT });
    const oracle = await runOracle(bin, cases);
    const env = new TemplateEnvironment();
    const failures: string[] = [];
    let ok = 0;
    cases.forEach((c, i) => {
      const o = oracle[i];
      const u = runOurs(env, c);
      if ("ok" in o) ok++;
      const agree = ("ok" in o && "ok" in u && o.ok === u.ok) || ("error" in o && "error" in u);
      if (!agree || ("error" in u && u.error.startsWith("NON-TEMPLATE"))) {
        failures.push(
          `${JSON.stringify(c.template)}\n  tera: ${JSON.stringify(o)}\n  ours: ${
            JSON.stringify(u)
          }`,
        );
      }
    });
    if (ok < 60) throw new Error(`generator too weak: only ${ok}/300 templates render in Tera`);
    if (failures.length) {
      throw new Error(`${failures.length} disagreements:\n${failures.join("\n")}`);
    }
  },
});
