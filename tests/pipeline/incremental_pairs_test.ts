/**
 * Model (rule, origin) pairs kept across builds (issue 25 §2, lib/pipeline/models/pair_memo.ts;
 * M1, M30–M44 for the rules used): after a change of fields rules read, a `rules` build
 * evaluates only the pairs whose reads changed and replays the others; every result equals a
 * full build — ids, order, issues, provenance and artifacts (`dump`).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { buildGraph } from "../../lib/pipeline/build.ts";
import { IncrementalBuilder } from "../../lib/pipeline/incremental/builder.ts";
import { dump, memorySources, OPTIONS } from "./_incremental.ts";
import fc from "fast-check";

// A profile per host from env/tier, a link to the host's envgroup (by a join, only groups of
// zone z1), copies onto the profile and onto the linked envgroup (many hosts overwrite one
// group's value: M80 warnings), and a second chunk whose pairs read what the first wrote:
// every envgroup links the profiles labelled with its name (a global read of profile.env_label).
const RULES = {
  "models/profile.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "profile"
name = "profile-{{ origin_resource.name }}"
relation_type = "HAS_PROFILE"
[create_resource.properties]
label = "{{ origin_resource.env }}/{{ origin_resource.tier }}"
env_label = "{{ origin_resource.env }}"

[[link_resources]]
with = "envgroup"
join = { local = "env", remote = "name" }
match_with = { property = "zone", value = "z1" }
create_relation = { type = "IN_ENV" }
`,
  "models/copy.toml": `origin_resource = "host"
[[copy_property]]
to = "profile"
properties = [ "tier", { from = "env", as = "env_copy" } ]

[[copy_property]]
to = "envgroup"
properties = [ { from = "tier", as = "last_tier" } ]
`,
  "models/group.toml": `origin_resource = "envgroup"
[[link_resources]]
with = "profile"
join = { local = "name", remote = "env_label" }
create_relation = { type = "GROUPS" }
`,
  "output/host.toml": `origin_resource = "host"
[[output]]
resource_type = "host_card"
name = "card-{{ origin_resource.name }}"
mimetype = "text/plain"
template = "{{ origin_resource.name }} {{ origin_resource.env }} {{ origin_resource.tier }}"
`,
};

const ENVS = ["e0", "e1", "e2", "e3"];

function hostsCsv(envs: string[], tiers: string[]): string {
  return "name,env,tier\n" + envs.map((e, i) => `h${i},${e},${tiers[i]}\n`).join("");
}

function groupsCsv(zones: string[]): string {
  return "name,zone\n" + ENVS.map((e, i) => `${e},${zones[i]}\n`).join("");
}

function files(envs: string[], tiers: string[], zones: string[]): Record<string, string> {
  return {
    ...RULES,
    "assets/host.csv": hostsCsv(envs, tiers),
    "assets/envgroup.csv": groupsCsv(zones),
  };
}

function step(builder: IncrementalBuilder, f: Record<string, string>) {
  const sources = memorySources(f);
  const inc = builder.build(sources, OPTIONS);
  assertEquals(dump(inc.result), dump(buildGraph(sources, OPTIONS)), inc.reason);
  return inc;
}

Deno.test("issue 25 a field rules read: only the changed host's pairs are evaluated; equal to a full build", () => {
  const envs = Array.from({ length: 12 }, (_, i) => ENVS[i % 4]);
  const tiers = envs.map((_, i) => `t${i % 3}`);
  const zones = ["z1", "z1", "z2", "z1"];
  const builder = new IncrementalBuilder();
  assertEquals(step(builder, files(envs, tiers, zones)).mode, "full");
  // h5's tier: its profile pair and both copy pairs (of 4 × 12 host pairs + 4 envgroup pairs; the
  // link does not read the tier).
  tiers[5] = "t9";
  const tier = step(builder, files(envs, tiers, zones));
  assertEquals(tier.mode, "rules");
  ok(/: 3 of 52 model \(rule, origin\) pair\(s\) evaluated/.test(tier.reason), tier.reason);
  // h5's env: its four pairs (the second copy reads no env, but h5's relations changed), and every
  // envgroup pair (they read profile.env_label, now written differently).
  envs[5] = "e3";
  const env = step(builder, files(envs, tiers, zones));
  assertEquals(env.mode, "rules");
  ok(/: 8 of 52 /.test(env.reason), env.reason);
  // A zone: the 12 host pairs of the link (they read envgroup.zone), and both copy pairs of the
  // three hosts that the link now relates to e2 (copy_property reads the origin's relations).
  zones[2] = "z1";
  const zone = step(builder, files(envs, tiers, zones));
  assertEquals(zone.mode, "rules");
  ok(/: 18 of 52 /.test(zone.reason), zone.reason);
  // A key: every field of host counts as changed. The renamed host's four pairs are new, the
  // other hosts' pairs read only their own fields and relations (unchanged) or envgroup (not
  // dirty): replayed; every envgroup pair reads which profiles exist, and one is gone.
  const renamed = files(envs, tiers, zones);
  renamed["assets/host.csv"] = renamed["assets/host.csv"].replace("\nh5,", "\nh5b,");
  const key = step(builder, renamed);
  assertEquals(key.mode, "rules");
  ok(/more than properties changed\): 8 of 52 /.test(key.reason), key.reason);
});

Deno.test("issue 25 random edits of fields rules read: every rules build equals a full build", () => {
  const edit = fc.record({
    host: fc.nat(7),
    env: fc.constantFrom(...ENVS, "e9"),
    tier: fc.constantFrom("t0", "t1", "t2"),
    group: fc.nat(3),
    zone: fc.constantFrom("z1", "z2"),
  });
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
      const envs = Array.from({ length: 8 }, (_, i) => ENVS[i % 4]);
      const tiers = envs.map(() => "t0");
      const zones = ["z1", "z2", "z1", "z2"];
      const builder = new IncrementalBuilder();
      step(builder, files(envs, tiers, zones));
      for (const e of edits) {
        envs[e.host] = e.env;
        tiers[e.host] = e.tier;
        zones[e.group] = e.zone;
        step(builder, files(envs, tiers, zones));
      }
    }),
    { numRuns: 60 },
  );
});

// Rows as (name, env, tier, envgroup relation cell); a typed `tier` column (module.toml) so that
// an edit can make a row invalid (its value reported, the row loaded without it).
interface HostRow {
  name: string;
  env: string;
  tier: string;
  group: string;
}

const TYPED = `[assets."host.csv".columns]
tier = "integer"
`;

// Template reads through relations the asset phase makes (host.envgroup cells), both ways: a
// badge per host naming its group's zone, a roster per group naming its hosts, and a link from
// each group to its hosts copying what the hosts' relation field names (another type's).
const RELATION_RULES = {
  "models/badge.toml": `origin_resource = "host"
[[create_resource]]
resource_type = "badge"
name = "badge-{{ origin_resource.name }}"
[create_resource.properties]
grp = "{% for g in origin_resource.envgroup %}{{ g.name }}/{{ g.zone }} {% endfor %}"
`,
  "models/roster.toml": `origin_resource = "envgroup"
[[create_resource]]
resource_type = "roster"
name = "roster-{{ origin_resource.name }}"
[create_resource.properties]
hosts = "{% for h in origin_resource.host %}{{ h.name }} {% endfor %}"

[[link_resources]]
with = "host"
join = { local = "name", remote = "env" }
create_relation = { type = "SERVES" }
copy_properties = [
  { template = "{% for g in target_resource.envgroup %}{{ g.name }}{% endfor %}", as = "served_groups" },
]
`,
};

function structuralFiles(hosts: HostRow[], groups: string[], zones: string[]) {
  return {
    ...RULES,
    ...RELATION_RULES,
    "module.toml": TYPED,
    "assets/host.csv": "name,env,tier,envgroup\n" +
      hosts.map((h) => `${h.name},${h.env},${h.tier},${h.group}\n`).join(""),
    "assets/envgroup.csv": "name,zone\n" + groups.map((g, i) => `${g},${zones[i]}\n`).join(""),
  };
}

Deno.test("issue 25 keys, rows and relation cells edited in a rule workspace: rules builds equal to full builds", () => {
  const hostRow = fc.record({
    name: fc.constantFrom("h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7", "hx", "hy"),
    env: fc.constantFrom(...ENVS, "e9"),
    tier: fc.constantFrom("1", "2", "x"),
    group: fc.constantFrom(...ENVS, "e9", ""),
  });
  const edit = fc.oneof(
    fc.record({ kind: fc.constant("set" as const), at: fc.nat(20), row: hostRow }),
    fc.record({ kind: fc.constant("add" as const), at: fc.nat(20), row: hostRow }),
    fc.record({ kind: fc.constant("remove" as const), at: fc.nat(20) }),
    fc.record({ kind: fc.constant("swap" as const), at: fc.nat(20), to: fc.nat(20) }),
    fc.record({
      kind: fc.constant("group" as const),
      at: fc.nat(3),
      name: fc.constantFrom(...ENVS, "e7"),
      zone: fc.constantFrom("z1", "z2"),
    }),
  );
  const modes = new Map<string, number>();
  fc.assert(
    fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
      const hosts: HostRow[] = Array.from({ length: 6 }, (_, i) => ({
        name: `h${i}`,
        env: ENVS[i % 4],
        tier: "1",
        group: ENVS[(i + 1) % 4],
      }));
      const groups = [...ENVS];
      const zones = ["z1", "z2", "z1", "z2"];
      const builder = new IncrementalBuilder();
      step(builder, structuralFiles(hosts, groups, zones));
      for (const e of edits) {
        const at = hosts.length === 0 ? 0 : e.at % hosts.length;
        if (e.kind === "set" && hosts.length > 0) hosts[at] = e.row;
        if (e.kind === "add") hosts.splice(e.at % (hosts.length + 1), 0, e.row);
        if (e.kind === "remove" && hosts.length > 1) hosts.splice(at, 1);
        if (e.kind === "swap" && hosts.length > 0) {
          const to = e.to % hosts.length;
          [hosts[at], hosts[to]] = [hosts[to], hosts[at]];
        }
        if (e.kind === "group") {
          groups[e.at] = e.name;
          zones[e.at] = e.zone;
        }
        const inc = step(builder, structuralFiles(hosts, groups, zones));
        modes.set(inc.mode, (modes.get(inc.mode) ?? 0) + 1);
        // Only a failed last build (a duplicate key) is no base for a rules build, and a build
        // of unchanged sources (a swap of a row with itself) runs the rules again in full.
        if (inc.mode === "full") {
          ok(
            /^(no previous build \(or it failed\)|rule files present)$/.test(inc.reason),
            inc.reason,
          );
        }
      }
    }),
    { numRuns: 80 },
  );
  ok((modes.get("rules") ?? 0) > (modes.get("full") ?? 0), JSON.stringify([...modes]));
});
