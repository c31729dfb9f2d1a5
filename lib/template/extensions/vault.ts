/**
 * Function `vault(collection=C, secret=S)` (T32, GN16).
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";
import { requireString } from "./values.ts";

/**
 * Resolves a secret's plaintext; `undefined` when the secret cannot be read.
 *
 * @example
 * ```ts
 * const resolver: VaultResolver = (collection, secret) => collection === "app" ? secret : undefined;
 * ```
 */
export type VaultResolver = (collection: string, secret: string) => string | undefined;

/**
 * The inline placeholder form `${vault:<collection>#<secret>}` (GN16).
 *
 * @example
 * ```ts
 * vaultPlaceholder("app", "token"); // "${vault:app#token}"
 * ```
 */
export function vaultPlaceholder(collection: string, secret: string): string {
  return `\${vault:${collection}#${secret}}`;
}

/**
 * Evaluates `vault(...)`. Outside the allowed fields it is an error (T32). Without a resolver
 * (no vault configured) the placeholder is rendered literally (AC22: the consumer then fails
 * explicitly); a resolver that cannot find the secret is an error (GN16).
 */
export function vaultFunction(
  args: Record<string, unknown>,
  allowed: boolean,
  resolver: VaultResolver | undefined,
): string {
  const ext = "vault";
  const collection = requireString(ext, args, "collection");
  const secret = requireString(ext, args, "secret");
  if (!allowed) {
    throw new ExtensionError(
      ext,
      "only available in generator url/payload/inject_headers and action environments",
    );
  }
  if (!resolver) return vaultPlaceholder(collection, secret);
  const value = resolver(collection, secret);
  if (value === undefined) {
    throw new ExtensionError(
      ext,
      `secret ${JSON.stringify(secret)} not found in collection ${JSON.stringify(collection)}`,
    );
  }
  return value;
}

const INLINE = /\$\{vault:([^#}]+)#([^}]+)\}/g;

/**
 * Replaces the inline forms `${vault:<collection>#<secret>}` (GN16; applied to the raw text
 * before Tera renders it). Without a resolver the text is returned unchanged (AC22); with one,
 * an unknown secret is an error.
 *
 * @example
 * ```ts
 * substituteInlineVault("Bearer ${vault:app#token}", () => "s3cr3t"); // "Bearer s3cr3t"
 * ```
 */
export function substituteInlineVault(text: string, resolver: VaultResolver | undefined): string {
  if (!resolver) return text;
  return text.replace(INLINE, (_m, collection: string, secret: string) => {
    const value = resolver(collection, secret);
    if (value === undefined) {
      throw new ExtensionError(
        "vault",
        `secret ${JSON.stringify(secret)} not found in collection ${JSON.stringify(collection)}`,
      );
    }
    return value;
  });
}
