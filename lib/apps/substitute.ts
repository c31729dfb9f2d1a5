/**
 * Request-time substitution in `proxy.toml` values (reference AP12): `${env.NAME}` by plain
 * pattern replacement, then Tera (`{{ … }}`/`{% … %}`) with `env`, `params` and `request`.
 *
 * @module
 */

/** Reads one environment variable (`undefined` when unset). */
export type EnvReader = (name: string) => string | undefined;

const ENV_PLACEHOLDER = /\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}/g;
const TERA_ENV_REF = /\benv\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_]*)|\[\s*["']([^"']+)["']\s*\])/g;

/**
 * Replaces every `${env.NAME}` in `text`; an unset variable becomes `""` and is reported through
 * `onUnset` (AP12).
 *
 * @example
 * ```ts
 * import { expandEnv } from "./substitute.ts";
 * expandEnv("/acct/${env.ACCOUNT}", (n) => n === "ACCOUNT" ? "42" : undefined); // "/acct/42"
 * ```
 */
export function expandEnv(
  text: string,
  env: EnvReader,
  onUnset: (name: string) => void = () => {},
): string {
  if (!text.includes("${env.")) return text;
  return text.replace(ENV_PLACEHOLDER, (_, name: string) => {
    const value = env(name);
    if (value === undefined) {
      onUnset(name);
      return "";
    }
    return value;
  });
}

/** Whether `text` contains Tera syntax. */
export function hasTemplate(text: string): boolean {
  return text.includes("{{") || text.includes("{%");
}

/**
 * The `env` object of a request-time template: only the variables the template names (so the
 * process environment is never handed to templates whole); unset ones are `""` and reported.
 *
 * @example
 * ```ts
 * import { templateEnv } from "./substitute.ts";
 * templateEnv("Bearer {{ env.TOKEN }}", () => "t"); // { TOKEN: "t" }
 * ```
 */
export function templateEnv(
  template: string,
  env: EnvReader,
  onUnset: (name: string) => void = () => {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of template.matchAll(TERA_ENV_REF)) {
    const name = m[1] ?? m[2];
    if (name in out) continue;
    const value = env(name);
    if (value === undefined) onUnset(name);
    out[name] = value ?? "";
  }
  return out;
}

/**
 * Removes every secret value (the environment values a template or placeholder used) from a
 * message shown to clients (AP18: messages without secret values).
 */
export function scrubSecrets(message: string, secrets: Iterable<string>): string {
  let out = message;
  for (const s of secrets) if (s.length >= 3) out = out.split(s).join("***");
  return out;
}
