/**
 * The corpus's generator tables against a local server (issue 12): aws_transit_hub (two http
 * generators without filters, an exec generator whose script the corpus does not carry) and the
 * aws-region actions branch (ttl, tera! filters over JSON and CSV responses, the .etag files it
 * carries). The URLs of a test copy point at 127.0.0.1 through `{{ env.GEN_BASE }}`.
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { GeneratorScheduler } from "../../lib/generators/mod.ts";
import { denoGeneratorHost } from "../../lib/runtime/deno/generators.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { type Seen, startServer } from "./_helpers.ts";

const corpus = new URL("../../../shared/corpus/", import.meta.url).pathname;
const root = new URL("../../", import.meta.url).pathname;

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (e.isDirectory) await copyTree(`${from}/${e.name}`, `${to}/${e.name}`);
    else if (e.isFile) {
      await Deno.writeFile(`${to}/${e.name}`, await Deno.readFile(`${from}/${e.name}`));
    }
  }
}

/** A writable copy of a corpus data dir whose generator URLs go to `{{ env.GEN_BASE }}/<host>/<path>`. */
async function testCopy(module: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-gen-corpus-" });
  await copyTree(`${corpus}${module}/data`, dir);
  const manifest = await Deno.readTextFile(`${dir}/module.toml`);
  await Deno.writeTextFile(
    `${dir}/module.toml`,
    manifest.replace(/^(url\s*=\s*")https:\/\//gm, "$1{{ env.GEN_BASE }}/"),
  );
  return dir;
}

const old = new Date("2020-01-01T00:00:00Z");

Deno.test("corpus aws-region actions branch: tera! filters, ttl, corpus ETags, and the build uses the fetched data", async () => {
  const src = `${corpus}aws-region-module__actions-branch/data/input`;
  const endpointsEtag = (await Deno.readTextFile(`${src}/aws_region_endpoint.json.etag`)).trim();
  // A small botocore-style endpoints document and IANA CSV (the corpus carries only the results).
  const botocore = {
    partitions: [{
      regions: {
        "eu-central-2": { description: "Europe (Zurich)" },
        "us-east-1": { description: "US East (N. Virginia)" },
      },
      services: {
        ec2: { endpoints: { "us-east-1": {} } },
        graphsvcmarker: { endpoints: { "eu-central-2": {}, "us-east-1": {} } },
        s3: { endpoints: { "eu-central-2": {} } },
      },
    }],
  };
  const iana = "Service Name,Port Number,Transport Protocol,Description\n" +
    "https,443,tcp,marker https over TLS\nhttps,443,udp,HTTPS\n,,,\nhigh,49152,tcp,not kept\n";
  const handler = async (r: Seen): Promise<Response> => {
    switch (r.url.pathname) {
      case "/ip-ranges.amazonaws.com/ip-ranges.json":
        if (r.headers.get("if-none-match") === endpointsEtag) {
          return new Response(null, { status: 304 });
        }
        return new Response("unexpected", { status: 500 });
      case "/pricing.us-east-1.amazonaws.com/offers/v1.0/aws/index.json":
        return new Response(await Deno.readFile(`${src}/aws_price_index.json`), {
          headers: { etag: '"new"' },
        });
      case "/raw.githubusercontent.com/boto/botocore/develop/botocore/data/endpoints.json":
        return Response.json(botocore);
      case "/www.iana.org/assignments/service-names-port-numbers/service-names-port-numbers.csv":
        return new Response(iana, { headers: { "content-type": "text/csv" } });
    }
    return new Response("not found", { status: 404 });
  };
  const srv = startServer(handler);
  const dir = await testCopy("aws-region-module__actions-branch");
  try {
    await Deno.remove(`${dir}/input/aws_region_service.json`);
    await Deno.remove(`${dir}/input/iana_port_registry.json`);
    for (const f of ["aws_region_endpoint.json", "aws_price_index.json"]) {
      await Deno.utime(`${dir}/input/${f}`, old, old);
    }
    const workspace = new DenoFsWorkspace(dir);
    const scheduler = new GeneratorScheduler({
      workspace,
      host: denoGeneratorHost(dir),
      env: { GEN_BASE: srv.base },
    });
    const engine = new GraphEngine({
      workspace,
      createTemplates: createTemplateRenderer,
      phases: defaultPhases,
      prepare: scheduler.prepare,
    });
    const snap = await engine.rebuild();
    const summary = scheduler.lastSummary!;
    assertEquals([summary.run, summary.failed], [4, 0], JSON.stringify(summary.outcomes, null, 1));
    assertEquals(engine.status?.status, "ok", engine.status?.error ?? "");
    // ttl 72h and a stale file: a conditional request with the ETag the corpus carries; 304 keeps it.
    assertEquals(
      srv.seen.find((s) => s.url.pathname.endsWith("ip-ranges.json"))?.headers.get("if-none-match"),
      endpointsEtag,
    );
    assertEquals(
      await Deno.readTextFile(`${dir}/input/aws_region_endpoint.json`),
      await Deno.readTextFile(`${src}/aws_region_endpoint.json`),
    );
    assertEquals(await Deno.readTextFile(`${dir}/input/aws_price_index.json.etag`), '"new"');
    // The tera! filter reshaped botocore's document; the build reads it.
    const regions = JSON.parse(await Deno.readTextFile(`${dir}/input/aws_region_service.json`));
    assertEquals(regions["Europe (Zurich)"], {
      region_code: "eu-central-2",
      services: ["graphsvcmarker", "s3"],
    });
    const ports = JSON.parse(await Deno.readTextFile(`${dir}/input/iana_port_registry.json`));
    assertEquals(Object.keys(ports), ["443/tcp", "443/udp"]);
    const nodes = (snap.graph.toJSON() as {
      nodes: { type: string; name: string; properties: Record<string, unknown> }[];
    }).nodes;
    const zurich = nodes.find((n) => n.type === "location" && n.name === "zurich")!;
    assertEquals(zurich.properties.region, "eu-central-2");
    // M13: an expression that prints a flat sequence stores the list (the original's export).
    assertEquals(zurich.properties.portfolio, ["graphsvcmarker", "s3"]);
    const port = nodes.find((n) => n.type === "port" && n.name === "443")!;
    assertEquals(port.properties.description, "marker https over TLS");
    // A second build within the ttl fetches nothing.
    const before = srv.seen.length;
    await engine.rebuild();
    assertEquals(srv.seen.length, before);
    assertEquals(scheduler.lastSummary?.skipped, 4);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("corpus aws_transit_hub through the CLI: fetched inputs feed the build; the missing script warns", async () => {
  const src = `${corpus}aws_transit_hub/data/input`;
  const ipRanges = JSON.parse(await Deno.readTextFile(`${src}/aws_region_endpoint.json`));
  ipRanges.prefixes.push({
    ip_prefix: "10.0.0.0/8",
    region: "eu-central-2",
    service: "GRAPHSVC_MARKER",
    network_border_group: "eu-central-2",
  });
  const srv = startServer(async (r) => {
    if (r.url.pathname === "/ip-ranges.amazonaws.com/ip-ranges.json") {
      return Response.json(ipRanges);
    }
    if (r.url.pathname === "/pricing.us-east-1.amazonaws.com/offers/v1.0/aws/index.json") {
      return new Response(await Deno.readFile(`${src}/aws_service_index.json`));
    }
    return new Response("not found", { status: 404 });
  });
  const dir = await testCopy("aws_transit_hub");
  try {
    await Deno.remove(`${dir}/input/aws_region_endpoint.json`);
    await Deno.remove(`${dir}/input/aws_service_index.json`);
    // The corpus declares GitHub dependencies these machines cannot fetch (issue 11); --offline
    // would also stop the generators, so the copy leaves the dependencies out.
    const manifest = await Deno.readTextFile(`${dir}/module.toml`);
    await Deno.writeTextFile(
      `${dir}/module.toml`,
      manifest.replace(/^\[dependencies\]\n(?:[^[\n][^\n]*\n|\n)*/m, ""),
    );
    const run = (args: string[]) =>
      new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", `${root}cli.ts`, "--data-dir", dir, ...args],
        env: { GEN_BASE: srv.base },
        stdout: "piped",
        stderr: "piped",
      }).output();
    const out = await run(["build", "--graph-json", `${dir}/graph.json`]);
    const stdout = new TextDecoder().decode(out.stdout);
    const stderr = new TextDecoder().decode(out.stderr);
    // The corpus build is degraded on its own (rule errors, exit 1); generators do not change that.
    assert(out.code === 0 || out.code === 1, stderr);
    assert(stdout.includes("generators: 2 run, 0 skipped, 1 failed"), stdout + stderr);
    assert(
      /generator aws_region_endpoints: 1 page\(s\), \d+ item\(s\), wrote input\/aws_region_endpoint\.json/
        .test(stderr),
      stderr,
    );
    assert(
      stderr.includes("generator 'aws_region_service' (module data, aws_region_service.sh)"),
      stderr,
    );
    assert(stderr.includes("not found in PATH"), stderr);
    const graph = JSON.parse(await Deno.readTextFile(`${dir}/graph.json`));
    const region = graph.nodes.find((n: { type: string }) => n.type === "region");
    assert(
      String(region.properties.endpoint).includes("GRAPHSVC_MARKER"),
      String(region.properties.endpoint),
    );
    // --no-generators: nothing is fetched.
    const before = srv.seen.length;
    const skip = await run(["--no-generators", "build"]);
    assert(!new TextDecoder().decode(skip.stdout).includes("generators:"));
    assertEquals(srv.seen.length, before);
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
