import { assertEquals, assertExtError, ext } from "./_helpers.ts";

const { filters } = ext();
const sha = (v: unknown) => filters.sha256(v, {});
const b64 = (v: unknown) => filters.base64_encode(v, {});
const hmac = (v: unknown, args: Record<string, unknown>) => filters.hmac_sha256(v, args);

async function webSha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("T29 sha256: FIPS 180-2 vectors, lowercase hex", () => {
  assertEquals(sha(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  assertEquals(sha("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

Deno.test("T29 sha256: UTF-8 of unicode text (cross-checked with WebCrypto)", async () => {
  for (const s of ["Zürich 🏔", "日本語", "a\u0000b", "\u{1F600}".repeat(100)]) {
    assertEquals(sha(s), await webSha256(s), s);
  }
  assertEquals(sha("Zürich 🏔"), "5a1e973114056370b2aee05f06873434f061315084024e4a469d7e3d68655856");
});

Deno.test("T29 sha256: corpus key template `[address] | json_encode | sha256`", () => {
  // json_encode of ["1.2.3.4"] is the string '["1.2.3.4"]'.
  assertEquals(
    sha('["1.2.3.4"]'),
    "02677b3f55a29234719f31e5a75d36c9df09383dc35dc1121958be6ca4e2138f",
  );
});

Deno.test("T29 sha256: public_dns mx/srv name_template keys (typed integer columns)", () => {
  // Verified against real Tera's json_encode output (tests/template/cases/corpus_snippets.jsonl).
  const mx = "b80ae44e0a2d630712d28cb4409b3921da25f2e2fc0851856d2f8fa0eab0bd94";
  assertEquals(sha('["akp-ch.mail.protection.outlook.com",10]'), mx);
  assertEquals(sha(["akp-ch.mail.protection.outlook.com", 10]), mx);
  assertEquals(
    sha(["sipfed.online.lync.com", 5061, 100, 1]),
    "baf31f47c9fd160a22d7e7d0668e8b3e6c3306c6763128e815bf88a4a01699c5",
  );
});

Deno.test("T29 sha256: non-strings hash their compact JSON (keys sorted like json_encode)", () => {
  assertEquals(sha(["1.2.3.4"]), sha('["1.2.3.4"]'));
  assertEquals(
    sha({ b: true, a: [1, "x"] }),
    "c817ea2211dc960ff318c03b8414e1c9f63f6010af61d11cca0cf7f920ac9dae",
  );
  assertEquals(sha(42), sha("42"));
  assertEquals(sha(true), sha("true"));
  assertEquals(sha(null), sha("null"));
});

Deno.test("T29 sha256: engine values are converted with toJSON / injected toJson", () => {
  const lazy = { toJSON: () => ({ a: 1 }) };
  assertEquals(sha(lazy), sha('{"a":1}'));
  const custom = ext({ toJson: (v) => (v instanceof Map ? Object.fromEntries(v) : v) });
  assertEquals(custom.filters.sha256(new Map([["a", 1]]), {}), sha('{"a":1}'));
});

Deno.test("T30 base64_encode: standard alphabet with padding, UTF-8", () => {
  assertEquals(b64(""), "");
  assertEquals(b64("f"), "Zg==");
  assertEquals(b64("fo"), "Zm8=");
  assertEquals(b64("foo"), "Zm9v");
  assertEquals(b64("héllo €"), "aMOpbGxvIOKCrA==");
  assertEquals(b64("\u{FB}\u{FF}\u{FE}"), "w7vDv8O+"); // '+' from the standard alphabet
  assertEquals(b64("?>?"), "Pz4/"); // '/' from the standard alphabet
});

Deno.test("T30 base64_encode: non-strings are JSON-serialised first", () => {
  assertEquals(b64({ a: 1 }), "eyJhIjoxfQ==");
  assertEquals(b64([1, 2]), b64("[1,2]"));
  assertEquals(b64(7), b64("7"));
});

Deno.test("T30 base64_encode: large input (chunked conversion)", () => {
  const big = "x".repeat(100_000);
  const out = b64(big) as string;
  assertEquals(out.length, Math.ceil(100_000 / 3) * 4);
  assertEquals(atob(out), big);
});

Deno.test("T31 hmac_sha256: RFC 4231 test case 2, hex default", () => {
  assertEquals(
    hmac("what do ya want for nothing?", { key: "Jefe" }),
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
  );
  assertEquals(
    hmac("msg", { key: "k", encoding: "hex" }),
    "bf1a0c1242929b6464a6c0a9ac6298a67e09bd1cd4ef1f182ce0141691fc17a0",
  );
});

Deno.test("T31 hmac_sha256: base64 encoding, UTF-8 key and message (GN17 signature)", () => {
  assertEquals(
    hmac("GET\n/api", { key: "schlüssel", encoding: "base64" }),
    "VIgSoHDu4T151gtngSh6Fbd93WW8bchQf/mcs0RZPKM=",
  );
});

Deno.test("T31 hmac_sha256: bad arguments", () => {
  assertExtError(() => hmac("m", {}), "hmac_sha256", "key", "missing");
  assertExtError(() => hmac("m", { key: 5 }), "hmac_sha256", "key");
  assertExtError(() => hmac("m", { key: "k", encoding: "base32" }), "hmac_sha256", "encoding");
});
