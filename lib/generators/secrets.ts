/**
 * Secrets of generators (reference GN9, GN16): a provider interface that resolves
 * `(collection, secret)` to plaintext, the environment-backed provider, chaining (the vault is
 * consulted first once it exists), and masking of every resolved value in log lines.
 *
 * @module
 */

/**
 * Resolves a secret's plaintext; `undefined` when it does not exist.
 *
 * @example
 * ```ts
 * const fixed: SecretProvider = { resolve: (c, s) => Promise.resolve(c === "app" ? s : undefined) };
 * ```
 */
export interface SecretProvider {
  /** The plaintext of `secret` in `collection`, or `undefined`. */
  resolve(collection: string, secret: string): Promise<string | undefined>;
}

/**
 * The environment variable that holds a secret: `GRAPHSVC_SECRET_<COLLECTION>_<SECRET>`,
 * upper-cased, every character outside `A–Z` and `0–9` replaced by `_`.
 *
 * @example
 * ```ts
 * secretEnvName("aws-prod", "api.key"); // "GRAPHSVC_SECRET_AWS_PROD_API_KEY"
 * ```
 */
export function secretEnvName(collection: string, secret: string): string {
  const clean = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, "_");
  return `GRAPHSVC_SECRET_${clean(collection)}_${clean(secret)}`;
}

/**
 * A provider reading {@link secretEnvName} variables from an environment map (empty values
 * count as missing).
 *
 * @example
 * ```ts
 * const p = envSecretProvider({ GRAPHSVC_SECRET_APP_TOKEN: "t0k" });
 * await p.resolve("app", "token"); // "t0k"
 * ```
 */
export function envSecretProvider(env: Readonly<Record<string, string>>): SecretProvider {
  return {
    resolve: (collection, secret) => {
      const v = env[secretEnvName(collection, secret)];
      return Promise.resolve(v === undefined || v === "" ? undefined : v);
    },
  };
}

/**
 * A provider asking each of `providers` in turn (the first that knows the secret wins).
 *
 * @example
 * ```ts
 * const p = chainSecretProviders(envSecretProvider({}), envSecretProvider({ GRAPHSVC_SECRET_A_B: "x" }));
 * await p.resolve("a", "b"); // "x"
 * ```
 */
export function chainSecretProviders(...providers: SecretProvider[]): SecretProvider {
  return {
    async resolve(collection, secret) {
      for (const p of providers) {
        const v = await p.resolve(collection, secret);
        if (v !== undefined) return v;
      }
      return undefined;
    },
  };
}

/**
 * Replaces every registered secret value by `***` (GN8). Longer values are replaced first so a
 * secret that contains another is masked whole.
 *
 * @example
 * ```ts
 * const m = new SecretMasker();
 * m.add("s3cr3t");
 * m.mask("Bearer s3cr3t"); // "Bearer ***"
 * ```
 */
export class SecretMasker {
  #values = new Set<string>();
  #sorted: string[] = [];

  /** Registers a resolved value (empty strings are ignored). */
  add(value: string): void {
    if (value === "" || this.#values.has(value)) return;
    this.#values.add(value);
    // Secrets travel URL-encoded in query strings too (encoded once, not recursively).
    this.#values.add(encodeURIComponent(value));
    this.#sorted = [...this.#values].sort((a, b) => b.length - a.length);
  }

  /** `text` with every registered value replaced by `***`. */
  mask(text: string): string {
    let out = text;
    for (const v of this.#sorted) out = out.split(v).join("***");
    return out;
  }
}
