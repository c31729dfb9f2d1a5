import { assertEquals, assertExtError, ext } from "./_helpers.ts";
import {
  BuildCounters,
  substituteInlineVault,
  vaultPlaceholder,
} from "../../../lib/template/extensions/mod.ts";

Deno.test("T21 counter: zero-based, increments per call, independent per key", () => {
  const { functions } = ext({ counters: new BuildCounters() });
  assertEquals(functions.counter({ key: "zrh" }), 0);
  assertEquals(functions.counter({ key: "zrh" }), 1);
  assertEquals(functions.counter({ key: "gva" }), 0);
  assertEquals(functions.counter({ key: "zrh" }), 2);
});

Deno.test("T21 counter: global for one build (shared store), reset for the next build", () => {
  const counters = new BuildCounters();
  const a = ext({ counters });
  const b = ext({ counters });
  assertEquals(a.functions.counter({ key: "k" }), 0);
  assertEquals(b.functions.counter({ key: "k" }), 1);
  counters.reset();
  assertEquals(a.functions.counter({ key: "k" }), 0);
  assertEquals(ext().functions.counter({ key: "k" }), 0);
});

Deno.test("T21 counter: key normalisation", () => {
  const { functions } = ext();
  const c = (key: unknown) => functions.counter({ key });
  assertEquals(c(5), 0);
  assertEquals(c("5"), 1); // number → its string
  assertEquals(c(true), 0);
  assertEquals(c("true"), 1);
  assertEquals(c({ name: "site-a", other: 1 }), 0); // object → its name
  assertEquals(c("site-a"), 1);
  assertEquals(c(["b", "a"]), 0); // array → sorted, joined with ","
  assertEquals(c(["a", "b"]), 1);
  assertEquals(c("a,b"), 2);
  assertEquals(c([{ name: "y" }, 3]), 0);
  assertEquals(c("3,y"), 1);
  assertEquals(c({ toJSON: () => ({ name: "lazy" }) }), 0);
  assertEquals(c("lazy"), 1);
});

Deno.test("T21 counter: documented example drives cidr_nth_subnet", () => {
  const { functions, filters } = ext();
  const sites = ["zrh", "gva", "zrh"];
  const out = sites.map((site) =>
    filters.cidr_nth_subnet("10.0.0.0/16", { prefix: 24, nth: functions.counter({ key: site }) })
  );
  assertEquals(out, ["10.0.0.0/24", "10.0.0.0/24", "10.0.1.0/24"]);
});

Deno.test("T21 counter: bad keys", () => {
  const { functions } = ext();
  assertExtError(() => functions.counter({}), "counter", "key", "missing");
  assertExtError(() => functions.counter({ key: null }), "counter", "key");
  assertExtError(() => functions.counter({ key: { id: 1 } }), "counter", "key", "name");
  assertExtError(() => functions.counter({ key: [{ id: 1 }] }), "counter", "key");
});

Deno.test("T32 vault: resolver gives the plaintext where allowed", () => {
  const { functions } = ext({
    vaultAllowed: true,
    vault: (c, s) => (c === "app" && s === "token" ? "s3cr3t" : undefined),
  });
  assertEquals(functions.vault({ collection: "app", secret: "token" }), "s3cr3t");
  assertExtError(
    () => functions.vault({ collection: "app", secret: "nope" }),
    "vault",
    undefined,
    "not found",
  );
});

Deno.test("T32/AC22 vault: without a vault the placeholder stays literal", () => {
  const { functions } = ext({ vaultAllowed: true });
  assertEquals(functions.vault({ collection: "app", secret: "token" }), "${vault:app#token}");
  assertEquals(vaultPlaceholder("a b", "c"), "${vault:a b#c}");
});

Deno.test("T32 vault: outside generator/action fields it is an error", () => {
  const { functions } = ext({ vault: () => "x" });
  assertExtError(
    () => functions.vault({ collection: "app", secret: "token" }),
    "vault",
    undefined,
    "only available",
  );
});

Deno.test("T32 vault: bad arguments", () => {
  const { functions } = ext({ vaultAllowed: true });
  assertExtError(() => functions.vault({ secret: "s" }), "vault", "collection");
  assertExtError(() => functions.vault({ collection: "c" }), "vault", "secret");
  assertExtError(() => functions.vault({ collection: "c", secret: 1 }), "vault", "secret");
});

Deno.test("T20 now: injected clock, RFC 3339 like chrono, timestamp", () => {
  const fixed = new Date(Date.UTC(2024, 0, 2, 3, 4, 5));
  const { functions } = ext({ clock: () => fixed });
  assertEquals(functions.now({ utc: true }), "2024-01-02T03:04:05+00:00");
  assertEquals(functions.now({ timestamp: true }), 1704164645);
  const withMs = ext({ clock: () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 70)) });
  assertEquals(withMs.functions.now({ utc: true }), "2024-01-02T03:04:05.070+00:00");
  const local = functions.now({}) as string;
  assertEquals(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/.test(local), true, local);
  assertEquals(Date.parse(local), fixed.getTime());
  assertExtError(() => functions.now({ utc: "yes" }), "now", "utc");
});

Deno.test("GN16 inline ${vault:c#s} forms are substituted before rendering", () => {
  const resolver = (c: string, s: string) => (c === "app" ? `<${s}>` : undefined);
  assertEquals(
    substituteInlineVault("u=${vault:app#user}&p=${vault:app#pass}", resolver),
    "u=<user>&p=<pass>",
  );
  assertEquals(
    substituteInlineVault("no placeholders {{ x }}", resolver),
    "no placeholders {{ x }}",
  );
  assertEquals(substituteInlineVault("${vault:app#token}", undefined), "${vault:app#token}");
  assertExtError(
    () => substituteInlineVault("${vault:other#token}", resolver),
    "vault",
    undefined,
    "not found",
  );
});
