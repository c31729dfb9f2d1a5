// The name index of a resource type (issue 15): resources by name without a `Map`, in insertion
// order (O3 one resource per (type, name)), for any name a CSV cell can hold.
import fc from "fast-check";
import { assertEquals } from "../_assert.ts";
import { NameIndex } from "../../lib/graph/name_index.ts";

interface Named {
  name: string;
  id: number;
}

const nameArb = fc.oneof(
  fc.constantFrom("", "a", "b", "web-1", "é", "😀", "a\u0000b", "web-1 ", "1", "10"),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 4 }),
);

Deno.test("O3 the name index finds, deletes and lists names as a Map does", () => {
  const op = fc.tuple(fc.constantFrom("add", "delete", "get", "compact"), nameArb);
  fc.assert(
    fc.property(fc.array(op, { minLength: 100, maxLength: 400 }), (ops) => {
      const index = new NameIndex<Named>();
      const model = new Map<string, Named>();
      let id = 0;
      for (const [kind, name] of ops) {
        if (kind === "add") {
          if (model.has(name)) continue; // the caller adds absent names only
          const value = { name, id: id++ };
          index.add(value);
          model.set(name, value);
        } else if (kind === "delete") {
          assertEquals(index.delete(name), model.delete(name));
        } else if (kind === "compact") index.compact();
        const at = index.find(name);
        const expected = model.get(name);
        assertEquals(index.get(name), expected);
        assertEquals(
          at >= 0 ? [index.idAt(at), index.nameAt(at)] : undefined,
          expected && [
            expected.id,
            expected.name,
          ],
        );
      }
      assertEquals(index.size, model.size);
      assertEquals(index.values(), [...model.values()]);
    }),
    { numRuns: 300, seed: 15 },
  );
});

Deno.test("O3 the name index holds many names that differ in one character", () => {
  const index = new NameIndex<Named>();
  const names = Array.from({ length: 5000 }, (_, i) => `host-${i}`);
  names.forEach((name, id) => index.add({ name, id }));
  index.compact();
  for (let i = 0; i < names.length; i++) {
    // A fresh string equal to the name, as a CSV cell is.
    const at = index.find(`host-${i}`);
    assertEquals([index.idAt(at), index.nameAt(at) === names[i]], [i, true]);
  }
  assertEquals(index.find("host-5000"), -1);
  assertEquals(index.find("host-"), -1);
});
