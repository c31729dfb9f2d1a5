// The GraphQL requests real apps send (corpus/FEATURES.md §4: public_dns app js/zones.js,
// js/architecture.js, aws_transit_hub app index.html), run unchanged against small graphs shaped
// like those modules.
import { assert, data, dnsGraph, Graph, relate, resources } from "./_helpers.ts";

const RECORD_FIELDS: Record<string, string> = {
  has_a_record: "{ node { name original_name address ttl disabled } }",
  has_apex_ns_record: "{ node { name original_name content ttl disabled } }",
};

Deno.test("corpus public_dns zones.js: __type introspection, capitalised then raw name (G3, G5)", async () => {
  const g = dnsGraph();
  const cap = await data(g, `{ __type(name: "Zone") { fields { name } } }`);
  assert.equal(cap.__type, null);
  const raw = await data(g, `{ __type(name: "zone") { fields { name } } }`);
  const names = raw.__type.fields.map((f: { name: string }) => f.name);
  for (const f of ["name", "dnssec", "has_a_record", "has_apex_ns_record", "DESCRIBED_BY"]) {
    assert.ok(names.includes(f), `zone has field ${f}`);
  }
  assert.ok(!names.includes("has_mx_record"));
});

Deno.test("corpus public_dns zones.js: zone detail query with filter, unions, records (G8, G13, G14)", async () => {
  const g = dnsGraph();
  const zoneName = "example.org";
  let recordQueryFields = "";
  for (const [key, val] of Object.entries(RECORD_FIELDS)) {
    recordQueryFields += `\n                        ${key} ${val}`;
  }
  const query = `
    query {
      zone (filter: { name: { eq: "${zoneName}" }}) {
        name
        multi_provider
        vanity_name_server
        dns_topology
        provider_roles
        view
        zone_format
        disabled
        dnssec
        DESCRIBED_BY {
          node {
            __typename
            ... on cloudflare_py { name filename }
            ... on zone_file { name filename }
            ... on tfvars { name filename }
          }
        }
        ${recordQueryFields}
      }
    }
  `;
  const d = await data(g, query);
  assert.deepEqual(d.zone, [{
    name: "example.org",
    multi_provider: false,
    vanity_name_server: ["ns1.example.net", "ns2.example.net"],
    dns_topology: "active-active",
    provider_roles: '[{"provider":"cloudflare","role":"primary"}]',
    view: "default",
    zone_format: "FORWARD",
    disabled: "False",
    dnssec: "True",
    DESCRIBED_BY: [
      { node: { __typename: "cloudflare_py", name: "example.org", filename: "cloudflare.py" } },
      { node: { __typename: "tfvars", name: "example.org", filename: "terraform.tfvars.json" } },
      { node: { __typename: "zone_file", name: "example.org", filename: "example.org.zone" } },
    ],
    has_a_record: [
      {
        node: {
          name: "api.example.org",
          original_name: "api",
          address: "192.0.2.11",
          ttl: 3600,
          disabled: true,
        },
      },
      {
        node: {
          name: "www.example.org",
          original_name: "www",
          address: "192.0.2.10",
          ttl: 300,
          disabled: false,
        },
      },
    ],
    has_apex_ns_record: [{
      node: {
        name: "example.org/ns1",
        original_name: "@",
        content: "ns1.example.net.",
        ttl: 86400,
        disabled: "False",
      },
    }],
  }]);
});

Deno.test("corpus public_dns architecture.js: zone list and NS record queries", async () => {
  const g = dnsGraph();
  const list = await data(
    g,
    `
      query {
        zone {
          name
          vanity_name_server
          dns_topology
          provider_roles
          zone_format
          disabled
          dnssec
          multi_provider
        }
      }
    `,
  );
  assert.deepEqual(list.zone.map((z: { name: string }) => z.name), ["example.com", "example.org"]);
  assert.deepEqual(list.zone[0].vanity_name_server, []);
  const NS_RECORD_FIELDS = "{ node { name original_name content ttl disabled } }";
  const ns = await data(
    g,
    `
          query {
            zone {
              name
            has_apex_ns_record ${NS_RECORD_FIELDS}
            }
          }
        `,
  );
  assert.deepEqual(ns.zone[0], { name: "example.com", has_apex_ns_record: [] });
  assert.equal(ns.zone[1].has_apex_ns_record[0].node.content, "ns1.example.net.");
});

Deno.test('corpus FEATURES.md: filter { provider: { eq: "rescile" } } (G8)', async () => {
  const d = await data(dnsGraph(), `{ zone(filter: { provider: { eq: "rescile" } }) { name } }`);
  assert.deepEqual(d.zone, [{ name: "example.org" }]);
});

/** A graph shaped like the aws_transit_hub module (convention relations region/provider). */
function transitHubGraph(): Graph {
  const g = new Graph();
  resources(g, [
    ["provider", "aws", {
      display_name: "Amazon Web Services",
      function: "transit",
      region: "eu-central-2",
      commercial_admin: "acme_account",
      technical_admin: "acme_cloud",
    }],
    ["region", "eu-central-2", {
      function: "eu-central-2",
      service: "ec2",
      endpoint: "ec2.eu-central-2.amazonaws.com",
    }],
    ["router", "hub-router", {
      function: "transit",
      domain: "hub.example",
      provider: "aws",
      cidr: "10.0.0.0/16",
    }],
    ["subscription", "acme-prod", { tenant: "acme", stage: "prod" }],
    ["login", "acme_cloud", { function: "acme", role: "cloud" }],
    ["account", "acme", { function: "acme" }],
  ]);
  relate(g, ["provider", "aws"], "region", ["region", "eu-central-2"]);
  relate(g, ["router", "hub-router"], "provider", ["provider", "aws"]);
  g.seal();
  return g;
}

Deno.test("corpus aws_transit_hub index.html: VIEWS queries (G13 convention relations, G15)", async () => {
  const g = transitHubGraph();
  const providers = await data(
    g,
    `{ provider { name display_name function region { node { function } } commercial_admin technical_admin } }`,
  );
  assert.deepEqual(providers.provider, [{
    name: "aws",
    display_name: "Amazon Web Services",
    function: "transit",
    region: [{ node: { function: "eu-central-2" } }],
    commercial_admin: "acme_account",
    technical_admin: "acme_cloud",
  }]);
  const routers = await data(
    g,
    `{ router { name function domain provider { node { name } } cidr } }`,
  );
  assert.deepEqual(routers.router, [{
    name: "hub-router",
    function: "transit",
    domain: "hub.example",
    provider: [{ node: { name: "aws" } }],
    cidr: "10.0.0.0/16",
  }]);
  const regions = await data(g, `{ region { function service endpoint } }`);
  assert.deepEqual(regions.region, [{
    function: "eu-central-2",
    service: "ec2",
    endpoint: "ec2.eu-central-2.amazonaws.com",
  }]);
  assert.deepEqual((await data(g, `{ login { name function role } }`)).login, [
    { name: "acme_cloud", function: "acme", role: "cloud" },
  ]);
  assert.deepEqual((await data(g, `{ account { name function } }`)).account, [
    { name: "acme", function: "acme" },
  ]);
  assert.deepEqual((await data(g, `{ subscription { name tenant stage } }`)).subscription, [
    { name: "acme-prod", tenant: "acme", stage: "prod" },
  ]);
  // The raw auto-linked column stays reachable (G15).
  const raw = await data(g, `{ router { provider__value } provider { region__value } }`);
  assert.deepEqual(raw, {
    router: [{ provider__value: "aws" }],
    provider: [{ region__value: "eu-central-2" }],
  });
});

Deno.test("corpus aws_transit_hub index.html: topology queries and countNodes (G9)", async () => {
  const g = transitHubGraph();
  const hub = await data(
    g,
    `{
                        provider { name display_name region { node { function } } }
                        router { name function provider { node { name } } cidr }
                        region { function service }
                        subscription { name tenant stage }
                    }`,
  );
  assert.equal(hub.router[0].provider[0].node.name, "aws");
  assert.equal(hub.provider[0].region[0].node.function, "eu-central-2");
  const governance = await data(
    g,
    `{
                        account { name function }
                        login { name function role }
                        provider { name display_name commercial_admin technical_admin }
                    }`,
  );
  assert.equal(governance.provider[0].technical_admin, "acme_cloud");
  assert.deepEqual(await data(g, `{ countNodes }`), { countNodes: 6 });
});
