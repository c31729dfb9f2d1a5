/**
 * Declared asset columns at load time (reference A13, A31, MP30–MP31): typed cells, and
 * `allowed_values` checked with the same comparison as the write path (lib/writes/cells.ts).
 * Pure: no permissions.
 */
import { assertEquals, assertThrows } from "../_assert.ts";
import { buildOutputs } from "./outputs/_support.ts";
import { allowedValueError } from "../../lib/pipeline/cell_values.ts";
import { checkDeclaredColumns } from "../../lib/writes/cells.ts";
import { WriteError } from "../../lib/writes/errors.ts";
import type { AssetDeclaration } from "../../lib/workspace/manifest.ts";

const MANIFEST = '[assets."host.csv".columns]\n' +
  'env = { type = "string", allowed_values = ["dev", "prod"] }\n' +
  'port = { type = "integer", allowed_values = [80, 443] }\n' +
  'tags = { type = "array_of_string", allowed_values = ["a", "b"] }\n';

Deno.test("MP31/A13 allowed_values of a declared column are checked when CSVs load (csv_value_invalid warning, located)", async () => {
  const r = await buildOutputs({
    "module.toml": MANIFEST,
    "assets/host.csv": 'name,env,port,tags\nweb,prod,443,"a,b"\ndb,qa,8080,"a,c"\napp,,,\n',
  });
  const bad = r.issues.filter((i) => i.code === "csv_value_invalid");
  assertEquals(
    bad.map((i) => [i.severity, i.file, i.line, i.cell, i.message]),
    [
      [
        "warning",
        "assets/host.csv",
        3,
        { row: 3, column: "env" },
        `row 3, column 'env': "qa" is not one of ["dev","prod"]`,
      ],
      [
        "warning",
        "assets/host.csv",
        3,
        { row: 3, column: "port" },
        `row 3, column 'port': 8080 is not one of [80,443]`,
      ],
      [
        "warning",
        "assets/host.csv",
        3,
        { row: 3, column: "tags" },
        `row 3, column 'tags': "c" is not one of ["a","b"]`,
      ],
    ],
  );
  // The rows still load (the value as converted): the build is not failed by a warning.
  assertEquals(r.outcome, "ok");
  assertEquals(r.graph.getResource("host", "db")?.properties.env, "qa");
  assertEquals(r.graph.getResource("host", "db")?.properties.port, 8080);
});

Deno.test("A13 a cell that does not convert to its declared type is csv_value_invalid with row and column", async () => {
  const r = await buildOutputs({
    "module.toml": '[assets."host.csv".columns]\ncores = "integer"\n',
    "assets/host.csv": "name,cores\n\nweb,4\ndb,four\n",
  });
  const bad = r.issues.filter((i) => i.code === "csv_value_invalid");
  // A blank line is skipped: the row (header = row 1) differs from the line.
  assertEquals(bad.map((i) => [i.line, i.cell, i.message]), [
    [4, { row: 3, column: "cores" }, "row 3, column 'cores': 'four' is not an integer"],
  ]);
  assertEquals(r.graph.getResource("host", "db")?.properties.cores, "four");
});

Deno.test("MP31 the load and the write path share one allowed_values comparison", () => {
  const declaration: AssetDeclaration = {
    file: "host.csv",
    layer: "data",
    columns: new Map([["port", { type: "integer", required: false, allowedValues: ["80"] }]]),
  };
  // A declaration written as strings accepts the typed value and vice versa.
  assertEquals(allowedValueError(80, ["80"]), undefined);
  assertEquals(allowedValueError("80", [80]), undefined);
  assertEquals(allowedValueError(["a", "x"], ["a"]), `"x" is not one of ["a"]`);
  assertEquals(allowedValueError("x", undefined), undefined);
  checkDeclaredColumns({ name: "web", port: "80" }, declaration, "host.csv");
  const e = assertThrows(
    () => checkDeclaredColumns({ name: "web", port: "81" }, declaration, "host.csv, row 'web'"),
    WriteError,
  );
  assertEquals(e.message, `host.csv, row 'web': column 'port': 81 is not one of ["80"]`);
});
