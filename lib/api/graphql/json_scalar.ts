/**
 * The `JSON` custom scalar (reference graphql.md G12): passes arbitrary JSON through in both
 * directions, without object typing or key sanitising.
 *
 * @module
 */

import { type ConstValueNode, GraphQLScalarType, Kind } from "graphql";
import type { JsonValue } from "../../graph/graph.ts";

function literalToJson(node: ConstValueNode): JsonValue {
  switch (node.kind) {
    case Kind.NULL:
      return null;
    case Kind.BOOLEAN:
      return node.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.LIST:
      return node.values.map(literalToJson);
    case Kind.OBJECT: {
      const out: { [key: string]: JsonValue } = {};
      for (const field of node.fields) out[field.name.value] = literalToJson(field.value);
      return out;
    }
  }
}

/** The `JSON` scalar type shared by every generated schema. */
export const GraphQLJSON: GraphQLScalarType<JsonValue, JsonValue> = new GraphQLScalarType<
  JsonValue,
  JsonValue
>({
  name: "JSON",
  description: "Arbitrary JSON value (object, array, string, number, boolean or null), " +
    "passed through unchanged.",
  specifiedByURL: "https://www.rfc-editor.org/rfc/rfc8259",
  coerceOutputValue: (value) => value as JsonValue,
  coerceInputValue: (value) => value as JsonValue,
  coerceInputLiteral: literalToJson,
});
