/**
 * Says which differential and corpus tests this machine can run and which `deno task test` will
 * skip, and why (run by `deno task check` before the tests, so nothing is skipped silently).
 * The conditions are those of the tests themselves; under CI=true none is skipped: a missing
 * oracle fails instead.
 *
 * ```sh
 * deno run --allow-env --allow-read --allow-run scripts/oracle-report.ts
 * ```
 *
 * @module
 */

/** One group of tests that needs something outside the repository. */
interface Oracle {
  /** What it is. */
  name: string;
  /** The tests that skip without it. */
  tests: string;
  /** Why they would skip; `undefined` when they run. */
  missing(): string | undefined;
}

const ROOT = new URL("../", import.meta.url).pathname;
const SETUP = "bash scripts/setup-oracles.sh (npm test runs it)";

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

function runs(command: string, args: string[]): boolean {
  try {
    return new Deno.Command(command, { args, stdout: "null", stderr: "null" }).outputSync()
      .success;
  } catch {
    return false;
  }
}

/** The oracles, with the tests that use them. */
export const ORACLES: readonly Oracle[] = [
  {
    name: "Tera (the real template engine)",
    tests: "tests/template/differential_oracle_test.ts, property_oracle_test.ts, " +
      "extensions/corpus_snippets_oracle_test.ts",
    missing() {
      const bin = Deno.env.get("TERA_ORACLE");
      if (!bin) {
        const cache = Deno.env.get("GRAPHSVC_CACHE") ??
          `${Deno.env.get("XDG_CACHE_HOME") ?? `${Deno.env.get("HOME")}/.cache`}/graphsvc`;
        const built = `${cache}/tera-oracle/target/release/tera-oracle`;
        return exists(built)
          ? `TERA_ORACLE is not set; it is built: export TERA_ORACLE=${built}`
          : `TERA_ORACLE is not set; build it and set it with: ${SETUP}`;
      }
      return exists(bin) ? undefined : `TERA_ORACLE=${bin} does not exist`;
    },
  },
  {
    name: "jsonnet (Debian's reference binary)",
    tests: "tests/jsonnet/jsonnet_oracle_test.ts",
    missing: () => exists("/usr/bin/jsonnet") ? undefined : `/usr/bin/jsonnet is missing: ${SETUP}`,
  },
  {
    name: "Chromium (browser tests of the explorer)",
    tests: "tests/explorer/browser_test.ts",
    missing() {
      const bin = Deno.env.get("GRAPHSVC_CHROMIUM") ?? "/usr/bin/chromium";
      return exists(bin) ? undefined : `${bin} is missing: ${SETUP}`;
    },
  },
  {
    name: "PyNaCl (sealed boxes of action secrets)",
    tests: "tests/actions/seal_test.ts (differential cases)",
    missing: () =>
      runs("/usr/bin/python3", ["-c", "import nacl.public"])
        ? undefined
        : `python3-nacl is missing: ${SETUP}`,
  },
  {
    name: "the real modules (../shared/corpus)",
    tests: "tests/corpus/, and the corpus cases of tests/actions, apps, http, pipeline, mcp, …",
    missing: () =>
      exists(`${ROOT}../shared/corpus`)
        ? undefined
        : "../shared/corpus is not beside the checkout (only inside the workplace)",
  },
];

if (import.meta.main) {
  const ci = Deno.env.get("CI") === "true";
  let skipped = 0;
  console.log("Differential tests (oracles outside the repository):");
  for (const o of ORACLES) {
    const why = o.missing();
    if (!why) console.log(`  run      ${o.name}: ${o.tests}`);
    else {
      skipped++;
      console.log(`  ${ci ? "FAIL" : "skipped"}  ${o.name}: ${o.tests}\n           ${why}`);
    }
  }
  if (skipped === 0) console.log("  none skipped");
  else if (ci) console.log("  CI=true: these tests fail instead of skipping");
}
