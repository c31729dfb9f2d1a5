/**
 * Crash safety of the write path (reference R3–R8, R10–R12; workspace writes are atomic and
 * durable): a real `serve` process is killed with SIGKILL in the middle of a write storm from
 * several concurrent clients. Every asset file must still parse and hold every write that was
 * acknowledged (2xx) before the kill; the one write each client had in flight may or may not be
 * there. Temporary files of interrupted writes never end in `.csv` and are not read as assets
 * when the server starts again.
 */
import { assert, assertEquals } from "../_assert.ts";
import { formatCsvCell, parseCsv } from "../../lib/formats/csv.ts";
import { type ServeProcess, spawnServe } from "./_cli.ts";

const CLIENTS = 6;
/** The kill comes once this many writes have been acknowledged (the storm is still running). */
const KILL_AFTER_ACKS = 150;
/** Upper bound of each client's writes, in case the kill never comes. */
const MAX_WRITES_PER_CLIENT = 400;

const SEEDS: Record<string, string> = {
  "host.csv": "name,os,rev\nseed-h,linux,0\n",
  "net.csv": "name,cidr,rev\nseed-n,10.0.0.0/8,0\n",
};
const TYPES = [{ type: "host", file: "host.csv", other: "os" }, {
  type: "net",
  file: "net.csv",
  other: "cidr",
}] as const;

/** Starts `cli.ts serve` on 127.0.0.1 with a free port; resolves once it listens. */
function startServer(dir: string): Promise<ServeProcess> {
  // No token and no Git remote from the environment of whoever runs the tests.
  return spawnServe(dir, [], { env: { GRAPHSVC_API_TOKEN: "", GIT_SYNC_URL: "" } });
}

type RowState = { present: true; cells: string[] } | { present: false };

/** What one client knows: acknowledged states by key, and its write in flight, if any. */
interface ClientModel {
  acked: Map<string, { file: string; state: RowState }>;
  pending?: { key: string; file: string; state: RowState };
  acks: number;
}

function csvText(header: string[], rows: string[][]): string {
  return [header, ...rows].map((r) => r.map(formatCsvCell).join(",")).join("\n") + "\n";
}

/** A sequential client writing its own keys (`c<i>-k<j>`) in both files until the server dies. */
async function client(
  base: string,
  id: number,
  model: ClientModel,
  total: { acks: number },
  onAck: () => void,
): Promise<void> {
  let nextKey = 0;
  for (let step = 0; step < MAX_WRITES_PER_CLIENT; step++) {
    const { type, file, other } = TYPES[(id + step) % 2];
    const live = [...model.acked].filter(([, v]) => v.file === file && v.state.present)
      .map(([k]) => k);
    const rev = step % 3 === 0 ? `c${id}, s${step}` : `c${id}-s${step}`;
    const choice = live.length === 0 ? 0 : step % 5;
    let key: string;
    let state: RowState;
    let request: Request;
    if (choice <= 1) {
      key = `c${id}-k${nextKey++}`;
      const cells = [key, `o${id}.${step}`, rev];
      state = { present: true, cells };
      if (choice === 0) {
        request = new Request(`${base}/api/mutations/${type}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: key, [other]: cells[1], rev }),
        });
      } else {
        const body = new FormData();
        body.set("update", new Blob([csvText(["name", other, "rev"], [cells])]), "rows.csv");
        request = new Request(`${base}/api/assets/${file}`, { method: "POST", body });
      }
    } else if (choice <= 3) {
      key = live[step % live.length];
      const before = (model.acked.get(key)!.state as { cells: string[] }).cells;
      state = { present: true, cells: [key, before[1], rev] };
      if (choice === 2) {
        request = new Request(`${base}/api/mutations/${type}/${key}`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ rev }),
        });
      } else {
        const pascal = type === "host" ? "Host" : "Net";
        request = new Request(`${base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            query:
              `mutation($n: String!, $r: String) { Change${pascal}(name: $n, input: { rev: $r }) { success message } }`,
            variables: { n: key, r: rev },
          }),
        });
      }
    } else {
      key = live[step % live.length];
      state = { present: false };
      request = new Request(`${base}/api/mutations/${type}/${key}`, { method: "DELETE" });
    }
    model.pending = { key, file, state };
    let res: Response;
    try {
      res = await fetch(request);
    } catch {
      return; // the server is gone: this write stays pending (applied or not)
    }
    let body: Record<string, unknown>;
    try {
      body = await res.json();
    } catch {
      return; // killed while answering
    }
    const ok = res.status >= 200 && res.status < 300 &&
      (request.url.endsWith("/graphql")
        ? (Object.values(body.data as object)[0] as { success: boolean }).success
        : true);
    if (!ok) throw new Error(`client ${id}: ${request.method} ${request.url} → ${res.status}`);
    model.acked.set(key, { file, state });
    model.pending = undefined;
    model.acks++;
    total.acks++;
    onAck();
  }
}

Deno.test({
  name:
    "R8/R10–R12 SIGKILL during a write storm: every file parses and keeps every acknowledged write",
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    const dir = await Deno.makeTempDir({ prefix: "graphsvc-crash-" });
    await Deno.mkdir(`${dir}/assets`);
    for (const [file, text] of Object.entries(SEEDS)) {
      await Deno.writeTextFile(`${dir}/assets/${file}`, text);
    }
    let server = await startServer(dir);
    try {
      const models: ClientModel[] = Array.from({ length: CLIENTS }, () => ({
        acked: new Map(),
        acks: 0,
      }));
      const total = { acks: 0 };
      let killed = false;
      const kill = () => {
        if (killed || total.acks < KILL_AFTER_ACKS) return;
        killed = true;
        server.child.kill("SIGKILL");
      };
      await Promise.all(models.map((m, id) => client(server.url, id, m, total, kill)));
      const status = await server.stop("SIGKILL"); // (killed above: waits for the exit and the end of its log)
      assert(killed, `the storm ended before the kill (${total.acks} acks)`);
      assertEquals(status.signal, "SIGKILL");
      assert(models.every((m) => m.acks > 0), "every client had writes acknowledged");

      // Only the asset CSVs and, possibly, temporary files of interrupted writes remain.
      const names = [...Deno.readDirSync(`${dir}/assets`)].map((e) => e.name).sort();
      for (const name of names) {
        if (name in SEEDS) continue;
        assert(/^\..+\.tmp$/.test(name) && !name.endsWith(".csv"), `unexpected file ${name}`);
      }
      assertEquals(names.filter((n) => n in SEEDS), Object.keys(SEEDS).sort());

      for (const [file, seed] of Object.entries(SEEDS)) {
        const doc = parseCsv(await Deno.readTextFile(`${dir}/assets/${file}`), file);
        assertEquals(doc.errors, [], `${file} has ragged rows`);
        const rows = new Map<string, string[]>();
        for (const row of doc.rows) {
          assert(!rows.has(row.cells[0]), `${file}: key ${row.cells[0]} appears twice`);
          rows.set(row.cells[0], row.cells);
        }
        const seedRow = parseCsv(seed, file).rows[0].cells;
        assertEquals(rows.get(seedRow[0]), seedRow);
        const seen = new Set([seedRow[0]]);
        for (const [id, m] of models.entries()) {
          for (const [key, { file: f, state }] of m.acked) {
            if (f !== file) continue;
            seen.add(key);
            const actual = rows.get(key);
            const want = state.present ? state.cells : undefined;
            const inFlight = m.pending?.key === key ? m.pending.state : undefined;
            const alternative = inFlight?.present ? inFlight.cells : undefined;
            const ok = JSON.stringify(actual) === JSON.stringify(want) ||
              (inFlight !== undefined &&
                JSON.stringify(actual) === JSON.stringify(alternative));
            assert(
              ok,
              `client ${id} ${file} ${key}: ${JSON.stringify(actual)} ≠ acked ${
                JSON.stringify(want)
              }${inFlight ? ` / in flight ${JSON.stringify(alternative)}` : ""}`,
            );
          }
          // A new row whose add was in flight may or may not be there, but nothing else may.
          const pending = m.pending;
          if (pending?.file === file && !m.acked.has(pending.key)) {
            seen.add(pending.key);
            const actual = rows.get(pending.key);
            if (actual !== undefined && pending.state.present) {
              assertEquals(actual, pending.state.cells, `client ${id} in-flight add`);
            }
          }
        }
        const extra = [...rows.keys()].filter((k) => !seen.has(k));
        assertEquals(extra, [], `${file}: rows nobody wrote`);
      }

      // A stray temporary file of an interrupted write is not an asset for the next server.
      await Deno.writeTextFile(
        `${dir}/assets/.host.csv.00000000-0000-0000-0000-000000000000.tmp`,
        'name,os,rev\nhalf-written,"unterminated',
      );
      server = await startServer(dir);
      const listed = await (await fetch(`${server.url}/api/assets`)).json();
      assertEquals(listed, ["host.csv", "net.csv"]);
      const info = await (await fetch(`${server.url}/api/engine-info`, {
        headers: { "Graphsvc-Min-Generation": "1" },
      })).json();
      assertEquals(info.last_build.status, "ok", JSON.stringify(info.last_build));
    } finally {
      await server.stop("SIGKILL");
      await Deno.remove(dir, { recursive: true });
    }
  },
});
