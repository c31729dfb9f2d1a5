// Duplicate primary keys (A8): a warning for a later row of the same file, naming the line of its
// first row there; rows of another file of the same type merge without one (A14).
import { assertEquals } from "../_assert.ts";
import { buildOutputs } from "./outputs/_support.ts";

const manifest = `[module]
name = "m"
version = "1.0.0"
[assets."b.csv"]
resource_type = "a"
`;

Deno.test("A8/A14 duplicate keys warn within one file, not across files of a type", async () => {
  const r = await buildOutputs({
    "module.toml": manifest,
    "assets/a.csv": "name,v\nx,1\ny,1\nx,2\n",
    "assets/b.csv": "name,w\ny,3\nz,3\ny,4\nx,5\nz,6\n",
  });
  assertEquals(
    r.issues.map((i) => [i.code, i.file, i.line, i.message]),
    [
      [
        "csv_duplicate_key",
        "assets/a.csv",
        4,
        "duplicate primary key 'x' (first on line 2); rows merged, later values win",
      ],
      [
        "csv_duplicate_key",
        "assets/b.csv",
        4,
        "duplicate primary key 'y' (first on line 2); rows merged, later values win",
      ],
      [
        "csv_duplicate_key",
        "assets/b.csv",
        6,
        "duplicate primary key 'z' (first on line 3); rows merged, later values win",
      ],
    ],
  );
  const props = (name: string) => r.graph.getResource("a", name)?.properties;
  assertEquals(props("x"), { name: "x", v: "2", w: "5" });
  assertEquals(props("y"), { name: "y", v: "1", w: "4" });
  assertEquals(props("z"), { name: "z", w: "6" });
});

Deno.test("A8 duplicate keys are found by the rendered name_template key", async () => {
  const r = await buildOutputs({
    "module.toml": `[module]
name = "m"
version = "1.0.0"
[assets."h.csv"]
name_template = "{{ site }}"
`,
    "assets/h.csv": "name,site\na,zrh\nb,ber\nc,zrh\n",
  });
  assertEquals(r.issues.map((i) => [i.code, i.line]), [["csv_duplicate_key", 4]]);
  assertEquals(r.graph.getResource("h", "zrh")?.properties.original_name, "c");
});
