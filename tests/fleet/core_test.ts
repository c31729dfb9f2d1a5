/** The fleet's web-standard core (lib/fleet/mod.ts): runs with no permissions. */
import { assert, assertEquals } from "../_assert.ts";
import {
  CommitLedger,
  forwardDecision,
  FORWARDED_HEADER,
  isWriteRequest,
  parseAuthor,
  parseMinCommit,
  SerialLock,
} from "../../lib/fleet/mod.ts";

Deno.test("ledger: a generation holds the newest commit recorded at or below it", () => {
  const ledger = new CommitLedger();
  assertEquals(ledger.at(5), undefined);
  ledger.record("a", 1);
  ledger.record("b", 4);
  ledger.record("c", 3); // recorded later for an earlier generation (a merge built first)
  assertEquals(ledger.at(0), undefined);
  assertEquals(ledger.at(2), "a");
  assertEquals(ledger.at(3), "c");
  assertEquals(ledger.at(9), "b");
});

Deno.test("writes: mutating methods on write endpoints only", () => {
  assert(isWriteRequest("POST", "/api/assets/host.csv"));
  assert(isWriteRequest("DELETE", "/api/mutations/host/h1"));
  assert(isWriteRequest("POST", "/graphql"));
  assert(isWriteRequest("PUT", "/api/module-params"));
  assert(!isWriteRequest("GET", "/api/mutations/host"));
  assert(!isWriteRequest("POST", "/api/webhook/reload"));
  assert(!isWriteRequest("POST", "/api/validate-workspace"));
});

Deno.test("forwarding: to the primary, 421 on a second hop or without a primary", () => {
  const req = new Request("http://r1:1/api/mutations/host?x=1", { method: "POST" });
  assertEquals(forwardDecision(req, "http://p:2/"), {
    forward: true,
    target: "http://p:2/api/mutations/host?x=1",
  });
  const hop = new Request("http://r1:1/api/mutations/host", {
    method: "POST",
    headers: { [FORWARDED_HEADER]: "http://r2:3" },
  });
  const looped = forwardDecision(hop, "http://p:2");
  assert(!looped.forward && looped.status === 421 && looped.reason.includes("http://r2:3"));
  const none = forwardDecision(req, undefined);
  assert(!none.forward && none.reason.includes("--replica-of"));
});

Deno.test("Min-Commit and author values are checked", () => {
  assertEquals(parseMinCommit(null), null);
  assertEquals(parseMinCommit(" ABCD12 "), "abcd12");
  assert(parseMinCommit("xyz") instanceof Error);
  assert(parseMinCommit("abc") instanceof Error);
  assertEquals(parseAuthor("Ops <ops@x.org>"), { name: "Ops", email: "ops@x.org" });
  assert(parseAuthor("ops@x.org") instanceof Error);
});

Deno.test("serial lock: tasks run one at a time, a failure does not block the next", async () => {
  const lock = new SerialLock();
  const order: string[] = [];
  let inside = 0;
  const task = (name: string, fail = false) => async () => {
    inside++;
    assertEquals(inside, 1);
    await new Promise((r) => setTimeout(r, 5));
    order.push(name);
    inside--;
    if (fail) throw new Error(name);
    return name;
  };
  const results = await Promise.allSettled([
    lock.run(task("a")),
    lock.run(task("b", true)),
    lock.run(task("c")),
  ]);
  assertEquals(order, ["a", "b", "c"]);
  assertEquals(results.map((r) => r.status), ["fulfilled", "rejected", "fulfilled"]);
});
