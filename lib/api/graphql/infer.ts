/**
 * Scalar type inference for property fields (reference graphql.md G11): one pass over the values
 * of a key accumulates a bit mask of the value kinds seen; the mask decides the field type.
 *
 * @module
 */

import type { JsonValue } from "../../graph/graph.ts";

/** Bit for `true`/`false`. */
export const KIND_BOOLEAN = 1;
/** Bit for integers in the signed 32-bit range. */
export const KIND_INT = 2;
/** Bit for any other number. */
export const KIND_FLOAT = 4;
/** Bit for strings. */
export const KIND_STRING = 8;
/** Bit for arrays whose elements are all strings (including the empty array). */
export const KIND_STRING_LIST = 16;
/** Bit for everything else: objects, mixed or nested arrays. */
export const KIND_OTHER = 32;

/** The GraphQL type a property field gets. */
export type FieldScalar = "Boolean" | "Int" | "Float" | "String" | "StringList" | "JSON";

const INT_MIN = -2147483648;
const INT_MAX = 2147483647;

/** The kind bit of one value; `null` contributes nothing (0). */
export function kindOf(value: JsonValue | undefined): number {
  switch (typeof value) {
    case "boolean":
      return KIND_BOOLEAN;
    case "number":
      return Number.isInteger(value) && value >= INT_MIN && value <= INT_MAX
        ? KIND_INT
        : KIND_FLOAT;
    case "string":
      return KIND_STRING;
    case "object": {
      if (value === null) return 0;
      if (Array.isArray(value)) {
        for (const element of value) if (typeof element !== "string") return KIND_OTHER;
        return KIND_STRING_LIST;
      }
      return KIND_OTHER;
    }
    default:
      return 0;
  }
}

/**
 * The field type for a mask of kinds (G11): a single kind maps to its scalar, integers mixed with
 * other numbers give `Float`, anything else mixed gives `JSON`. A key that only ever held `null`
 * is typed `String` (every value resolves to `null` anyway).
 */
export function scalarOfKinds(mask: number): FieldScalar {
  switch (mask) {
    case 0:
    case KIND_STRING:
      return "String";
    case KIND_BOOLEAN:
      return "Boolean";
    case KIND_INT:
      return "Int";
    case KIND_FLOAT:
    case KIND_INT | KIND_FLOAT:
      return "Float";
    case KIND_STRING_LIST:
      return "StringList";
    default:
      return "JSON";
  }
}

/** Accumulates the kinds of every key of a stream of property maps, in first-seen key order. */
export class KindCollector {
  /** Key → kind mask, in the order keys were first seen. */
  readonly kinds: Map<string, number> = new Map();

  /** Adds every entry of one property map except the key `skip`; returns the entries added. */
  add(properties: Readonly<Record<string, JsonValue>>, skip?: string): number {
    const kinds = this.kinds;
    let count = 0;
    for (const key in properties) {
      if (key === skip) continue;
      count++;
      const bit = kindOf(properties[key]);
      const seen = kinds.get(key);
      if (seen === undefined) kinds.set(key, bit);
      else if ((seen | bit) !== seen) kinds.set(key, seen | bit);
    }
    return count;
  }
}
