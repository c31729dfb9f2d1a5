/**
 * Query limits (reference graphql.md G16). The generated schema is cyclic (`a { b { a … } }`),
 * so depth, aliases and the number of returned edges are bounded.
 *
 * @module
 */

import {
  type ASTVisitor,
  type FieldNode,
  GraphQLError,
  Kind,
  Lexer,
  type OperationDefinitionNode,
  type SelectionSetNode,
  Source,
  TokenKind,
  type ValidationContext,
  type ValidationRule,
} from "graphql";
import { LimitExceededError, ResponseTooLargeError } from "./errors.ts";

/** Deepest allowed field nesting (`{ a { b } }` has depth 2); introspection is not counted. */
export const MAX_QUERY_DEPTH = 15;
/** Most aliased fields in one document. */
export const MAX_ALIASES = 100;
/** Most relation edges one request may return. */
export const MAX_RETURNED_EDGES = 10_000;
/** Largest accepted request body (bytes); the HTTP layer enforces it. */
export const MAX_BODY_BYTES = 1_048_576;
/** Longest accepted query text in a GET URL or JSON body (characters). */
export const MAX_QUERY_LENGTH = 100_000;

/** Rejects operations whose field nesting exceeds `maxDepth`. */
export function maxDepthRule(maxDepth: number = MAX_QUERY_DEPTH): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const fragmentDepths = new Map<string, Depth>();
    return {
      OperationDefinition(operation: OperationDefinitionNode) {
        const deepest = measure(context, operation.selectionSet, fragmentDepths, new Set());
        if (deepest.depth > maxDepth) {
          const name = operation.name ? ` '${operation.name.value}'` : "";
          context.reportError(
            new GraphQLError(
              `Operation${name} has depth ${deepest.depth}, which exceeds the maximum query ` +
                `depth of ${maxDepth}.`,
              { nodes: deepest.node ?? operation, extensions: { code: "QUERY_TOO_DEEP" } },
            ),
          );
        }
        return false;
      },
    };
  };
}

interface Depth {
  depth: number;
  node: FieldNode | undefined;
}

/** Depth of a selection set; fragment depths are memoised, so the walk is linear. */
function measure(
  context: ValidationContext,
  selectionSet: SelectionSetNode,
  fragmentDepths: Map<string, Depth>,
  fragmentsOnPath: Set<string>,
): Depth {
  let best: Depth = { depth: 0, node: undefined };
  for (const selection of selectionSet.selections) {
    let candidate: Depth;
    switch (selection.kind) {
      case Kind.FIELD: {
        if (selection.name.value.startsWith("__")) continue; // introspection has its own rule
        const inner = selection.selectionSet
          ? measure(context, selection.selectionSet, fragmentDepths, fragmentsOnPath)
          : { depth: 0, node: undefined };
        candidate = { depth: inner.depth + 1, node: inner.node ?? selection };
        break;
      }
      case Kind.INLINE_FRAGMENT:
        candidate = measure(context, selection.selectionSet, fragmentDepths, fragmentsOnPath);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const known = fragmentDepths.get(name);
        if (known) {
          candidate = known;
          break;
        }
        const fragment = context.getFragment(name);
        if (!fragment || fragmentsOnPath.has(name)) continue; // cycles: NoFragmentCyclesRule
        fragmentsOnPath.add(name);
        candidate = measure(context, fragment.selectionSet, fragmentDepths, fragmentsOnPath);
        fragmentsOnPath.delete(name);
        fragmentDepths.set(name, candidate);
        break;
      }
    }
    if (candidate.depth > best.depth) best = candidate;
  }
  return best;
}

/** Rejects documents with more than `maxAliases` aliased fields. */
export function maxAliasesRule(maxAliases: number = MAX_ALIASES): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    let count = 0;
    let reported = false;
    return {
      Field(node: FieldNode) {
        if (!node.alias || reported) return;
        if (++count > maxAliases) {
          reported = true;
          context.reportError(
            new GraphQLError(
              `Document uses more than ${maxAliases} aliases, which is the maximum.`,
              { nodes: node, extensions: { code: "TOO_MANY_ALIASES" } },
            ),
          );
        }
      },
    };
  };
}

/** Counts relation edges returned during one execution and fails past the limit. */
export class EdgeBudget {
  /** Edges handed out so far. */
  used = 0;
  /** True once the limit was exceeded. */
  exceeded = false;
  /** @param max most edges one request may return */
  constructor(readonly max: number = MAX_RETURNED_EDGES) {}

  /** Accounts for `n` more edges; throws {@link LimitExceededError} past the limit. */
  take(n: number): void {
    this.used += n;
    if (this.used > this.max) {
      this.exceeded = true;
      throw new LimitExceededError(
        `Query returns more than ${this.max} relation edges, which is the maximum; ` +
          "narrow it with a filter or select fewer relation fields.",
      );
    }
  }
}

/** Largest response a query may produce (bytes of the JSON body, approximately). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** Deepest nesting of brackets/braces/parentheses in a query text or of a variable value. */
export const MAX_NESTING = 256;

/**
 * Checks the bracket nesting of a query text with the lexer (no recursion), so that a literal like
 * `[[[[…]]]]` nested thousands deep is a GraphQL error instead of overflowing the recursive
 * parser. Lexical errors are left to the parser (they return `undefined` here).
 */
export function checkQueryNesting(
  query: string,
  maxNesting: number = MAX_NESTING,
): GraphQLError | undefined {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (OPENING.has(token.kind)) {
        if (++depth > maxNesting) {
          return new GraphQLError(
            `Query nests brackets deeper than ${maxNesting} levels, which is the maximum.`,
            {
              source: lexer.source,
              positions: [token.start],
              extensions: { code: "QUERY_TOO_NESTED" },
            },
          );
        }
      } else if (CLOSING.has(token.kind)) depth--;
    }
  } catch {
    return undefined; // syntax error: the parser reports it with its usual message
  }
  return undefined;
}

const OPENING = new Set<TokenKind>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<TokenKind>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** Nesting depth of a JSON value (iterative); stops counting once past `limit`. */
export function valueDepth(value: unknown, limit: number = MAX_NESTING): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (d + 1 > deepest) deepest = d + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * Bytes of response produced during one execution (an estimate of the serialised JSON); throws
 * {@link ResponseTooLargeError} past the limit, so a query stops producing output as soon as it
 * goes over instead of after building the whole response.
 */
export class ResponseBudget {
  /** Bytes accounted so far. */
  used = 0;
  /** True once the limit was exceeded. */
  exceeded = false;
  /** @param max largest response in bytes */
  constructor(readonly max: number = MAX_RESPONSE_BYTES) {}

  /** Bytes left before the limit. */
  get remaining(): number {
    return this.max - this.used;
  }

  /** Accounts for `bytes` more bytes of output. */
  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.max) {
      this.exceeded = true;
      throw new ResponseTooLargeError(this.max);
    }
  }
}
