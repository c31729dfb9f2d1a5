/**
 * Work done once per distinct GraphQL document instead of once per request: parsing (with the
 * length, token and nesting limits) per query text, validation (the spec rules and the depth and
 * alias limits) per document and schema, the cost check per document and graph snapshot when the
 * cost cannot depend on variables; and, for read-only queries, the whole response per query text,
 * schema and snapshot. Every cache is bounded; a new snapshot or schema starts empty ones (they
 * are keyed weakly by those objects).
 *
 * @module
 */
import type { DocumentNode, ExecutionResult, GraphQLError } from "graphql";
import { LRUCache } from "lru-cache";
import { FNV_BASIS, hashSpan } from "../../graph/hash.ts";

/** Distinct query texts whose parse is remembered. */
const MAX_DOCUMENTS = 2_000;
/** Characters of query text remembered, in all. */
const MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

const parsed = new LRUCache<string, DocumentNode | ExecutionResult>({
  max: MAX_DOCUMENTS,
  maxSize: MAX_DOCUMENT_CHARS,
  sizeCalculation: (_v, key) => key.length + 1,
});

/**
 * `parse(query)` remembered by query text (an LRU): the same text gives the same document
 * object, which the validation cache then recognises.
 *
 * @example
 * ```ts
 * const parse = (q: string) => ({ kind: "Document", definitions: [], q }) as never;
 * console.log(parseOnce("{ a }", parse) === parseOnce("{ a }", parse)); // true
 * ```
 */
export function parseOnce(
  query: string,
  parse: (query: string) => DocumentNode | ExecutionResult,
): DocumentNode | ExecutionResult {
  let document = parsed.get(query);
  if (document === undefined) parsed.set(query, document = parse(query));
  return document;
}

const validated = new WeakMap<DocumentNode, WeakMap<object, readonly GraphQLError[]>>();

/**
 * `validate()` of `document` remembered per `scope` (the schema, or the schema and a snapshot
 * for checks that read the graph): documents are immutable, so the errors do not change.
 *
 * @example
 * ```ts ignore
 * const errors = validateOnce(document, schema, () => validate(schema, document, rules));
 * ```
 */
export function validateOnce(
  document: DocumentNode,
  scope: object,
  validate: () => readonly GraphQLError[],
): readonly GraphQLError[] {
  let scopes = validated.get(document);
  if (!scopes) validated.set(document, scopes = new WeakMap());
  let errors = scopes.get(scope);
  if (errors === undefined) scopes.set(scope, errors = validate());
  return errors;
}

/** A response remembered by {@link ResponseCache}. */
export interface CachedResponse {
  /** HTTP status. */
  readonly status: number;
  /** `content-type`. */
  readonly contentType: string;
  /** The serialised result. */
  readonly body: string;
}

/** Characters of responses remembered per snapshot and schema. */
const MAX_RESPONSE_CHARS = 32 * 1024 * 1024;
/** Largest single response remembered. */
const MAX_CACHED_RESPONSE = 256 * 1024;
/** Keys the doorkeeper of {@link ResponseCache} holds before it starts afresh. */
const MAX_SEEN_ONCE = 65_536;

/**
 * Whole responses of read-only queries per graph snapshot and schema, keyed by the request's
 * text (method, query string or body, accepted type). A query's result depends only on the
 * snapshot, the schema and that text, so an identical request is answered without parsing or
 * executing; only results without errors are remembered.
 *
 * A response is remembered the second time its request comes, not the first (a doorkeeper, as
 * in TinyLFU): clients that send every request once (distinct variables, distinct text) would
 * otherwise fill the cache with answers nobody asks for again and push out the ones asked for
 * all the time. The doorkeeper holds 32-bit hashes of the keys seen once; a collision only
 * admits an answer one request early.
 *
 * @example
 * ```ts
 * const cache = new ResponseCache();
 * const graph = {}, schema = {};
 * const answer = { status: 200, contentType: "application/json", body: "{}" };
 * cache.set(graph, schema, "GET ?query={a}", answer); // seen once: not remembered yet
 * console.log(cache.get(graph, schema, "GET ?query={a}")); // undefined
 * cache.set(graph, schema, "GET ?query={a}", answer);
 * console.log(cache.get(graph, schema, "GET ?query={a}")?.body); // "{}"
 * ```
 */
export class ResponseCache {
  #scopes = new WeakMap<object, WeakMap<object, LRUCache<string, CachedResponse>>>();

  /** The response remembered for `key`, if any. */
  get(graph: object, schema: object, key: string): CachedResponse | undefined {
    return this.#scopes.get(graph)?.get(schema)?.get(key);
  }

  /** Hashes of the keys seen once since the doorkeeper was last cleared. */
  #seen = new Set<number>();

  /**
   * Remembers `response` for `key`, from the second time `key` comes on (see the class doc), and
   * unless it is too large.
   */
  set(graph: object, schema: object, key: string, response: CachedResponse): void {
    if (response.body.length + key.length > MAX_CACHED_RESPONSE) return;
    const hash = hashSpan(key, 0, key.length, FNV_BASIS);
    if (!this.#seen.has(hash)) {
      if (this.#seen.size >= MAX_SEEN_ONCE) this.#seen.clear();
      this.#seen.add(hash);
      return;
    }
    let schemas = this.#scopes.get(graph);
    if (!schemas) this.#scopes.set(graph, schemas = new WeakMap());
    let entries = schemas.get(schema);
    if (!entries) {
      schemas.set(
        schema,
        entries = new LRUCache({
          maxSize: MAX_RESPONSE_CHARS,
          sizeCalculation: (v, k) => v.body.length + k.length + 1,
        }),
      );
    }
    entries.set(key, response);
  }
}
