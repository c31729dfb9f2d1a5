/** Pure helpers: page combination (GN24), CSV shaping (GN15), body parsing (GN13), secrets (GN8, GN16). */
import { assertEquals } from "../_assert.ts";
import { combinePages, parseBody, serializeTarget, toCsv } from "../../lib/generators/output.ts";
import {
  chainSecretProviders,
  envSecretProvider,
  secretEnvName,
  SecretMasker,
} from "../../lib/generators/mod.ts";

Deno.test("GN24 arrays concatenate, objects merge (later wins), a mix appends objects as elements", () => {
  assertEquals(combinePages([[1], [2], []]), [1, 2]);
  assertEquals(combinePages([{ a: 1, b: 1 }, { b: 2 }]), { a: 1, b: 2 });
  assertEquals(combinePages([[1], { a: 1 }, [2]]), [1, { a: 1 }, 2]);
  assertEquals(combinePages([{ only: true }]), { only: true });
});

Deno.test("GN15 CSV: name first, first-seen key order, arrays joined, nested objects JSON, quoting", () => {
  assertEquals(
    toCsv([{ id: 1, name: "a, b" }, { name: "c", note: 'say "hi"', list: [1, { x: 1 }] }]),
    'name,id,note,list\n"a, b",1,,\nc,,"say ""hi""","1,{""x"":1}"\n',
  );
  assertEquals(toCsv([1, 2]), undefined);
  assertEquals(serializeTarget("assets/a.csv", "plain text"), "plain text");
  assertEquals(serializeTarget("input/a.json", "s"), '"s"\n');
});

Deno.test("GN13 bodies: JSON first, CSV by content type or .csv URL, else text", () => {
  assertEquals(parseBody('{"a":1}', "text/plain", "http://h/x"), { a: 1 });
  assertEquals(parseBody("a,b\n1,2\n", "text/csv", "http://h/x"), [{ a: "1", b: "2" }]);
  assertEquals(parseBody("a,b\n1,2\n", null, "http://h/x.csv?q=1"), [{ a: "1", b: "2" }]);
  assertEquals(parseBody("hello", null, "http://h/x"), "hello");
});

Deno.test("GN16 env-backed secrets: GRAPHSVC_SECRET_<COLLECTION>_<SECRET>, chained providers", async () => {
  assertEquals(secretEnvName("aws-prod", "api.key/2"), "GRAPHSVC_SECRET_AWS_PROD_API_KEY_2");
  const first = envSecretProvider({ GRAPHSVC_SECRET_A_B: "from-vault" });
  const second = envSecretProvider({ GRAPHSVC_SECRET_A_B: "from-env", GRAPHSVC_SECRET_A_C: "c" });
  const chain = chainSecretProviders(first, second);
  assertEquals(await chain.resolve("a", "b"), "from-vault");
  assertEquals(await chain.resolve("a", "c"), "c");
  assertEquals(await chain.resolve("a", "d"), undefined);
  assertEquals(await envSecretProvider({ GRAPHSVC_SECRET_A_E: "" }).resolve("a", "e"), undefined);
});

Deno.test("GN8 the masker replaces every secret (longest first, URL-encoded too)", () => {
  const m = new SecretMasker();
  m.add("ab");
  m.add("abc d");
  m.add("");
  assertEquals(m.mask("x abc d y ab z abc%20d"), "x *** y *** z ***");
});
