/**
 * Compiled execution of hot read-only queries (issue 26): a query document executed
 * {@link COMPILE_AFTER} times on one schema is compiled by graphql-jit into a function that
 * resolves exactly that selection, without graphql-js's per-field collection, argument coercion
 * and completion dispatch (~20 → ~2 µs for a small query, bench/serving_cpu_bench.ts). This is
 * the scheme of Mercurius's `jit` option: documents seen once never pay for compiling.
 *
 * What is compiled, and why only that:
 * - `query` operations only: mutations write (their resolvers are asynchronous and must see the
 *   request's abort signal) and subscriptions stream, which graphql-jit does not do;
 * - documents without directives: graphql-jit's `@skip`/`@include` on fragment spreads differs
 *   from graphql-js unless an experimental flag is set, and `@defer`/`@stream` it does not know;
 * - documents with a variable inside an argument literal (`filter: { name: { eq: $k } }`):
 *   graphql-jit evaluates literals at compile time, without the request's variables;
 * - documents whose string literals hold graphql-jit's value markers (a code injection, see
 *   `JIT_MARKER`);
 * - only where the runtime allows code generation: edge runtimes (workerd) refuse
 *   `new Function`, and then every document stays on graphql-js.
 *
 * Callers keep graphql-js as the reference: a compiled run whose result carries errors is run
 * again by graphql-js (`execute.ts`), so error messages, paths and partial data are exactly its
 * own; only error-free results come from the compiled function. The cache holds one entry per
 * document (the parse cache of `document_cache.ts` bounds the documents) per schema, weakly.
 *
 * @module
 */
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import {
  BREAK,
  type DocumentNode,
  getOperationAST,
  type GraphQLSchema,
  Kind,
  type ValueNode,
  visit,
} from "graphql";

/** Executions of a document (per schema and operation name) before it is compiled. */
export const COMPILE_AFTER = 2;

interface Entry {
  /** Executions counted so far (stops counting once compiled or refused). */
  runs: number;
  /** The compiled query; `null` when the document cannot or may not be compiled. */
  compiled?: CompiledQuery | null;
}

const entries = new WeakMap<DocumentNode, WeakMap<GraphQLSchema, Map<string, Entry>>>();
/** False once the runtime refused to generate code (then nothing is compiled again). */
let codeGeneration = true;

/**
 * The compiled form of `document`'s operation on `schema`, once the document is hot; `undefined`
 * while it is not (yet), or when it is not of a compilable kind (see the module doc). Each call
 * counts as one execution. The schema's resolvers must be final (they are captured).
 *
 * @example
 * ```ts ignore
 * const compiled = compiledQueryFor(schema, document, null);
 * const result = compiled ? await compiled.query(root, context, variables) : await execute(...);
 * ```
 */
export function compiledQueryFor(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledQuery | undefined {
  if (!codeGeneration) return undefined;
  let schemas = entries.get(document);
  if (!schemas) entries.set(document, schemas = new WeakMap());
  let operations = schemas.get(schema);
  if (!operations) schemas.set(schema, operations = new Map());
  const name = operationName ?? "";
  let entry = operations.get(name);
  if (!entry) operations.set(name, entry = { runs: 0 });
  if (entry.compiled !== undefined) return entry.compiled ?? undefined;
  if (++entry.runs <= COMPILE_AFTER) return undefined;
  entry.compiled = compile(schema, document, operationName);
  return entry.compiled ?? undefined;
}

function compile(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
): CompiledQuery | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== "query" || unsafeToCompile(document)) return null;
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined, {
      // Errors of a compiled run are discarded (graphql-js runs again): no stacks to capture.
      disablingCapturingStackErrors: true,
    });
    return isCompiledQuery(compiled) ? compiled : null;
  } catch (e) {
    // workerd and other hosts without eval: EvalError. Anything else: this document only.
    if (e instanceof EvalError) codeGeneration = false;
    return null;
  }
}

/**
 * graphql-jit writes argument literals into the generated code as JSON, then turns the markers
 * it uses for NaN, ±Infinity and dates back into code by text replacement
 * (`"__MAGIC_DATE__<uuid>…"` → `new Date(…)`). The markers are constants of its source, so a
 * string literal that contains one would be turned into code: `{ zone(filter: { name: { eq:
 * "__MAGIC_DATE__…0)&&(anything)&&(0" } }) { name } }` runs `anything` when compiled (verified
 * on 0.8.9). Such documents are never compiled; nor, for the reasons in the module doc, are
 * documents with directives.
 */
const JIT_MARKER = "__MAGIC_";

function unsafeToCompile(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    [Kind.DIRECTIVE]() {
      found = true;
      return BREAK;
    },
    [Kind.STRING](node) {
      if (!node.value.includes(JIT_MARKER)) return;
      found = true;
      return BREAK;
    },
    // graphql-jit evaluates argument literals once, at compile time, without the variables: a
    // variable inside a literal (`filter: { name: { eq: $k } }`, a JSON scalar) would read as
    // absent in every request. Variables as whole argument values (`filter: $f`) are fine.
    [Kind.OBJECT](node) {
      if (!containsVariable(node)) return;
      found = true;
      return BREAK;
    },
    [Kind.LIST](node) {
      if (!containsVariable(node)) return;
      found = true;
      return BREAK;
    },
  });
  return found;
}

function containsVariable(node: ValueNode): boolean {
  if (node.kind === Kind.VARIABLE) return true;
  if (node.kind === Kind.LIST) return node.values.some(containsVariable);
  if (node.kind === Kind.OBJECT) return node.fields.some((f) => containsVariable(f.value));
  return false;
}
