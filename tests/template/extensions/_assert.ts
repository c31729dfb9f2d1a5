/** Minimal assertion helpers (no std, no node types). */

function equal(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => equal(v, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ob = b as Record<string, unknown>;
  const oa = a as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(ob, k) && equal(oa[k], ob[k]));
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function assertEquals(actual: unknown, expected: unknown, msg?: string): void {
  if (!equal(actual, expected)) {
    throw new Error(`${msg ? `${msg}: ` : ""}expected ${show(expected)}, got ${show(actual)}`);
  }
}

export function assertThrows<E extends Error>(
  fn: () => unknown,
  type: new (...args: never[]) => E,
): E {
  try {
    fn();
  } catch (e) {
    if (e instanceof type) return e;
    throw new Error(
      `expected ${type.name}, got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`,
    );
  }
  throw new Error(`expected ${type.name} to be thrown, nothing was thrown`);
}
