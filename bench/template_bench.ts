/**
 * Renders/second of our Tera engine vs nunjucks on (1) a 100-item loop and (2) a realistic
 * corpus-style model template. Run: node_modules/.bin/deno run -A bench/template_bench.ts
 */
import nunjucks from "nunjucks";
import { TemplateEnvironment } from "../lib/template/mod.ts";

const items = Array.from(
  { length: 100 },
  (_, i) => ({ name: `item${i}`, size: i * 3, tags: ["a", "b"] }),
);
const LOOP_TERA =
  "{% for it in items %}{{ loop.index }}:{{ it.name | upper }}={{ it.size + 1 }}{% if not loop.last %},{% endif %}{% endfor %}";
const LOOP_NJK =
  "{% for it in items %}{{ loop.index }}:{{ it.name | upper }}={{ it.size + 1 }}{% if not loop.last %},{% endif %}{% endfor %}";

const origin = {
  name: "zone-example-com",
  provider: [{ name: "cloudflare", account: "acc-1" }],
  vanity_name_server: "ns1.example.net, ns2.example.net",
  records: [{ type: "A", value: "10.0.0.1" }, { type: "AAAA", value: "::1" }],
};
const vanity = {
  "ns1.example.net": { provider: "cloudflare" },
  "ns2.example.net": { provider: "self-hosted" },
};
const REAL_TERA = `{%- set ns_list = origin_resource.vanity_name_server | split(pat=",") -%}
{%- set_global providers = [] -%}
{%- for ns in ns_list -%}
  {%- set n = ns | trim -%}
  {%- set p = vanity[n].provider | default(value="self-hosted") -%}
  {%- if p not in providers -%}{%- set_global providers = providers | concat(with=p) -%}{%- endif -%}
{%- endfor -%}
{{ origin_resource.name | replace(from="-", to=".") }} {{ origin_resource.provider[0].name | capitalize }}
{%- for r in origin_resource.records %} {{ r.type | lower }}={{ r.value }}{% endfor %} {{ providers | json_encode }} {{ providers | length > 1 }}`;
const REAL_NJK = `{%- set ns_list = origin_resource.vanity_name_server.split(",") -%}
{%- set providers = [] -%}
{%- for ns in ns_list -%}
  {%- set n = ns | trim -%}
  {%- set p = (vanity[n].provider if vanity[n] else "self-hosted") -%}
  {%- if not (p in providers) -%}{%- set providers = (providers.push(p), providers) -%}{%- endif -%}
{%- endfor -%}
{{ origin_resource.name | replace("-", ".") }} {{ origin_resource.provider[0].name | capitalize }}
{%- for r in origin_resource.records %} {{ r.type | lower }}={{ r.value }}{% endfor %} {{ providers | dump }} {{ providers | length > 1 }}`;

function measure(fn: () => string, ms = 1500): number {
  for (let i = 0; i < 200; i++) fn();
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < ms) {
    for (let i = 0; i < 50; i++) fn();
    n += 50;
  }
  return n / ((performance.now() - start) / 1000);
}

const env = new TemplateEnvironment();
const njk = new nunjucks.Environment(null, { autoescape: false });
const loopT = env.compile(LOOP_TERA, "loop");
const loopN = nunjucks.compile(LOOP_NJK, njk);
const realT = env.compile(REAL_TERA, "real");
const realN = nunjucks.compile(REAL_NJK, njk);
const realCtx = { origin_resource: origin, vanity };

const rows = [
  ["100-item loop", measure(() => loopT.render({ items })), measure(() => loopN.render({ items }))],
  [
    "corpus-style model",
    measure(() => realT.render(realCtx)),
    measure(() => realN.render(realCtx)),
  ],
] as const;
console.log("| template | ours (renders/s) | nunjucks (renders/s) | ratio |");
console.log("|---|---:|---:|---:|");
for (const [name, a, b] of rows) {
  console.log(`| ${name} | ${Math.round(a)} | ${Math.round(b)} | ${(a / b).toFixed(2)}x |`);
}
