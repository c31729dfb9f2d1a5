/**
 * GraphQL name sanitising (reference graphql.md G5/G6).
 *
 * @module
 */

/** Names that a sanitised resource type or field must not take verbatim (G5). */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set([
  "String",
  "Int",
  "Float",
  "Boolean",
  "ID",
  "JSON",
  "Query",
  "Mutation",
]);

/**
 * Turns an arbitrary label into a valid GraphQL name (G5): characters outside `[_0-9A-Za-z]`
 * become `_`, a leading digit gets a `_` prefix, and a leading `__` (reserved for
 * introspection) gets an `x` prefix. The empty string becomes `_`.
 */
export function sanitizeName(raw: string): string {
  let name = raw.replace(/[^_0-9A-Za-z]/g, "_");
  if (name === "") return "_";
  if (name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57) name = "_" + name;
  if (name.startsWith("__")) name = "x" + name;
  return name;
}

/** Sanitises a resource type label into a type name; built-in names get a `_` suffix (G5). */
export function sanitizeTypeName(raw: string): string {
  const name = sanitizeName(raw);
  return RESERVED_TYPE_NAMES.has(name) ? name + "_" : name;
}

/**
 * Hands out unique names within one namespace (the fields of one object type, or the schema's
 * type names). A name already taken gets the first free numeric suffix `_2`, `_3`, … (G6).
 */
export class NameRegistry {
  #taken = new Set<string>();

  /** @param reserved names that are taken from the start */
  constructor(reserved: Iterable<string> = []) {
    for (const r of reserved) this.#taken.add(r);
  }

  /** A registry with the same names taken, claiming independently of this one. */
  copy(): NameRegistry {
    return new NameRegistry(this.#taken);
  }

  /** True when `name` is already handed out. */
  has(name: string): boolean {
    return this.#taken.has(name);
  }

  /** Claims `name`, or `name_<n>` with the smallest free n ≥ 2 when it is taken. */
  claim(name: string): string {
    if (!this.#taken.has(name)) {
      this.#taken.add(name);
      return name;
    }
    for (let n = 2;; n++) {
      const candidate = `${name}_${n}`;
      if (!this.#taken.has(candidate)) {
        this.#taken.add(candidate);
        return candidate;
      }
    }
  }
}
