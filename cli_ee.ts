/**
 * Entry point of the `graphsvc-ee` binary (service edition): the CLI of cli.ts with `ee` as its
 * edition; `--edition` still chooses another. `deno task compile` builds `dist/graphsvc-ee` from
 * it.
 *
 * ```sh
 * deno run -A cli_ee.ts --data-dir ./data serve --port 7600
 * ```
 *
 * @module
 */
import { main } from "./cli.ts";

if (import.meta.main) {
  Deno.exit(await main(Deno.args, "ee"));
}
