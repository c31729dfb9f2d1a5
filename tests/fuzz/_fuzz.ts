// Shared settings of the fuzz tests (issue 16): a fixed seed and a small number of runs in the
// normal test run; FC_RUNS (and optionally FC_SEED) for long local runs, e.g.
//   FC_RUNS=100000 node_modules/.bin/deno test -A tests/fuzz/
import fc from "fast-check";

function envNumber(name: string): number {
  const granted = Deno.permissions.querySync({ name: "env", variable: name }).state;
  return granted === "granted" ? Number(Deno.env.get(name)) : NaN;
}

/** Parameters of one `fc.assert`: `fallback` runs unless FC_RUNS says otherwise. */
export function fuzzParams<T>(fallback: number): fc.Parameters<T> {
  const runs = envNumber("FC_RUNS");
  const seed = envNumber("FC_SEED");
  return {
    numRuns: Number.isFinite(runs) && runs > 0 ? runs : fallback,
    seed: Number.isInteger(seed) ? seed : 0x16f022,
    endOnFailure: true,
  };
}

/** Whether long runs were asked for (tests may then widen their generators). */
export function longRun(): boolean {
  return Number.isFinite(envNumber("FC_RUNS"));
}

/** Random edits of a text: insertions of `tokens`, deletions, duplications, swaps. */
export function mutations(text: string, tokens: readonly string[]): fc.Arbitrary<string> {
  const edit = fc.record({
    op: fc.constantFrom("insert", "delete", "duplicate", "replace"),
    at: fc.nat(text.length),
    len: fc.nat(40),
    token: fc.oneof(fc.constantFrom(...tokens), fc.string({ maxLength: 3 })),
  });
  return fc.array(edit, { minLength: 1, maxLength: 6 }).map((edits) => {
    let t = text;
    for (const e of edits) {
      const at = Math.min(e.at, t.length);
      const end = Math.min(t.length, at + e.len);
      if (e.op === "insert") t = t.slice(0, at) + e.token + t.slice(at);
      else if (e.op === "delete") t = t.slice(0, at) + t.slice(end);
      else if (e.op === "duplicate") t = t.slice(0, end) + t.slice(at, end) + t.slice(end);
      else t = t.slice(0, at) + e.token + t.slice(at + 1);
    }
    return t;
  });
}

/** Reads text files when --allow-read was granted; otherwise returns `[]`. */
export function readIfAllowed(paths: readonly string[]): string[] {
  const out: string[] = [];
  for (const path of paths) {
    if (Deno.permissions.querySync({ name: "read", path }).state !== "granted") continue;
    try {
      out.push(Deno.readTextFileSync(path));
    } catch {
      // not present on this machine
    }
  }
  return out;
}
