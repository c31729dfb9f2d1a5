import { assertEquals, assertExtError, ext } from "./_helpers.ts";

const { filters, functions } = ext();
const calc = (ips: unknown) => functions.calculate_cidr({ ips });
const alloc = (cidr: unknown, host_map: unknown) => functions.allocate_subnets({ cidr, host_map });
const nth = (v: unknown, prefix: unknown, n: unknown) =>
  filters.cidr_nth_subnet(v, { prefix, nth: n });
const split = (v: unknown, n: unknown) => filters.cidr_split_n(v, { n });

Deno.test("T22 calculate_cidr: documented example", () => {
  assertEquals(calc(["172.16.3.9", "172.16.3.40"]), "172.16.3.0/26");
});

Deno.test("T22 calculate_cidr: one address is a /32, identical addresses too", () => {
  assertEquals(calc(["10.1.2.3"]), "10.1.2.3/32");
  assertEquals(calc(["10.1.2.3", "10.1.2.3"]), "10.1.2.3/32");
});

Deno.test("T22 calculate_cidr: order-independent, spans octets, reaches /0", () => {
  assertEquals(calc(["10.0.1.255", "10.0.0.0"]), "10.0.0.0/23");
  assertEquals(calc(["192.168.0.1", "192.168.255.254"]), "192.168.0.0/16");
  assertEquals(calc(["0.0.0.0", "255.255.255.255"]), "0.0.0.0/0");
  assertEquals(calc(["127.0.0.1", "128.0.0.1"]), "0.0.0.0/0");
});

Deno.test("T22 calculate_cidr: CIDR elements count with their whole range", () => {
  assertEquals(calc(["10.0.0.0/25", "10.0.0.200"]), "10.0.0.0/24");
  assertEquals(calc(["10.0.0.0/24"]), "10.0.0.0/24");
});

Deno.test("T22 calculate_cidr: IPv6 (bigint), /128 and mapped addresses", () => {
  assertEquals(calc(["2001:db8::1", "2001:db8::ff"]), "2001:db8::/120");
  assertEquals(calc(["2001:db8::1"]), "2001:db8::1/128");
  assertEquals(calc(["2001:db8:0:1::", "2001:db8:0:2::"]), "2001:db8::/62");
  assertEquals(calc(["::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"]), "::/0");
  assertEquals(calc(["::ffff:10.0.0.1", "::ffff:10.0.0.2"]), "::ffff:10.0.0.0/126");
  assertEquals(calc(["2001:DB8::A"]), "2001:db8::a/128");
});

Deno.test("T22 calculate_cidr: mixing families and bad input are errors", () => {
  assertExtError(() => calc(["10.0.0.1", "2001:db8::1"]), "calculate_cidr", "ips", "mix");
  assertExtError(() => calc([]), "calculate_cidr", "ips");
  assertExtError(() => calc(["10.0.0.256"]), "calculate_cidr", "ips");
  assertExtError(() => calc(["10.0.0.01"]), "calculate_cidr", "ips");
  assertExtError(() => calc(["fe80::1%eth0"]), "calculate_cidr", "ips");
  assertExtError(() => calc(["1::2::3"]), "calculate_cidr", "ips");
  assertExtError(() => calc([42]), "calculate_cidr", "ips");
  assertExtError(() => calc({ a: "10.0.0.1" }), "calculate_cidr", "ips");
  assertExtError(() => functions.calculate_cidr({}), "calculate_cidr", "ips");
});

Deno.test("T23 allocate_subnets: smallest blocks, larger first, ties by name, packed", () => {
  assertEquals(alloc("10.0.0.0/24", { web: 50, db: 10, mgmt: 10, x: 1 }), {
    db: "10.0.0.64/28",
    mgmt: "10.0.0.80/28",
    web: "10.0.0.0/26",
    x: "10.0.0.96/30",
  });
});

Deno.test("T23 allocate_subnets: IPv4 reserves two addresses per block", () => {
  // 14 usable hosts fit a /28 (16 - 2); 15 need a /27.
  assertEquals(alloc("10.0.0.0/24", { a: 14 }), { a: "10.0.0.0/28" });
  assertEquals(alloc("10.0.0.0/24", { a: 15 }), { a: "10.0.0.0/27" });
  assertEquals(alloc("10.0.0.0/24", { a: 254 }), { a: "10.0.0.0/24" });
  assertEquals(alloc("10.0.0.0/30", { p2p: 2 }), { p2p: "10.0.0.0/30" });
});

Deno.test("T23 allocate_subnets: result keys are in name order; empty map", () => {
  assertEquals(Object.keys(alloc("10.0.0.0/16", { zz: 500, aa: 2, mm: 100 }) as object), [
    "aa",
    "mm",
    "zz",
  ]);
  assertEquals(alloc("10.0.0.0/16", {}), {});
});

Deno.test("T23 allocate_subnets: host counts given as strings (CSV values)", () => {
  assertEquals(alloc("192.168.1.0/24", { a: "30" }), { a: "192.168.1.0/27" });
});

Deno.test("T23 allocate_subnets: IPv6 needs no reserved addresses", () => {
  assertEquals(alloc("2001:db8::/120", { a: 1, b: 2, c: 128 }), {
    a: "2001:db8::82/128",
    b: "2001:db8::80/127",
    c: "2001:db8::/121",
  });
  assertEquals(alloc("2001:db8::/64", { big: 65536 }), { big: "2001:db8::/112" });
});

Deno.test("T23 allocate_subnets: host_map that does not fit is an error", () => {
  assertExtError(
    () => alloc("10.0.0.0/24", { a: 300 }),
    "allocate_subnets",
    "host_map.a",
    "do not fit",
  );
  assertExtError(
    () => alloc("10.0.0.0/24", { a: 126, b: 126, c: 1 }),
    "allocate_subnets",
    "host_map",
    "too small",
  );
  assertExtError(() => alloc("10.0.0.0/32", { a: 1 }), "allocate_subnets", "host_map.a");
  assertExtError(() => alloc("2001:db8::/128", { a: 2 }), "allocate_subnets", "host_map.a");
});

Deno.test("T23 allocate_subnets: bad arguments", () => {
  assertExtError(() => alloc("10.0.0.0/33", { a: 1 }), "allocate_subnets", "cidr");
  assertExtError(() => alloc("banana", { a: 1 }), "allocate_subnets", "cidr");
  assertExtError(() => alloc("10.0.0.0/24", [1, 2]), "allocate_subnets", "host_map");
  assertExtError(() => alloc("10.0.0.0/24", { a: 0 }), "allocate_subnets", "host_map.a");
  assertExtError(() => alloc("10.0.0.0/24", { a: 2.5 }), "allocate_subnets", "host_map.a");
  assertExtError(() => alloc("10.0.0.0/24", { a: "many" }), "allocate_subnets", "host_map.a");
  assertExtError(() => functions.allocate_subnets({ host_map: {} }), "allocate_subnets", "cidr");
  assertExtError(
    () => functions.allocate_subnets({ cidr: "10.0.0.0/8" }),
    "allocate_subnets",
    "host_map",
  );
});

Deno.test("T24 cidr_nth_subnet: documented example and bounds", () => {
  assertEquals(nth("10.0.0.0/16", 24, 0), "10.0.0.0/24");
  assertEquals(nth("10.0.0.0/16", 24, 3), "10.0.3.0/24");
  assertEquals(nth("10.0.0.0/16", 24, 255), "10.0.255.0/24");
  assertEquals(nth("10.0.0.0/16", 16, 0), "10.0.0.0/16");
  assertEquals(nth("10.0.0.0/24", 32, 7), "10.0.0.7/32");
  assertEquals(nth("10.0.0.0/16", "26", "5"), "10.0.1.64/26");
});

Deno.test("T24 cidr_nth_subnet: host bits of the input are cleared", () => {
  assertEquals(nth("10.0.7.9/16", 24, 1), "10.0.1.0/24");
});

Deno.test("T24 cidr_nth_subnet: IPv6 including /128 and beyond 2^53 offsets", () => {
  assertEquals(nth("2001:db8::/32", 48, 258), "2001:db8:102::/48");
  assertEquals(nth("2001:db8::/64", 128, 1), "2001:db8::1/128");
  assertEquals(nth("2001:db8::/32", 64, 2 ** 32 - 1), "2001:db8:ffff:ffff::/64");
  assertEquals(nth("::/0", 1, 1), "8000::/1");
});

Deno.test("T24 cidr_nth_subnet: errors for prefix and index out of range", () => {
  assertExtError(() => nth("10.0.0.0/16", 8, 0), "cidr_nth_subnet", "prefix");
  assertExtError(() => nth("10.0.0.0/16", 33, 0), "cidr_nth_subnet", "prefix");
  assertExtError(() => nth("2001:db8::/32", 129, 0), "cidr_nth_subnet", "prefix");
  assertExtError(() => nth("10.0.0.0/16", 24, 256), "cidr_nth_subnet", "nth", "out of range");
  assertExtError(() => nth("10.0.0.0/16", 24, -1), "cidr_nth_subnet", "nth");
  assertExtError(() => nth("10.0.0.0/16", 24, 1.5), "cidr_nth_subnet", "nth");
  assertExtError(() => nth("10.0.0.0", 24, 0), "cidr_nth_subnet", "value");
  assertExtError(() => nth(42, 24, 0), "cidr_nth_subnet", "value");
  assertExtError(
    () => filters.cidr_nth_subnet("10.0.0.0/16", { nth: 1 }),
    "cidr_nth_subnet",
    "prefix",
  );
  assertExtError(
    () => filters.cidr_nth_subnet("10.0.0.0/16", { prefix: 24 }),
    "cidr_nth_subnet",
    "nth",
  );
});

Deno.test("T25 cidr_split_n: 2^ceil(log2 N) equal blocks in address order", () => {
  assertEquals(split("10.0.0.0/16", 1), ["10.0.0.0/16"]);
  assertEquals(split("10.0.0.0/16", 2), ["10.0.0.0/17", "10.0.128.0/17"]);
  assertEquals(split("10.0.0.0/16", 3), [
    "10.0.0.0/18",
    "10.0.64.0/18",
    "10.0.128.0/18",
    "10.0.192.0/18",
  ]);
  assertEquals((split("10.0.0.0/16", 5) as string[]).length, 8);
  assertEquals((split("10.0.0.0/16", 256) as string[]).at(-1), "10.0.255.0/24");
  assertEquals(split("10.0.0.0/31", 2), ["10.0.0.0/32", "10.0.0.1/32"]);
  assertEquals(split("10.0.0.0/16", "4"), [
    "10.0.0.0/18",
    "10.0.64.0/18",
    "10.0.128.0/18",
    "10.0.192.0/18",
  ]);
});

Deno.test("T25 cidr_split_n: IPv6", () => {
  assertEquals(split("2001:db8::/32", 4), [
    "2001:db8::/34",
    "2001:db8:4000::/34",
    "2001:db8:8000::/34",
    "2001:db8:c000::/34",
  ]);
  assertEquals(split("2001:db8::/127", 2), ["2001:db8::/128", "2001:db8::1/128"]);
});

Deno.test("T25 cidr_split_n: errors", () => {
  assertExtError(() => split("10.0.0.0/32", 2), "cidr_split_n", "n");
  assertExtError(() => split("2001:db8::/128", 2), "cidr_split_n", "n");
  assertExtError(() => split("10.0.0.0/8", 0), "cidr_split_n", "n");
  assertExtError(() => split("10.0.0.0/8", -3), "cidr_split_n", "n");
  assertExtError(() => split("10.0.0.0/8", 2 ** 21), "cidr_split_n", "n");
  assertExtError(() => split("10.0.0.0/8", undefined), "cidr_split_n", "n");
  assertExtError(() => split(null, 2), "cidr_split_n", "value");
  assertExtError(() => split("not-a-cidr", 2), "cidr_split_n", "value");
});

Deno.test("IPv6 formatting follows RFC 5952 as Rust prints it", () => {
  assertEquals(nth("2001:db8:0:0:1:0:0:1/128", 128, 0), "2001:db8::1:0:0:1/128");
  assertEquals(nth("2001:0:0:1::1/128", 128, 0), "2001:0:0:1::1/128");
  assertEquals(nth("2001:db8:0:1:1:1:1:1/128", 128, 0), "2001:db8:0:1:1:1:1:1/128");
  assertEquals(nth("::1/128", 128, 0), "::1/128");
  assertEquals(nth("1::/128", 128, 0), "1::/128");
  assertEquals(nth("::ffff:1.2.3.4/128", 128, 0), "::ffff:1.2.3.4/128");
  assertEquals(nth("64:ff9b::192.0.2.33/128", 128, 0), "64:ff9b::c000:221/128");
});
