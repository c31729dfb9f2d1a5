/**
 * Jsonnet engine timings vs the reference binary (/usr/bin/jsonnet, when installed):
 * (1) a realistic 50-line zone-file output rule (corpus style) evaluated 1000 times,
 * (2) deep non-tail recursion and a long tailstrict loop, (3) manifesting a 10k-element array.
 * The binary is timed per process (startup included), which is how a CLI-based host would pay.
 * Run: node_modules/.bin/deno run --allow-run --allow-read --allow-write bench/jsonnet_bench.ts
 */
import { JsonnetVM } from "../lib/jsonnet/mod.ts";
import type { JsonValue } from "../lib/jsonnet/mod.ts";

const ZONE = `local origin = std.extVar("origin_resource");
local domain = origin.name;
local absolute(d) = if std.endsWith(d, ".") then d else d + ".";
local fqdn(d) =
  if std.endsWith(d, ".") then d
  else if d == "@" || d == "" then domain + "."
  else if d == domain then d + "."
  else if std.endsWith(d, "." + domain) then d + "."
  else d + "." + domain + ".";
local to_relative(f) =
  if f == domain + "." then "@"
  else if std.endsWith(f, "." + domain + ".")
  then std.substr(f, 0, std.length(f) - std.length("." + domain + "."))
  else f;
local rel_name(d) = if d == "@" || d == "" then "@" else to_relative(fqdn(d));
local rel_value(d) = to_relative(absolute(d));
local formatRecord(name, ttl, type, value) =
  local t = std.toString(ttl);
  local safeTtl = if ttl == null || t == "" || t == "1" || t == "3600" then "" else t;
  std.format("%-30s %-7s IN %-7s %s", [rel_name(name), safeTtl, type, value]);
local enabled(r) = std.toString(std.get(r, "disabled", false)) != "true";
local recs(kind, type, value) = [
  formatRecord(std.get(r, "original_name", r.name), std.get(r, "ttl", "3600"), type, value(r))
  for r in std.get(origin, kind, [])
  if enabled(r)
];
local records =
  recs("has_a_record", "A", function(r) r.address)
  + recs("has_aaaa_record", "AAAA", function(r) r.address)
  + recs("has_cname_record", "CNAME", function(r) rel_value(r.canonical))
  + recs("has_txt_record", "TXT", function(r) r.text)
  + recs("has_mx_record", "MX",
         function(r) std.toString(r.priority) + " " + rel_value(r.mail_exchanger))
  + recs("has_srv_record", "SRV", function(r) std.join(" ", [
      std.toString(r.priority), std.toString(r.weight), std.toString(r.port), rel_value(r.target),
    ]));
local raw_vns = std.get(origin, "vanity_name_server", []);
local vanity_ns =
  if std.type(raw_vns) == "string"
  then (if std.length(raw_vns) > 0 then std.split(raw_vns, ",") else [])
  else raw_vns;
local clean_ns = [std.stripChars(ns, " ") for ns in vanity_ns if std.stripChars(ns, " ") != ""];
local ns_recs =
  if std.length(clean_ns) > 0 then [std.format("@ IN NS %s", [absolute(ns)]) for ns in clean_ns]
  else ["@ IN NS ns3.example.ch.", "@ IN NS ns4.example.ch."];
local soa_primary = if std.length(clean_ns) > 0 then absolute(clean_ns[0]) else "ns3.example.ch.";
local soa = std.format("@ IN SOA %s hostmaster.%s ( 2026030401 7200 3600 1209600 3600 )",
                       [soa_primary, absolute(domain)]);
std.join("\\n", ["; Zone file for " + domain, "$TTL 3600", soa] + ns_recs + records) + "\\n"
`;

const origin: JsonValue = {
  name: "example.com",
  vanity_name_server: "ns1.example.net, ns2.example.net",
  has_a_record: Array.from({ length: 20 }, (_, i) => ({
    name: `host${i}.example.com`,
    address: `10.0.0.${i}`,
    ttl: i % 3 === 0 ? 300 : 3600,
  })),
  has_aaaa_record: [{ name: "@", address: "2001:db8::1" }],
  has_cname_record: Array.from({ length: 10 }, (_, i) => ({
    name: `alias${i}`,
    canonical: `host${i}.example.com`,
  })),
  has_txt_record: [{ name: "@", text: '"v=spf1 -all"', disabled: false }],
  has_mx_record: [{ name: "@", priority: 10, mail_exchanger: "mx.example.com" }],
  has_srv_record: [{
    name: "_sip._tcp",
    priority: 10,
    weight: 5,
    port: 5060,
    target: "sip.example.com",
  }],
};

const DEEP = "local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(450)";
const LOOP = "local f(n, acc) = if n == 0 then acc else f(n - 1, acc + n) tailstrict; f(100000, 0)";
const ARRAY =
  "[{ id: i, name: 'item-' + i, tags: ['a', 'b'], ok: i % 2 == 0 } for i in std.range(1, 10000)]";

const BIN = "/usr/bin/jsonnet";
const hasBinary = (() => {
  try {
    return Deno.statSync(BIN).isFile;
  } catch {
    return false;
  }
})();

function timeOurs(label: string, runs: number, f: () => string): { ms: number; out: string } {
  let out = f(); // warm-up (parse cache, JIT)
  for (let i = 0; i < Math.min(20, runs); i++) out = f();
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) out = f();
  const ms = (performance.now() - t0) / runs;
  console.log(`${label.padEnd(34)} ours   ${ms.toFixed(3).padStart(9)} ms/eval  (${runs} runs)`);
  return { ms, out };
}

function timeBinary(label: string, runs: number, src: string, args: string[]): string | undefined {
  if (!hasBinary) {
    console.log(`${label.padEnd(34)} binary (not installed)`);
    return undefined;
  }
  const file = Deno.makeTempFileSync({ suffix: ".jsonnet" });
  Deno.writeTextFileSync(file, src);
  let out = "";
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) {
    const r = new Deno.Command(BIN, { args: [...args, file], stdout: "piped", stderr: "piped" })
      .outputSync();
    out = new TextDecoder().decode(r.success ? r.stdout : r.stderr);
  }
  const ms = (performance.now() - t0) / runs;
  Deno.removeSync(file);
  console.log(`${label.padEnd(34)} binary ${ms.toFixed(3).padStart(9)} ms/eval  (${runs} runs)`);
  return out;
}

const zoneVm = new JsonnetVM({ extVars: { origin_resource: origin } });
const zone = timeOurs(
  "zone file (50 lines, 1000x)",
  1000,
  () => zoneVm.evaluateToString(ZONE, "zone.jsonnet", true),
);
const zoneRef = timeBinary("zone file (50 lines)", 20, ZONE, [
  "-S",
  "--ext-code",
  `origin_resource=${JSON.stringify(origin)}`,
]);
if (zoneRef !== undefined && zoneRef !== zone.out) console.log("  !! output differs from binary");

const vm = new JsonnetVM();
for (
  const [label, src, runs] of [
    ["deep recursion (450 frames)", DEEP, 200],
    ["tailstrict loop (100k calls)", LOOP, 10],
    ["10k-element array manifest", ARRAY, 10],
  ] as const
) {
  const ours = timeOurs(label, runs, () => vm.evaluateToString(src, "bench.jsonnet"));
  const ref = timeBinary(label, Math.min(runs, 5), src, []);
  if (ref !== undefined && ref !== ours.out) console.log("  !! output differs from binary");
}
