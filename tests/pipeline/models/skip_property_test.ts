/**
 * Property test of rule skipping: random small workspaces with random model files — creates,
 * joins, copies, traversal through relations, and rules that overwrite each other's output —
 * build the same graph, the same errors and the same number of passes with and without
 * skipping unchanged rules. Deterministic seeds; a failure prints the seed and the files.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { buildModels, errors } from "./_support.ts";

/** Small deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ASSET_TYPES = ["app", "host", "net"];
const NEW_TYPES = ["vm", "disk"];
const FIELDS = ["p", "q", "r"];

function workspace(seed: number): Record<string, string> {
  const rand = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const files: Record<string, string> = {};
  // assets: a few rows each; app rows name a host (convention relation)
  files["assets/app.csv"] = "name,p,q,host\n" +
    [0, 1, 2].map((i) => `a${i},${pick(["x", "y"])},${i},h${i % 2}`).join("\n") + "\n";
  files["assets/host.csv"] = "name,p,q\n" +
    [0, 1].map((i) => `h${i},${pick(["x", "y"])},${i}`).join("\n") + "\n";
  files["assets/net.csv"] = "name,p,q\nn0,x,0\nn1,y,1\n";
  const ruleCount = 2 + Math.floor(rand() * 5);
  for (let i = 0; i < ruleCount; i++) {
    const origin = pick([...ASSET_TYPES, ...NEW_TYPES]);
    const field = pick(FIELDS);
    const value = pick([
      `{{ origin_resource.${pick(FIELDS)} | default(value='-') }}`,
      `v${i}`,
      `{% for x in origin_resource.${
        pick([...ASSET_TYPES, ...NEW_TYPES])
      } | default(value=[]) %}{{ x.${pick(FIELDS)} | default(value='') }}{% endfor %}`,
    ]);
    let rule: string;
    switch (pick(["create", "create", "link", "copy"])) {
      case "create": {
        const type = pick(NEW_TYPES);
        const rel = rand() < 0.6 ? `relation_type = "${type.toUpperCase()}_OF"\n` : "";
        const name = pick([
          "{{ origin_resource.name }}",
          `${type}-{{ origin_resource.p | default(value='z') }}`,
        ]);
        rule = `[[create_resource]]\nresource_type = "${type}"\nname = "${name}"\n${rel}` +
          `[create_resource.properties]\n${field} = "${value}"\n`;
        break;
      }
      case "link": {
        const other = pick(ASSET_TYPES.concat(NEW_TYPES).filter((t) => t !== origin));
        const rel = rand() < 0.5 ? `create_relation = { type = "LINKED" }\n` : "";
        rule = `[[link_resources]]\nwith = "${other}"\njoin = { local = "${
          pick(FIELDS)
        }", remote = "${pick(FIELDS)}" }\n${rel}copy_properties = [ { from = "${
          pick(FIELDS)
        }", as = "${pick(FIELDS)}" } ]\n`;
        break;
      }
      default: {
        const to = pick([...ASSET_TYPES, ...NEW_TYPES]);
        rule = `[[copy_property]]\nto = "${to}"\nproperties = [ { from = "${pick(FIELDS)}", as = "${
          pick(FIELDS)
        }" } ]\n`;
      }
    }
    files[`models/m${Math.floor(rand() * 3)}_${i}.toml`] =
      `origin_resource = "${origin}"\n\n${rule}`;
  }
  return files;
}

Deno.test("O11 skip (property): random rule sets build the same with and without skipping", async () => {
  let skippedTotal = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const files = workspace(seed);
    const fast = await buildModels(files, { maxLoop: 12 });
    const full = await buildModels(files, { maxLoop: 12, rerunUnchangedRules: true });
    const context = `seed ${seed}\n${
      Object.entries(files).filter(([k]) => k.startsWith("models/")).map(([k, v]) => `# ${k}\n${v}`)
        .join("\n")
    }`;
    assertEquals(JSON.stringify(fast.graph.toJSON()), JSON.stringify(full.graph.toJSON()), context);
    assertEquals(errors(fast), errors(full), context);
    assertEquals([fast.passes, fast.converged], [full.passes, full.converged], context);
    skippedTotal += fast.skippedPerPass.reduce((a, b) => a + b, 0);
  }
  // the property is only meaningful if skipping actually happens in many cases
  if (skippedTotal < 100) throw new Error(`only ${skippedTotal} rules skipped over 300 seeds`);
});
