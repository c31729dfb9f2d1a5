/**
 * Rendering the templated fields of a generator (reference GN9, GN16, T1, T2, T11, T32): the
 * variables `env`, `params` (and each parameter at top level), `secrets`, `target_input` /
 * `target_asset`, `cursor`, `response`; the inline vault form `${vault:c#s}` (before Tera) and
 * the function `vault(collection=, secret=)`, both resolved through a {@link SecretProvider}.
 *
 * Tera is synchronous and secret providers are not: a template that calls `vault()` is rendered
 * once to learn which secrets it asks for, they are resolved, and it is rendered again.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { TemplateEnvironment } from "../template/mod.ts";
import { createEngineExtensions, substituteInlineVault } from "../template/extensions/mod.ts";
import type { SecretMasker, SecretProvider } from "./secrets.ts";

/** Variables of one generator run. */
export interface RenderScope {
  /** Process environment (GN9 `env.*`). */
  env: Readonly<Record<string, string>>;
  /** Resolved module parameters. */
  params: Readonly<Record<string, JsonValue>>;
  /** `vault_secrets` plaintexts. */
  secrets: Readonly<Record<string, string>>;
  /** `target_input` or `target_asset` → absolute path. */
  target: Readonly<Record<string, string>>;
}

/** A secret that no provider knows (GN16): the request is never sent. */
export class SecretNotFoundError extends Error {
  /** @param collection vault collection @param secret secret name */
  constructor(readonly collection: string, readonly secret: string) {
    super(`secret '${secret}' of collection '${collection}' cannot be resolved`);
    this.name = "SecretNotFoundError";
  }
}

const INLINE = /\$\{vault:([^#}]+)#([^}]+)\}/g;

/**
 * Renders generator templates with secrets; every resolved secret is registered with the masker.
 *
 * @example
 * ```ts
 * import { GeneratorTemplates } from "./render.ts";
 * import { envSecretProvider, SecretMasker } from "./secrets.ts";
 * const t = new GeneratorTemplates(envSecretProvider({ GRAPHSVC_SECRET_APP_KEY: "k" }), new SecretMasker(), {});
 * const scope = { env: {}, params: { stage: "DEV" }, secrets: {}, target: {} };
 * await t.render("{{ stage }}-${vault:app#key}", scope, "url", { vault: true }); // "DEV-k"
 * ```
 */
export class GeneratorTemplates {
  readonly #provider: SecretProvider;
  readonly #masker: SecretMasker;
  readonly #cache = new Map<string, string>();
  #misses: [string, string][] | undefined;
  readonly #withVault: TemplateEnvironment;
  readonly #plain: TemplateEnvironment;

  /**
   * @param provider secret provider
   * @param masker masker to register resolved values with
   * @param env environment visible to `get_env`
   */
  constructor(provider: SecretProvider, masker: SecretMasker, env: Record<string, string>) {
    this.#provider = provider;
    this.#masker = masker;
    const resolver = (collection: string, secret: string): string | undefined => {
      const hit = this.#cache.get(`${collection}#${secret}`);
      if (hit !== undefined) return hit;
      this.#misses?.push([collection, secret]);
      return this.#misses ? "" : undefined;
    };
    const make = (vaultAllowed: boolean) => {
      const ext = createEngineExtensions({ vaultAllowed, vault: resolver });
      return new TemplateEnvironment({
        filters: ext.filters,
        functions: ext.functions,
        tests: ext.tests,
        env,
      });
    };
    this.#withVault = make(true);
    this.#plain = make(false);
  }

  /** Resolves one secret (cached, masked from now on); throws {@link SecretNotFoundError}. */
  async secret(collection: string, secret: string): Promise<string> {
    const key = `${collection}#${secret}`;
    let value = this.#cache.get(key);
    if (value === undefined) {
      value = await this.#provider.resolve(collection, secret);
      if (value === undefined) throw new SecretNotFoundError(collection, secret);
      this.#cache.set(key, value);
      this.#masker.add(value);
    }
    return value;
  }

  /**
   * Renders `source` (a string without `{{`, `{%`, `{#` is returned as is, T2). `vault: true`
   * enables the inline form and `vault()` (url, payload, inject_headers: T32). `extra` adds
   * variables such as `cursor` or `response`.
   */
  async render(
    source: string,
    scope: RenderScope,
    name: string,
    options: { vault?: boolean; extra?: Record<string, unknown> } = {},
  ): Promise<string> {
    let text = source;
    if (options.vault) {
      for (const m of text.matchAll(INLINE)) await this.secret(m[1], m[2]);
      text = substituteInlineVault(text, (c, s) => this.#cache.get(`${c}#${s}`));
    }
    if (!/\{[{%#]/.test(text)) return text;
    const context: Record<string, unknown> = {
      ...scope.params,
      params: scope.params,
      env: scope.env,
      secrets: scope.secrets,
      ...scope.target,
      ...options.extra,
    };
    const env = options.vault ? this.#withVault : this.#plain;
    if (!options.vault) return env.render(text, context, name);
    // First pass learns which vault() secrets are needed; the second renders with them.
    const misses: [string, string][] = [];
    this.#misses = misses;
    try {
      const out = env.render(text, context, name);
      if (misses.length === 0) return out;
    } catch (e) {
      // A failure caused by a not-yet-resolved secret (rendered as "") is retried below.
      if (misses.length === 0) throw e;
    } finally {
      this.#misses = undefined;
    }
    for (const [c, s] of misses) await this.secret(c, s);
    return env.render(text, context, name);
  }
}
