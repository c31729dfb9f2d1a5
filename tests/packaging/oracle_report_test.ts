// Issue 18 point 8: `deno task check` names the differential tests it skips (scripts/oracle-report.ts);
// the report must name test files that exist, or it would point at nothing.
import { assert } from "../_assert.ts";
import { ORACLES } from "../../scripts/oracle-report.ts";

const root = new URL("../../", import.meta.url).pathname;

Deno.test({
  name: "the oracle report names existing test files",
  ignore: Deno.permissions.querySync({ name: "read" }).state !== "granted",
  fn() {
    for (const o of ORACLES) {
      const first = o.tests.split(/,\s*/)[0].split(" ")[0];
      assert(Deno.statSync(`${root}${first}`), `${o.name}: ${first}`);
    }
  },
});
