/**
 * The write path under concurrent load through the real app on a real data directory
 * (reference R3–R8 asset form writes, R10–R13 auto-CRUD, G17–G20 GraphQL mutations): 8 writers
 * × 200 writes, mixing multipart `update`/`remove` forms, REST mutations and GraphQL mutations,
 * on two files that several writers share. Afterwards every file parses, every acknowledged
 * add/change is there with its last acknowledged value, deleted rows are gone and no key appears
 * twice (R8: writes to one file are serialised, none is lost). Along the way, reads with
 * `Graphsvc-Min-Generation` set to a write's generation see that write (read-your-writes).
 */
import { assert, assertEquals } from "../_assert.ts";
import { GraphEngine } from "../../lib/engine.ts";
import { DenoFsWorkspace } from "../../lib/workspace/deno_fs.ts";
import { createTemplateRenderer } from "../../lib/pipeline/templates.ts";
import { defaultPhases } from "../../lib/pipeline/phases.ts";
import { createApp, type GraphsvcApp } from "../../lib/api/app.ts";
import { formatCsvCell, parseCsv } from "../../lib/formats/csv.ts";

const WRITERS = 8;
const WRITES_PER_WRITER = 200;

/** The two shared files: asset type → file and the GraphQL name of the type. */
const FILES = {
  host: { file: "host.csv", pascal: "Host", seed: "name,os,rev\nseed-h,linux,0\n" },
  net: { file: "net.csv", pascal: "Net", seed: "name,cidr,rev\nseed-n,10.0.0.0/8,0\n" },
} as const;
type AssetType = keyof typeof FILES;
const OTHER_COLUMN: Record<AssetType, string> = { host: "os", net: "cidr" };

/** Deterministic PRNG (mulberry32) so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function setup() {
  const dir = await Deno.makeTempDir({ prefix: "graphsvc-writes-" });
  await Deno.mkdir(`${dir}/assets`);
  for (const { file, seed } of Object.values(FILES)) {
    await Deno.writeTextFile(`${dir}/assets/${file}`, seed);
  }
  const engine = new GraphEngine({
    workspace: new DenoFsWorkspace(dir),
    createTemplates: createTemplateRenderer,
    phases: defaultPhases,
  });
  await engine.rebuild();
  assertEquals(engine.status?.status, "ok");
  const app = createApp(engine);
  return { dir, engine, app };
}

/** One acknowledged state of a row: present with a value, or deleted. */
type RowState = { present: true; rev: string; other: string } | { present: false };

interface Outcome {
  ok: boolean;
  generation: number;
  detail: string;
}

async function call(app: GraphsvcApp, path: string, init: RequestInit): Promise<Response> {
  return await app.fetch(new Request(`http://127.0.0.1${path}`, init));
}

async function rest(
  app: GraphsvcApp,
  method: string,
  path: string,
  body?: unknown,
): Promise<Outcome> {
  const res = await call(app, path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  return {
    ok: res.status >= 200 && res.status < 300,
    generation: json.generation ?? 0,
    detail: `${method} ${path} → ${res.status} ${JSON.stringify(json)}`,
  };
}

function csvText(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.map(formatCsvCell).join(",")).join("\n") + "\n";
}

async function form(
  app: GraphsvcApp,
  file: string,
  field: "update" | "remove",
  text: string,
): Promise<Outcome> {
  const body = new FormData();
  // A file part, as `curl -F update=@rows.csv` sends it: string fields of multipart forms have
  // their line breaks normalised to CRLF by the encoder, which would change multi-line cells.
  body.set(field, new Blob([text], { type: "text/csv" }), "rows.csv");
  const res = await call(app, `/api/assets/${file}`, { method: "POST", body });
  const json = await res.json();
  return {
    ok: res.status === 200 && json.ok === true,
    generation: json.generation ?? 0,
    detail: `form ${field} ${file} → ${res.status} ${JSON.stringify(json)}`,
  };
}

async function graphql(
  app: GraphsvcApp,
  query: string,
  variables: Record<string, unknown>,
): Promise<Outcome> {
  const res = await call(app, "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query, variables }),
  });
  const json = await res.json();
  const result = json.data ? Object.values(json.data)[0] as Record<string, unknown> : undefined;
  return {
    ok: res.status === 200 && result?.success === true,
    generation: Number(result?.generation ?? 0),
    detail: `graphql ${query} → ${res.status} ${JSON.stringify(json)}`,
  };
}

/** `rev` of one row as a snapshot of at least `generation` shows it (`null`: no such row). */
async function readKey(
  app: GraphsvcApp,
  type: AssetType,
  key: string,
  generation: number,
): Promise<string | null> {
  const res = await call(app, "/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", "Graphsvc-Min-Generation": `${generation}` },
    body: JSON.stringify({
      query: `query($k: String!) { ${type}(filter: { name: { eq: $k } }) { rev } }`,
      variables: { k: key },
    }),
  });
  const body = await res.json();
  if (res.status !== 200 || body.errors) return `HTTP ${res.status} ${JSON.stringify(body)}`;
  const rows = (body.data?.[type] ?? []) as { rev: string }[];
  return rows.length === 0 ? null : rows.length === 1 ? rows[0].rev : JSON.stringify(rows);
}

/** A cell value that needs CSV quoting (comma, quote, newline) and names writer and step. */
function revValue(writer: number, step: number, random: () => number): string {
  const styles = [
    `w${writer}-s${step}`,
    `w${writer}, s${step}`,
    `w${writer} "s${step}"`,
    `w${writer}\ns${step}`,
  ];
  return styles[Math.floor(random() * styles.length)];
}

/**
 * One writer: a sequential stream of writes over its own keys (`w<i>-k<j>`) in both files, so
 * the expected final state of each key is that of its last acknowledged write.
 */
async function writer(
  app: GraphsvcApp,
  id: number,
  model: Map<string, { type: AssetType; state: RowState }>,
  failures: string[],
  generations: number[],
): Promise<void> {
  const random = prng(1000 + id);
  let nextKey = 0;
  for (let step = 0; step < WRITES_PER_WRITER; step++) {
    // Writers 0–3 favour host.csv and 4–7 net.csv, but every writer touches both files.
    const type: AssetType = random() < (id < 4 ? 0.75 : 0.25) ? "host" : "net";
    const { file, pascal } = FILES[type];
    const other = OTHER_COLUMN[type];
    const live = [...model.entries()].filter(([, v]) => v.type === type && v.state.present)
      .map(([k]) => k);
    const rev = revValue(id, step, random);
    const otherValue = `o${id}.${step}`;
    const roll = random();
    let outcome: Outcome;
    let key: string;
    let next: RowState;
    if (live.length === 0 || roll < 0.4) {
      key = `w${id}-k${nextKey++}`;
      next = { present: true, rev, other: otherValue };
      const via = Math.floor(random() * 3);
      if (via === 0) {
        outcome = await rest(app, "POST", `/api/mutations/${type}`, {
          name: key,
          [other]: otherValue,
          rev,
        });
      } else if (via === 1) {
        outcome = await graphql(
          app,
          `mutation($input: ${pascal}Input!) { Add${pascal}(input: $input) { success message generation } }`,
          { input: { name: key, [other]: otherValue, rev } },
        );
      } else {
        outcome = await form(
          app,
          file,
          "update",
          csvText(["name", other, "rev"], [[
            key,
            otherValue,
            rev,
          ]]),
        );
      }
    } else if (roll < 0.85) {
      key = live[Math.floor(random() * live.length)];
      const before = model.get(key)!.state as { present: true; other: string };
      next = { present: true, rev, other: before.other };
      const via = Math.floor(random() * 3);
      if (via === 0) {
        outcome = await rest(app, "PUT", `/api/mutations/${type}/${encodeURIComponent(key)}`, {
          rev,
        });
      } else if (via === 1) {
        outcome = await graphql(
          app,
          `mutation($name: String!, $input: ${pascal}PatchInput!) { Change${pascal}(name: $name, input: $input) { success message generation } }`,
          { name: key, input: { rev } },
        );
      } else {
        // An upsert of only some columns keeps the others (A29).
        outcome = await form(app, file, "update", csvText(["name", "rev"], [[key, rev]]));
      }
    } else {
      key = live[Math.floor(random() * live.length)];
      next = { present: false };
      const via = Math.floor(random() * 3);
      if (via === 0) {
        outcome = await rest(app, "DELETE", `/api/mutations/${type}/${encodeURIComponent(key)}`);
      } else if (via === 1) {
        outcome = await graphql(
          app,
          `mutation($name: String!) { Delete${pascal}(name: $name) { success message generation } }`,
          { name: key },
        );
      } else {
        outcome = await form(app, file, "remove", csvText(["name"], [[key]]));
      }
    }
    if (outcome.ok) {
      model.set(key, { type, state: next });
      generations.push(outcome.generation);
      // Read-your-writes under load: only this writer touches `key`, so the generation the write
      // returned (or any newer one) must show exactly this state.
      if (step % 10 === 9) {
        const seen = await readKey(app, type, key, outcome.generation);
        const want = next.present ? next.rev : null;
        if (seen !== want) {
          failures.push(
            `writer ${id} step ${step}: generation ${outcome.generation} shows ${type} ${key} = ${
              JSON.stringify(seen)
            }, expected ${JSON.stringify(want)}`,
          );
        }
      }
    } else {
      failures.push(`writer ${id} step ${step}: ${outcome.detail}`);
    }
  }
}

/** Rows of a file by key; a key that appears twice is reported. */
async function readRows(dir: string, type: AssetType) {
  const text = await Deno.readTextFile(`${dir}/assets/${FILES[type].file}`);
  const doc = parseCsv(text, FILES[type].file);
  assertEquals(doc.errors, [], `${FILES[type].file} has ragged rows`);
  assertEquals(doc.header, ["name", OTHER_COLUMN[type], "rev"]);
  const rows = new Map<string, string[]>();
  const duplicates: string[] = [];
  for (const row of doc.rows) {
    if (rows.has(row.cells[0])) duplicates.push(row.cells[0]);
    rows.set(row.cells[0], row.cells);
  }
  assertEquals(duplicates, [], `${FILES[type].file}: duplicated keys`);
  return rows;
}

Deno.test({
  name:
    "R8/R10–R12/G17 8 concurrent writers × 200 mixed writes on two shared files: nothing lost or duplicated, every file parses",
  // The engine keeps rebuilding in the background after the last write; the test waits for it.
  fn: async () => {
    const { dir, engine, app } = await setup();
    try {
      const models = Array.from(
        { length: WRITERS },
        () => new Map<string, { type: AssetType; state: RowState }>(),
      );
      const failures: string[] = [];
      const generations: number[] = [];
      await Promise.all(models.map((m, id) => writer(app, id, m, failures, generations)));
      assertEquals(failures.slice(0, 5), [], `${failures.length} write(s) not acknowledged`);
      assertEquals(generations.length, WRITERS * WRITES_PER_WRITER);

      const expected = new Map<string, { type: AssetType; state: RowState }>();
      for (const m of models) for (const [k, v] of m) expected.set(k, v);
      const kinds = { present: 0, deleted: 0 };
      for (const type of Object.keys(FILES) as AssetType[]) {
        const rows = await readRows(dir, type);
        const wanted = new Map<string, string[]>([
          type === "host" ? ["seed-h", ["seed-h", "linux", "0"]] : [
            "seed-n",
            ["seed-n", "10.0.0.0/8", "0"],
          ],
        ]);
        for (const [key, { type: t, state }] of expected) {
          if (t !== type) continue;
          if (state.present) {
            wanted.set(key, [key, state.other, state.rev]);
            kinds.present++;
          } else kinds.deleted++;
        }
        // Same keys (no lost row, no resurrected deleted row, nothing extra) and same values.
        assertEquals([...rows.keys()].sort(), [...wanted.keys()].sort(), `${type} keys`);
        for (const [key, cells] of wanted) assertEquals(rows.get(key), cells, `${type} ${key}`);
      }
      assert(kinds.present > 100 && kinds.deleted > 20, JSON.stringify(kinds));

      // Read-your-writes: the newest acknowledged generation shows exactly the files' rows.
      const newest = Math.max(...generations);
      assert(newest <= engine.latestGeneration);
      const res = await call(app, "/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "Graphsvc-Min-Generation": `${newest}` },
        body: JSON.stringify({ query: "{ host { name rev } net { name rev } }" }),
      });
      assertEquals(res.status, 200);
      assert(Number(res.headers.get("Graphsvc-Generation")) >= newest);
      const data = (await res.json()).data as Record<AssetType, { name: string; rev: string }[]>;
      for (const type of Object.keys(FILES) as AssetType[]) {
        const rows = await readRows(dir, type);
        assertEquals(
          data[type].map((r) => `${r.name}=${r.rev}`).sort(),
          [...rows.values()].map((c) => `${c[0]}=${c[2]}`).sort(),
          `graph ${type}`,
        );
      }
      // No temporary file of the atomic writes is left behind.
      const left = [...Deno.readDirSync(`${dir}/assets`)].map((e) => e.name).sort();
      assertEquals(left, ["host.csv", "net.csv"]);
    } finally {
      await engine.waitFor(engine.latestGeneration);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
