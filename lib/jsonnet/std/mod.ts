/**
 * The pure part of the Jsonnet standard library: every std function whose arguments are fully
 * forced JSON values, implemented in plain TypeScript. The evaluator looks functions up in
 * {@link pureStd}, binds positional and named arguments to `params`, forces them deeply, calls
 * `fn` and turns a thrown {@link StdError} into a located runtime error.
 *
 * @example
 * ```ts
 * import { pureStd } from "./mod.ts";
 * pureStd.format.fn("%-5s|%03d", ["ab", 7]); // "ab   |007"
 * ```
 *
 * @module
 */
import type { JsonValue, PureStdFunction, PureStdTable } from "../json_value.ts";
import { encodingFunctions } from "./encoding.ts";
import { StdError } from "./errors.ts";
import {
  escapeStringBash,
  escapeStringDollars,
  escapeStringJson,
  escapeStringXml,
} from "./escape.ts";
import { format } from "./format.ts";
import {
  manifestIni,
  manifestJsonEx,
  manifestPython,
  manifestPythonVars,
  manifestXmlJsonml,
  manifestYamlDoc,
  manifestYamlStream,
} from "./manifest.ts";
import { mathFunctions } from "./math.ts";
import { stringFunctions } from "./strings.ts";
import { parseYaml } from "./yaml.ts";
import { toStringValue } from "./to_string.ts";
import { manifestTomlEx } from "./toml.ts";
import { typeOf } from "./values.ts";

export { StdError } from "./errors.ts";
export type {
  JsonArray,
  JsonObject,
  JsonPrimitive,
  JsonValue,
  PureStdFunction,
  PureStdTable,
} from "../json_value.ts";

type Fn = (...args: JsonValue[]) => JsonValue;

/** Official parameter names of each pure std function (positional order). */
const PARAMS: Record<string, string[]> = {
  // strings
  toString: ["a"],
  substr: ["str", "from", "len"],
  startsWith: ["a", "b"],
  endsWith: ["a", "b"],
  lstripChars: ["str", "chars"],
  rstripChars: ["str", "chars"],
  stripChars: ["str", "chars"],
  trim: ["str"],
  stringChars: ["str"],
  split: ["str", "c"],
  splitLimit: ["str", "c", "maxsplits"],
  splitLimitR: ["str", "c", "maxsplits"],
  strReplace: ["str", "from", "to"],
  asciiUpper: ["str"],
  asciiLower: ["str"],
  equalsIgnoreCase: ["str1", "str2"],
  isEmpty: ["str"],
  findSubstr: ["pat", "str"],
  lines: ["arr"],
  parseInt: ["str"],
  parseOctal: ["str"],
  parseHex: ["str"],
  // math
  pow: ["x", "n"],
  floor: ["x"],
  ceil: ["x"],
  sqrt: ["x"],
  sin: ["x"],
  cos: ["x"],
  tan: ["x"],
  asin: ["x"],
  acos: ["x"],
  atan: ["x"],
  atan2: ["y", "x"],
  log: ["x"],
  log2: ["x"],
  log10: ["x"],
  exp: ["x"],
  deg2rad: ["x"],
  rad2deg: ["x"],
  hypot: ["a", "b"],
  mantissa: ["x"],
  exponent: ["x"],
  modulo: ["a", "b"],
  abs: ["n"],
  sign: ["n"],
  max: ["a", "b"],
  min: ["a", "b"],
  clamp: ["x", "minVal", "maxVal"],
  round: ["x"],
  isEven: ["x"],
  isOdd: ["x"],
  isInteger: ["x"],
  isDecimal: ["x"],
  char: ["n"],
  codepoint: ["str"],
  // encoding
  base64: ["input"],
  base64Decode: ["str"],
  base64DecodeBytes: ["str"],
  encodeUTF8: ["str"],
  decodeUTF8: ["arr"],
  md5: ["s"],
  sha1: ["s"],
  sha256: ["s"],
  sha512: ["s"],
  sha3: ["s"],
  parseJson: ["str"],
};

function table(): PureStdTable {
  const fns: Record<string, Fn> = {
    ...stringFunctions,
    ...mathFunctions,
    ...encodingFunctions,
  };
  const out: PureStdTable = {};
  for (const [name, fn] of Object.entries(fns)) {
    const params = PARAMS[name];
    if (!params) throw new Error(`pure std function ${name} has no parameter list`);
    out[name] = { params, fn };
  }
  const add = (name: string, params: string[], fn: Fn, required = params.length) => {
    const entry: PureStdFunction = { params, fn };
    if (required !== params.length) entry.required = required;
    out[name] = entry;
  };
  const str = (v: JsonValue) => toStringValue(v);
  const bool = (v: JsonValue, dflt: boolean, name: string): boolean => {
    if (v === undefined) return dflt;
    if (typeof v !== "boolean") throw new StdError(`${name} must be a boolean, got ${typeOf(v)}`);
    return v;
  };
  add("format", ["str", "vals"], (s, vals) => {
    if (typeof s !== "string") {
      throw new StdError(`std.format first parameter should be a string, got ${typeOf(s)}`);
    }
    return format(s, vals);
  });
  add("escapeStringJson", ["str"], (s) => escapeStringJson(str(s)));
  add("escapeStringPython", ["str"], (s) => escapeStringJson(str(s)));
  add("escapeStringBash", ["str"], (s) => escapeStringBash(str(s)));
  add("escapeStringDollars", ["str"], (s) => escapeStringDollars(str(s)));
  add("escapeStringXml", ["str"], (s) => escapeStringXml(str(s)));
  add("manifestJson", ["value"], (v) => manifestJsonEx(v, "    "));
  add("manifestJsonMinified", ["value"], (v) => manifestJsonEx(v, "", "", ":"));
  add(
    "manifestYamlDoc",
    ["value", "indent_array_in_object", "quote_keys"],
    (v, ia, qk) =>
      manifestYamlDoc(
        v,
        bool(ia, false, "indent_array_in_object"),
        bool(qk, true, "quote_keys"),
      ),
    1,
  );
  add(
    "manifestYamlStream",
    ["value", "indent_array_in_object", "c_document_end", "quote_keys"],
    (v, ia, de, qk) =>
      manifestYamlStream(
        v,
        bool(ia, false, "indent_array_in_object"),
        bool(de, true, "c_document_end"),
        bool(qk, true, "quote_keys"),
      ),
    1,
  );
  add("manifestIni", ["ini"], manifestIni);
  add("manifestPython", ["v"], manifestPython);
  add("manifestPythonVars", ["conf"], manifestPythonVars);
  add("manifestXmlJsonml", ["value"], manifestXmlJsonml);
  add("manifestToml", ["value"], (v) => manifestTomlEx(v, "  "));
  add("manifestTomlEx", ["value", "indent"], (v, ind) => {
    if (typeof ind !== "string") {
      throw new StdError(`manifestTomlEx indent should be a string, got ${typeOf(ind)}`);
    }
    return manifestTomlEx(v, ind);
  });
  add("parseYaml", ["str"], parseYaml);
  return out;
}

/**
 * The pure std functions keyed by std name (without `std.`). Optional parameters arrive as
 * `undefined` when the caller omitted them.
 *
 * @example
 * ```ts
 * import { pureStd } from "./mod.ts";
 * const f = pureStd.manifestYamlDoc;
 * f.params; // ["value", "indent_array_in_object", "quote_keys"]
 * f.fn({ a: [1, 2] }); // '"a":\n- 1\n- 2'
 * ```
 */
export const pureStd: PureStdTable = table();
