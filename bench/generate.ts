/**
 * Synthetic workspace generator for benchmarks: N resources spread over T asset types. Each type
 * `t<i>` has scalar columns, an integer column, a relation column naming a resource of the next
 * type, and a quoted multi-value relation column naming two resources of the type after that.
 *
 * @module
 */

/** Files of a generated workspace, path to text. */
export type GeneratedFiles = Record<string, string>;

/**
 * Generates a workspace of `resources` rows over `types` asset files.
 *
 * @example
 * ```ts
 * import { generateWorkspace } from "./generate.ts";
 * const files = generateWorkspace(1000, 10);
 * console.log(Object.keys(files).length); // 10
 * ```
 */
export function generateWorkspace(resources: number, types: number): GeneratedFiles {
  const perType = Math.ceil(resources / types);
  const files: GeneratedFiles = {};
  const envs = ["prod", "test", "dev"];
  for (let t = 0; t < types; t++) {
    const next = `t${(t + 1) % types}`;
    const after = `t${(t + 2) % types}`;
    const lines = [`name,env,tier,owner,size,${next},${after}`];
    const count = Math.min(perType, resources - t * perType);
    for (let i = 0; i < count; i++) {
      const a = (i * 7 + 3) % perType;
      const b = (i * 13 + 5) % perType;
      lines.push(
        `t${t}-${i},${envs[i % 3]},tier-${i % 5},team-${i % 17},${
          i % 1000
        },${next}-${i},"${after}-${a}, ${after}-${b}"`,
      );
    }
    files[`assets/t${t}.csv`] = lines.join("\n") + "\n";
  }
  return files;
}

/**
 * Asset files of the rule benchmarks: `origins` hosts (`name,env,port,<netColumn>`) spread over
 * 50 networks (`name,cidr`). With `netColumn = "network"` the hosts link to their network by
 * convention; with another name a rule has to join them.
 *
 * @example
 * ```ts
 * import { generateHostsAndNetworks } from "./generate.ts";
 * const files = generateHostsAndNetworks(2, "net");
 * console.log(files["assets/host.csv"].split("\n")[1]); // host-0,prod,8000,net-0
 * ```
 */
export function generateHostsAndNetworks(origins: number, netColumn: string): GeneratedFiles {
  const hosts = [`name,env,port,${netColumn}`];
  for (let i = 0; i < origins; i++) {
    hosts.push(`host-${i},${i % 3 === 0 ? "prod" : "dev"},${8000 + (i % 1000)},net-${i % 50}`);
  }
  const networks = ["name,cidr"];
  for (let i = 0; i < 50; i++) networks.push(`net-${i},10.${i}.0.0/16`);
  return {
    "assets/host.csv": hosts.join("\n") + "\n",
    "assets/network.csv": networks.join("\n") + "\n",
  };
}

/**
 * Rule files over {@link generateHostsAndNetworks}: a model (a tag per production host), a
 * compliance control (production hosts) and an output (a listing per network). They read the
 * hosts' `env` and the networks' `cidr`, never `port`.
 *
 * @example
 * ```ts
 * import { HOST_RULE_FILES } from "./generate.ts";
 * console.log(Object.keys(HOST_RULE_FILES).length); // 3
 * ```
 */
export const HOST_RULE_FILES: Readonly<Record<string, string>> = {
  "models/tag.toml": `origin_resource = "host"
[[create_resource]]
match_on = [{ property = "env", value = "prod" }]
resource_type = "tag"
name = "tag-{{ origin_resource.name }}"
[create_resource.properties]
env = "{{ origin_resource.env }}"
`,
  "compliance/prod.toml": `audit_id = "B1"
[[control]]
id = "PROD"
name = "Production hosts"
[[control.target]]
origin_resource_types = ["host"]
match_on = [{ property = "env", value = "prod" }]
[control.target.resource.properties]
tier = "{{ origin_resource.env | upper }}"
`,
  "output/networks.toml": `origin_resource = "network"
[[output]]
resource_type = "listing"
name = "net-{{ origin_resource.name }}"
filename = "{{ origin_resource.name }}.txt"
mimetype = "text/plain"
template = "{{ origin_resource.name }} {{ origin_resource.cidr }}"
`,
};
