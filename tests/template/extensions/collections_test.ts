import { assertEquals, assertExtError, ext } from "./_helpers.ts";

const { filters } = ext();
const jp = (v: unknown, query: string) => filters.jmespath(v, { query });

Deno.test("T26 jmespath: corpus query on a JSON string header (public_dns zone.toml)", () => {
  assertEquals(jp('["cloudflare","self-hosted"]', "length(@) > `1`"), true);
  assertEquals(jp('["cloudflare"]', "length(@) > `1`"), false);
  assertEquals(jp("[]", "length(@) > `1`"), false);
});

Deno.test("T26 jmespath: corpus header pre-filters (base-subscription, aws-region)", () => {
  const codes = { zrh: { city: "Zurich", code: "ZRH" }, gva: { city: "Geneva", code: "GVA" } };
  assertEquals(jp(codes, "values(@)[?city == 'Zurich' ] | [0]"), { city: "Zurich", code: "ZRH" });
  assertEquals(jp({ "Amazon Web Services": { id: "aws" } }, '["Amazon Web Services"]'), [{
    id: "aws",
  }]);
});

Deno.test("T26 jmespath: non-JSON strings are JMESPath strings", () => {
  assertEquals(jp("hello", "length(@)"), 5);
  assertEquals(jp("hello", "@"), "hello");
  assertEquals(jp("42", "@"), 42);
});

Deno.test("T33 jmespath: standard functions", () => {
  const data = { people: [{ n: "b", age: 30 }, { n: "a", age: 20 }, { n: "c", age: 40 }] };
  assertEquals(jp(data, "sort_by(people, &age)[*].n"), ["a", "b", "c"]);
  assertEquals(jp(data, "max_by(people, &age).n"), "c");
  assertEquals(jp(data, "people[?age > `25`].n | join(',', @)"), "b,c");
  assertEquals(jp(data, "sum(people[*].age)"), 90);
  assertEquals(jp(data, "avg(people[*].age)"), 30);
  assertEquals(jp({ a: 1, b: 2 }, "keys(@)"), ["a", "b"]);
  assertEquals(jp({ a: 1, b: 2 }, 'merge(@, `{"c": 3}`)'), { a: 1, b: 2, c: 3 });
  assertEquals(jp({ b: 2 }, "not_null(a, b)"), 2);
  assertEquals(jp({ a: "1.5" }, "to_number(a)"), 1.5);
  assertEquals(jp({ a: [1] }, "type(a)"), "array");
  assertEquals(jp({ a: "abc" }, "starts_with(a, 'ab')"), true);
  assertEquals(jp({ a: [1, 2] }, "contains(a, `2`)"), true);
  assertEquals(jp({ a: -1.5 }, "[abs(a), floor(a), ceil(a)]"), [1.5, -2, -1]);
  assertEquals(jp({ a: [3, 1] }, "map(&to_string(@), sort(a))"), ["1", "3"]);
  assertEquals(jp({}, "missing.path"), null);
});

Deno.test("T26 jmespath: engine values go through toJSON", () => {
  const lazy = { toJSON: () => ({ name: "x", rel: [{ name: "y" }] }) };
  assertEquals(jp(lazy, "rel[0].name"), "y");
});

Deno.test("T26 jmespath: syntax and runtime errors are extension errors", () => {
  assertExtError(() => jp([1], "length("), "jmespath", "query", "length(");
  assertExtError(() => jp([1], "nope(@)"), "jmespath", "query", "nope");
  assertExtError(() => jp({ a: 1 }, "length(a)"), "jmespath", "query");
  assertExtError(() => filters.jmespath([1], {}), "jmespath", "query", "missing");
  assertExtError(() => filters.jmespath([1], { query: 3 }), "jmespath", "query");
});

const servers = [
  { name: "ns1", role: "primary", port: 53, enabled: true },
  { name: "ns2", role: "secondary", port: 5353, enabled: false },
  { name: "ns3", role: "primary", port: 53, enabled: true },
  { role: "primary" },
  "not an object",
];

Deno.test("T27 select: values of `from` where `k` equals `v` (string comparison)", () => {
  assertEquals(filters.select(servers, { from: "name", match: "role=primary" }), ["ns1", "ns3"]);
  assertEquals(filters.select(servers, { from: "name", match: "port=53" }), ["ns1", "ns3"]);
  assertEquals(filters.select(servers, { from: "name", match: "enabled=false" }), ["ns2"]);
  assertEquals(filters.select(servers, { from: "name", match: "role=none" }), []);
  assertEquals(filters.select([{ a: "x=y", b: 1 }], { from: "b", match: "a=x=y" }), [1]);
  assertEquals(filters.select([{ a: "", b: 1 }], { from: "b", match: "a=" }), [1]);
});

Deno.test("T27 select: errors", () => {
  assertExtError(() => filters.select(servers, { from: "name", match: "role" }), "select", "match");
  assertExtError(() => filters.select(servers, { from: "name", match: "=x" }), "select", "match");
  assertExtError(() => filters.select(servers, { match: "a=b" }), "select", "from");
  assertExtError(() => filters.select({ a: 1 }, { from: "a", match: "a=1" }), "select", "value");
});

Deno.test("T28 intersect: input order, duplicates removed", () => {
  assertEquals(filters.intersect(["c", "a", "b", "a"], { with: ["a", "c", "z"] }), ["c", "a"]);
  assertEquals(filters.intersect([1, 2, 3], { with: [3, 1] }), [1, 3]);
  assertEquals(filters.intersect([1, "1"], { with: ["1"] }), ["1"]);
  assertEquals(filters.intersect([{ a: 1, b: 2 }, [1]], { with: [{ b: 2, a: 1 }, [1]] }), [{
    a: 1,
    b: 2,
  }, [1]]);
  assertEquals(filters.intersect([], { with: [1] }), []);
  assertEquals(filters.intersect([1], { with: [] }), []);
});

Deno.test("T28 intersect: errors", () => {
  assertExtError(() => filters.intersect([1], {}), "intersect", "with");
  assertExtError(() => filters.intersect([1], { with: "a" }), "intersect", "with");
  assertExtError(() => filters.intersect("abc", { with: ["a"] }), "intersect", "value");
});
