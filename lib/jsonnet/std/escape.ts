/**
 * String escaping functions: `std.escapeStringJson`, `escapeStringPython`, `escapeStringBash`,
 * `escapeStringDollars`, `escapeStringXml`.
 *
 * @module
 */

function hex4(cp: number): string {
  return "\\u" + cp.toString(16).padStart(4, "0");
}

/**
 * Quotes a string as a JSON string literal the way Jsonnet does (control characters and
 * U+007F..U+009F as `\u00xx`, all other non-ASCII characters kept literally).
 */
export function escapeStringJson(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '"':
        out += '\\"';
        break;
      case "\\":
        out += "\\\\";
        break;
      case "\b":
        out += "\\b";
        break;
      case "\f":
        out += "\\f";
        break;
      case "\n":
        out += "\\n";
        break;
      case "\r":
        out += "\\r";
        break;
      case "\t":
        out += "\\t";
        break;
      default: {
        const cp = ch.codePointAt(0)!;
        out += cp < 32 || (cp >= 127 && cp <= 159) ? hex4(cp) : ch;
      }
    }
  }
  return out + '"';
}

/** Single-quotes a string for a POSIX shell (`'` becomes `'"'"'`). */
export function escapeStringBash(s: string): string {
  return "'" + s.replaceAll("'", `'"'"'`) + "'";
}

/** Doubles every `$` (for Terraform / Make-style interpolation). */
export function escapeStringDollars(s: string): string {
  return s.replaceAll("$", "$$$$");
}

/** Escapes `<`, `>`, `&`, `"` and `'` as XML entities. */
export function escapeStringXml(s: string): string {
  let out = "";
  for (const ch of s) {
    switch (ch) {
      case "<":
        out += "&lt;";
        break;
      case ">":
        out += "&gt;";
        break;
      case "&":
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      case "'":
        out += "&apos;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}
