/** Bad fleet options of `serve` are usage errors (exit 2) naming the option, before any start. */
import { assert, assertEquals } from "../_assert.ts";
import { cli } from "../cli/_cli.ts";

const ENV = { GRAPHSVC_API_TOKEN: "", GIT_SYNC_URL: "" };
const cases: [string[], string][] = [
  [["--git-push", "sometimes", "--git-sync-url", "git://127.0.0.1:1/x"], "--git-push"],
  [["--git-push", "sync"], "GIT_SYNC_URL"],
  [["--replica-of", "ftp://p", "--git-sync-url", "git://127.0.0.1:1/x"], "--replica-of"],
  [["--git-push", "sync", "--replica-of", "http://p", "--git-sync-url", "x"], "exclude"],
  [["--git-push", "sync", "--git-sync-url", "x", "--git-author", "nobody"], "--git-author"],
  [["--git-push", "async", "--git-sync-url", "x", "--git-push-bound", "0"], "--git-push-bound"],
];

for (const [args, named] of cases) {
  Deno.test(`serve ${args.join(" ")}: usage error naming ${named}`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "fleet-flags-" });
    try {
      const r = await cli(["--data-dir", dir, "serve", "--port", "0", ...args], ENV);
      assertEquals(r.code, 2, r.stderr);
      assert(r.stderr.includes(named), r.stderr);
      assert(!r.stderr.includes("    at "), r.stderr); // no stack trace
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
