/**
 * Renders/second of every built-in Tera filter (plus a filter-heavy template): our engine vs the
 * real Rust Tera 1.17 (bench/tera_peer, built offline from Debian's crate sources), same cases,
 * same run. Prints a table: case, ours renders/s, Rust renders/s, ratio (ours / Rust). Also checks
 * that both engines produce output of the same byte length (a mismatch is flagged `!len`).
 *
 * Both engines run interleaved case by case (the peer is one long-lived process), `--rounds`
 * times (default 3); the table shows medians. The machine is shared, so compare ratios, not
 * absolute numbers.
 *
 * Run: node_modules/.bin/deno run -A bench/template_filters_bench.ts [--ms=300] [--rounds=3]
 * [--only=a,b] (`TERA_PEER=<binary>` skips the build step). `abs` and `indent` are not in Tera 1.17 (the
 * peer), so they have no case. `slugify` and the filter-heavy template are flagged `!len` by
 * design: Tera transliterates CJK and emoji with `deunicode`, we approximate (DIFFERENCES.md).
 * On a loaded machine GC-heavy cases (`json_encode`) lose more than the peer: compare ratios of
 * quiet runs, or run a case alone with `--only`.
 */
import { parseJsonPreservingFloats, TemplateEnvironment } from "../lib/template/mod.ts";

interface Case {
  name: string;
  template: string;
  context: Record<string, unknown>;
}

// ---- deterministic input data -------------------------------------------------------------

let seed = 42;
function rand(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}
function pick<T>(xs: T[]): T {
  return xs[Math.floor(rand() * xs.length)];
}

const WORDS = [
  "the",
  "graph",
  "engine",
  "Renders",
  "template",
  "resource",
  "network",
  "zone",
  "provider",
  "café",
  "naïve",
  "über",
  "Straße",
  "data-center",
  "eu_west_1",
  "v2.3",
  "load",
  "balancer",
  "(primary)",
  "a&b",
  "<tag>",
  "'quoted'",
  '"double"',
  "path/to/file",
  "x=1;y=2",
  "日本語",
  "emoji👍🏽",
  "e\u0301",
];
const SEPS = [" ", " ", " ", " ", "  ", "\t", "\n", ", ", ". "];

function text(chars: number): string {
  let s = "";
  while (s.length < chars) s += pick(WORDS) + pick(SEPS);
  return s;
}

function html(chars: number): string {
  let s = "";
  while (s.length < chars) {
    s += `<div class="row">\n  <p>${text(60)}</p>  <!-- note ${pick(WORDS)} -->\n</div>\n`;
  }
  return s;
}

const TEXT = "  \n " + text(2000) + " \t\n ";
const SHORT = text(300);
const HTML = html(2000);
const STRS = Array.from({ length: 500 }, (_, i) => `${pick(WORDS)}-${i % 97}`);
const STRS2 = Array.from({ length: 200 }, (_, i) => `other-${i}`);
const INTS = Array.from({ length: 500 }, (_, i) => (i * 7919) % 100003);
// exact binary fractions: the peer parses JSON with serde_json, whose default float parser
// rounds some long decimal literals differently (the two engines would see other numbers)
const FLOATS = Array.from({ length: 500 }, (_, i) => i * 1.375 + 0.0078125);
const NUMSTRS = Array.from({ length: 500 }, (_, i) => String((i * 7919) % 100003));
const FLOATSTRS = Array.from({ length: 500 }, (_, i) => (i * 1.37 + 0.25).toFixed(3));
const BIOS = Array.from({ length: 200 }, () => text(250));
const USERS = Array.from({ length: 300 }, (_, i) => ({
  name: `${pick(WORDS)} ${pick(WORDS)}`,
  email: `user.${i}+tag@example.com`,
  age: 18 + (i * 13) % 60,
  group: `g${i % 12}`,
  score: Math.round(i * 3.7 * 100) / 100 + 0.5,
  tags: [pick(WORDS), pick(WORDS), pick(WORDS)],
  bio: text(200),
}));
const MAP = Object.fromEntries(STRS.slice(0, 200).map((k, i) => [k, i]));
const KEYS = STRS.slice(0, 200);
const TIMESTAMPS = Array.from({ length: 200 }, (_, i) => 1_600_000_000 + i * 86_413);

const CTX = {
  text: TEXT,
  short: SHORT,
  html: HTML,
  strs: STRS,
  strs2: STRS2,
  ints: INTS,
  floats: FLOATS,
  numstrs: NUMSTRS,
  floatstrs: FLOATSTRS,
  bios: BIOS,
  users: USERS,
  m: MAP,
  keys: KEYS,
  ts: TIMESTAMPS,
  lines: Array.from({ length: 100 }, (_, i) => `  line ${i}  ${pick(WORDS)}  \n`),
};

// ---- the cases ----------------------------------------------------------------------------

const loop = (list: string, body: string) => `{% for x in ${list} %}${body}{% endfor %}`;

/** One case per built-in filter of Tera 1.17; strings ~2k chars, arrays 100–500 items. */
const FILTER_CASES: [string, string][] = [
  ["upper", "{{ text | upper }}"],
  ["lower", "{{ text | lower }}"],
  ["trim", loop("lines", "{{ x | trim }}")],
  ["trim_start", loop("lines", "{{ x | trim_start }}")],
  ["trim_end", loop("lines", "{{ x | trim_end }}")],
  ["trim_start_matches", loop("strs", '{{ x | trim_start_matches(pat="th") }}')],
  ["trim_end_matches", loop("strs", '{{ x | trim_end_matches(pat="1") }}')],
  ["truncate", loop("bios", "{{ x | truncate(length=40) }}")],
  ["wordcount", "{{ text | wordcount }}" + loop("bios", "{{ x | wordcount }}")],
  ["replace", '{{ text | replace(from="the", to="THE") }}'],
  ["capitalize", loop("bios", "{{ x | capitalize }}")],
  ["title", "{{ text | title }}"],
  ["linebreaksbr", "{{ text | linebreaksbr }}"],
  ["striptags", "{{ html | striptags }}"],
  ["spaceless", "{{ html | spaceless }}"],
  ["urlencode", "{{ text | urlencode }}"],
  ["urlencode_strict", "{{ text | urlencode_strict }}"],
  ["escape", "{{ text | escape }}"],
  ["escape_xml", "{{ text | escape_xml }}"],
  ["slugify", "{{ text | slugify }}"],
  ["addslashes", "{{ text | addslashes }}"],
  ["split", '{{ text | split(pat=" ") | length }}'],
  ["int", loop("numstrs", "{{ x | int }}")],
  ["float", loop("floatstrs", "{{ x | float }}")],
  ["first", loop("users", "{{ x.tags | first }}")],
  ["last", loop("users", "{{ x.tags | last }}")],
  ["nth", loop("users", "{{ x.tags | nth(n=1) }}")],
  ["join", '{{ strs | join(sep=", ") }}'],
  ["sort", "{{ strs | sort | first }}{{ ints | sort | last }}"],
  ["unique", "{{ strs | unique | length }}"],
  ["slice", loop("users", "{{ x.tags | slice(start=1) | length }}")],
  [
    "group_by",
    '{% for k, v in users | group_by(attribute="group") %}{{ k }}={{ v | length }} {% endfor %}',
  ],
  ["filter", '{{ users | filter(attribute="group", value="g3") | length }}'],
  ["map", '{{ users | map(attribute="name") | length }}'],
  ["concat", "{{ strs | concat(with=strs2) | length }}"],
  ["pluralize", loop("ints", "{{ x | pluralize }}")],
  ["round", loop("floats", "{{ x | round(precision=2) }}")],
  ["filesizeformat", loop("ints", "{{ x | filesizeformat }}")],
  ["length", "{{ text | length }}" + loop("bios", "{{ x | length }}")],
  ["reverse", "{{ text | reverse }}{{ strs | reverse | first }}"],
  ["date", loop("ts", '{{ x | date(format="%Y-%m-%d %H:%M") }}')],
  ["json_encode", "{{ users | json_encode }}"],
  ["as_str", loop("floats", "{{ x | as_str }}")],
  ["get", loop("keys", "{{ m | get(key=x) }}")],
];

const HEAVY =
  `{% for u in users %}{{ u.name | title | truncate(length=12) }} <{{ u.email | lower | urlencode }}>
 {{ u.bio | wordcount }} words, {{ u.bio | truncate(length=60, end="...") | escape }}
 score {{ u.score | round(precision=1) }} age {{ u.age }} {{ u.tags | join(sep="/") | upper }}
 {{ u.name | slugify }} {{ u.bio | length }} {{ u.tags | length | pluralize(singular="tag", plural="tags") }}
{% endfor %}{{ users | map(attribute="group") | unique | sort | join(sep=",") }}`;

const CASES: Case[] = [
  ...FILTER_CASES.map(([name, template]) => ({ name, template, context: CTX })),
  { name: "filter-heavy template", template: HEAVY, context: CTX },
];

// ---- running ------------------------------------------------------------------------------

const args = Object.fromEntries(
  Deno.args.filter((a) => a.startsWith("--")).map((a) => a.slice(2).split("=") as [string, string]),
);
const ms = Number(args.ms ?? 300);
const rounds = Number(args.rounds ?? 3);
const only = args.only ? new Set(args.only.split(",")) : null;
const cases = CASES.filter((c) => only === null || only.has(c.name));

async function peerPath(): Promise<string> {
  const env = Deno.env.get("TERA_PEER");
  if (env) return env;
  const script = new URL("./tera_peer/build.sh", import.meta.url).pathname;
  const out = await new Deno.Command("bash", { args: [script], stderr: "inherit" }).output();
  if (!out.success) throw new Error("building bench/tera_peer failed");
  return new TextDecoder().decode(out.stdout).trim().split("\n").pop()!;
}

interface PeerResult {
  name: string;
  renders_per_s?: number;
  output_len?: number;
  error?: string;
}

/** A long-lived peer process: one case in, one answer out, so both engines run interleaved. */
class Peer {
  private child: Deno.ChildProcess;
  private writer: WritableStreamDefaultWriter<Uint8Array>;
  private lines: AsyncIterator<string>;
  constructor(bin: string) {
    this.child = new Deno.Command(bin, { stdin: "piped", stdout: "piped" }).spawn();
    this.writer = this.child.stdin.getWriter();
    this.lines = this.child.stdout.pipeThrough(new TextDecoderStream()).pipeThrough(
      new TransformStream<string, string>(
        {
          buffer: "",
          transform(chunk, ctl) {
            const parts = (this.buffer + chunk).split("\n");
            this.buffer = parts.pop()!;
            for (const l of parts) if (l.trim()) ctl.enqueue(l);
          },
        } as Transformer<string, string> & { buffer: string },
      ),
    )[Symbol.asyncIterator]();
  }
  async run(c: Case, iterations: number): Promise<PeerResult> {
    const line = JSON.stringify({
      name: c.name,
      template: c.template,
      context: c.context,
      iterations,
    });
    await this.writer.write(new TextEncoder().encode(line + "\n"));
    const next = await this.lines.next();
    return JSON.parse(next.value) as PeerResult;
  }
  async close(): Promise<void> {
    await this.writer.close();
    await this.child.status;
  }
}

function measureOurs(render: () => string): number {
  const warm = performance.now();
  while (performance.now() - warm < ms / 5) render();
  let n = 0;
  let batch = 1;
  const start = performance.now();
  while (performance.now() - start < ms) {
    for (let i = 0; i < batch; i++) render();
    n += batch;
    batch = Math.min(batch * 2, 64);
  }
  return n / ((performance.now() - start) / 1000);
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

const peer = new Peer(await peerPath());
const env = new TemplateEnvironment();
const encoder = new TextEncoder();
const results = cases.map(() => ({
  ours: [] as number[],
  rust: [] as number[],
  ratio: [] as number[],
  flag: "",
}));
for (let round = 0; round < rounds; round++) {
  for (const [i, c] of cases.entries()) {
    const ctx = parseJsonPreservingFloats(JSON.stringify(c.context)) as Record<string, unknown>;
    const tpl = env.compile(c.template, c.name);
    const out = tpl.render(ctx);
    // calibrate the peer's iterations so that it too runs about `ms`, then measure both
    const calib = await peer.run(c, 20);
    const p = calib.error ? calib : await peer.run(
      c,
      Math.max(20, Math.round((calib.renders_per_s ?? 0) * ms / 1000)),
    );
    const ours = measureOurs(() => tpl.render(ctx));
    const r = results[i];
    if (p.error !== undefined || p.renders_per_s === undefined) {
      r.flag = ` error: ${p.error}`;
      continue;
    }
    if (encoder.encode(out).length !== p.output_len) r.flag = " !len";
    r.ours.push(ours);
    r.rust.push(p.renders_per_s);
    r.ratio.push(ours / p.renders_per_s);
  }
}
await peer.close();

console.log(`| case | ours (renders/s) | Rust Tera (renders/s) | ratio (median of ${rounds}) |`);
console.log("|---|---:|---:|---:|");
for (const [i, c] of cases.entries()) {
  const r = results[i];
  if (r.ratio.length === 0) {
    console.log(`| ${c.name} | - | -${r.flag} | - |`);
    continue;
  }
  console.log(
    `| ${c.name} | ${Math.round(median(r.ours))} | ${Math.round(median(r.rust))} | ${
      median(r.ratio).toFixed(2)
    }x${r.flag} |`,
  );
}
