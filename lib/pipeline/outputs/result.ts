/**
 * What an output body produced, and the artifact body served for an output resource
 * (reference OU5, OU6, OU11).
 *
 * Text outputs. Published modules render shell scripts with Tera and zone files with Jsonnet;
 * neither is a JSON object. Such a result is kept verbatim as the string property
 * {@link CONTENT_PROPERTY} (`content`) of the output resource — so GraphQL exposes it as
 * `content` like any other property — and is the exact artifact body. A result is text when:
 *
 * - a Jsonnet program evaluates to a string (OU6 extension), or
 * - a Tera template does not render a JSON object and the rule declares a non-JSON `mimetype`
 *   (`text/x-shellscript`, `text/plain`, `application/txt`, …).
 *
 * Everything else must be a JSON object (OU6): its keys become properties and the artifact body is
 * the pretty JSON of the properties (OU11). A Tera result that is not an object, for a rule
 * without a mimetype or with a JSON mimetype, is a build error; so is a Jsonnet result that is
 * neither an object nor a string.
 *
 * @module
 */
import type { JsonValue, Properties, Resource } from "../../graph/graph.ts";
import { RuleError } from "../rules/errors.ts";

/** Property holding the body of a text output. */
export const CONTENT_PROPERTY = "content";

/** Properties managed by the phase, never part of a JSON artifact body (OU11). */
const META = new Set(["name", "filename", "mimetype"]);

/** The interpreted result of one body evaluation. */
export type OutputResult =
  | { kind: "object"; properties: Properties }
  | { kind: "text"; text: string };

/**
 * True for JSON MIME types: `application/json` and `*+json` (OU11).
 *
 * @example
 * ```ts
 * import { isJsonMime } from "./result.ts";
 * console.log(isJsonMime("application/json"), isJsonMime("application/ld+json; charset=utf-8"), isJsonMime("text/plain")); // true true false
 * ```
 */
export function isJsonMime(mimetype: string | undefined): boolean {
  if (!mimetype) return false;
  const base = mimetype.split(";")[0].trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json");
}

/** Interprets a rendered Tera template. */
export function templateResult(text: string, mimetype: string | undefined): OutputResult {
  // Only a text that opens with `{` can be a JSON object: any other text of a rule with a text
  // mimetype is kept as is without a parse, whose thrown SyntaxError (a stack trace captured
  // per output) cost ~6 µs of each text artifact.
  if (!opensObject(text) && mimetype && !isJsonMime(mimetype)) return { kind: "text", text };
  let parsed: unknown;
  let error: string | undefined;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (isObject(parsed)) return { kind: "object", properties: parsed as Properties };
  if (mimetype && !isJsonMime(mimetype)) return { kind: "text", text };
  throw new RuleError(
    error !== undefined
      ? `template did not render valid JSON (${error}); a rule without a non-JSON mimetype must render a JSON object`
      : `template rendered JSON ${describe(parsed)}, not an object`,
    "template",
    "output_not_object",
  );
}

/** Interprets the value of a Jsonnet program. */
export function jsonnetResult(value: JsonValue): OutputResult {
  if (typeof value === "string") return { kind: "text", text: value };
  if (isObject(value)) return { kind: "object", properties: value as Properties };
  throw new RuleError(
    `jsonnet program evaluated to ${describe(value)}; expected an object or a string`,
    "jsonnet",
    "output_not_object",
  );
}

/**
 * The artifact body of an output resource (OU11): the `content` string when present, else the
 * properties without `name`, `filename`, `mimetype` as 2-space JSON plus a newline.
 *
 * @example
 * ```ts
 * import { artifactBody } from "./result.ts";
 * const body = artifactBody({ properties: { name: "n", port: 22 } } as never);
 * console.log(JSON.stringify(body)); // "{\n  \"port\": 22\n}\n"
 * ```
 */
export function artifactBody(resource: Pick<Resource, "properties">): string {
  const content = resource.properties[CONTENT_PROPERTY];
  if (typeof content === "string") return content;
  const out: Properties = {};
  for (const [k, v] of Object.entries(resource.properties)) if (!META.has(k)) out[k] = v;
  return JSON.stringify(out, null, 2) + "\n";
}

/** Whether the first character after JSON whitespace is `{`. */
function opensObject(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x7b;
  }
  return false;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return `a ${typeof v}`;
}
