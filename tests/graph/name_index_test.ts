// The name index of a resource type (issue 15): resources by name without a `Map`, in insertion
// order (O3 one resource per (type, name)), for any name a CSV cell can hold.
import fc from "fast-check";
import { assertEquals, assertThrows } from "../_assert.ts";
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

Deno.test("replacing: a copy whose replaced names hold the new values; the original is unchanged", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nameArb, { minLength: 1, maxLength: 60 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      fc.array(fc.nat(), { maxLength: 10 }),
      (names, deleted, replaced) => {
        const index = new NameIndex<Named & { v: number }>();
        names.forEach((name, id) => index.add({ name, id, v: 0 }));
        const model = new Map(names.map((name, id) => [name, { name, id, v: 0 }]));
        for (const i of deleted) {
          const name = names[i % names.length];
          index.delete(name);
          model.delete(name);
        }
        const before = index.values();
        const live = [...model.values()];
        const changes = live.length === 0
          ? []
          : replaced.map((i) => ({ ...live[i % live.length], v: i + 1 }));
        const copy = index.replacing(changes);
        for (const c of changes) model.set(c.name, c);
        assertEquals(copy.values(), [...model.values()]);
        for (const name of names) assertEquals(copy.get(name), model.get(name));
        assertEquals(index.values(), before);
      },
    ),
    { numRuns: 300, seed: 15 },
  );
});

Deno.test("extended: a copy with the old names renumbered and new names appended; the original is unchanged", () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(nameArb, { minLength: 1, maxLength: 80 }),
      fc.nat(),
      fc.nat(),
      fc.boolean(),
      (names, oldCount, shift, compact) => {
        const kept = names.slice(0, 1 + oldCount % names.length);
        const index = new NameIndex<Named>();
        kept.forEach((name, id) => index.add({ name, id }));
        if (compact) index.compact();
        const before = index.values();
        const values = names.map((name, i) => ({ name, id: i + shift % 7 }));
        const copy = index.extended(values)!;
        assertEquals(copy.values(), values);
        assertEquals(copy.size, names.length);
        for (const [i, name] of names.entries()) {
          const at = copy.find(name);
          assertEquals([copy.get(name), copy.idAt(at), copy.nameAt(at)], [
            values[i],
            values[i].id,
            name,
          ]);
        }
        assertEquals(index.values(), before);
        for (const name of names.slice(kept.length)) assertEquals(index.find(name), -1);
        // The copy grows on its own: one more name does not reach the original.
        if (!names.includes("extra-name")) {
          copy.add({ name: "extra-name", id: 999 });
          assertEquals([copy.get("extra-name")?.id, index.get("extra-name")], [999, undefined]);
        }
      },
    ),
    { numRuns: 300, seed: 25 },
  );
});

Deno.test("extended refuses values whose first names are not the table's, or repeat a name", () => {
  const index = new NameIndex<Named>();
  index.add({ name: "a", id: 0 });
  index.add({ name: "b", id: 1 });
  assertEquals(index.extended([{ name: "b", id: 0 }, { name: "a", id: 1 }]), undefined);
  assertEquals(index.extended([{ name: "a", id: 0 }]), undefined);
  assertThrows(
    () => index.extended([{ name: "a", id: 0 }, { name: "b", id: 1 }, { name: "a", id: 2 }]),
    Error,
    "'a' twice",
  );
  index.delete("a");
  assertEquals(index.extended([{ name: "b", id: 0 }]), undefined);
});
