/**
 * `--module-params` values (modules-and-params.md MP26): JSON literal, `@file` in JSON or TOML
 * (by extension), `k=v` pairs; bad values are ModuleParamsErrors (exit 2, CL21). Pure.
 */
import { assertEquals, assertThrows } from "../_assert.ts";
import { ModuleParamsError, parseModuleParams } from "../../lib/cli/module_params.ts";

const files: Record<string, string> = {
  "p.json": '{"stage": "PROD", "replicas": 3}',
  "p.toml": 'stage = "PROD"\nreplicas = 3\nzones = ["a", "b"]\n',
  "bad.toml": "stage = \n",
};
const read = (path: string) => files[path];

Deno.test("MP26 @file holds a JSON object, or TOML when the name ends in .toml", () => {
  assertEquals(parseModuleParams("@p.json", read), { stage: "PROD", replicas: 3 });
  assertEquals(parseModuleParams("@p.toml", read), {
    stage: "PROD",
    replicas: 3,
    zones: ["a", "b"],
  });
  assertThrows(() => parseModuleParams("@bad.toml", read), ModuleParamsError, "not valid TOML");
  assertThrows(() => parseModuleParams("@none.toml", read), ModuleParamsError, "cannot read");
});

Deno.test("MP26 JSON literals and k=v pairs (values stay strings)", () => {
  assertEquals(parseModuleParams('{"a": true}', read), { a: true });
  assertEquals(parseModuleParams("a=true,b=3", read), { a: "true", b: "3" });
  assertThrows(() => parseModuleParams("{bad", read), ModuleParamsError);
});
