/**
 * Action bundles (reference AC15–AC17, AC21, AC22): a deterministic `tar.gz` holding
 * `manifest.json`, `payload.json`, `env.json`, `files/…`, `runtime/…` and, when secrets were
 * sealed, `secrets.sealed.json`. Entries are sorted, every mtime is `created_at`, uid/gid 0.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { ConcreteAction, RenderedAction } from "./expand.ts";
import { gunzip, gzip, readTar, type TarEntry, TarError, writeTar } from "./tar.ts";

/** `manifest.json` of a bundle (AC16). */
export interface BundleManifest {
  /** Bundle format version: 1. */
  format: 1;
  /** Concrete action name. */
  action: string;
  /** Template name. */
  template: string;
  /** Module id. */
  module: string;
  /** Module version (manifest `[module] version`), `""` when unknown. */
  module_version: string;
  /** RFC 3339 creation time; also every entry's mtime. */
  created_at: string;
  /** Bundle flavour. */
  runtime: string;
  /** `job` or `service`. */
  run_mode: "job" | "service";
  /** Rendered argv arrays. */
  exec: string[][];
  /** Origin resource, `null` for global actions. */
  origin: { type: string; name: string } | null;
  /** Paths of `files/…` entries. */
  files: string[];
  /** Names of declared secrets (AC22: each needs a sealed entry). */
  secrets: string[];
  /** `[runtime.expose]`, or `null`. */
  expose: { socket: string } | null;
  /** Base64 X25519 key the secrets are sealed to, or `null`. */
  runner_key: string | null;
}

/** One sealed secret (AC21). */
export interface SealedSecret {
  /** Secret name (`[vault_secrets]` key). */
  name: string;
  /** Standard base64 of the sealed box. */
  sealed: string;
}

/** Everything a bundle is made of. */
export interface BundleParts {
  /** The concrete action. */
  action: ConcreteAction;
  /** Validated inputs, defaults applied (`payload.json`). */
  inputs: Readonly<Record<string, JsonValue>>;
  /** Rendered exec, env and file templates. */
  rendered: RenderedAction;
  /** Copied `[[file]] source` files and `[[mount]]`ed artifacts, by `files/`-relative path. */
  extraFiles?: readonly { path: string; bytes: Uint8Array }[];
  /** The module's `runtimes/` directory, by `runtimes/`-relative path. */
  runtimeFiles?: readonly { path: string; bytes: Uint8Array }[];
  /** Module version. */
  moduleVersion?: string;
  /** Creation time (RFC 3339, whole seconds are used for mtimes). */
  createdAt: string;
  /** Base64 runner key, when known. */
  runnerKey?: string;
  /** Sealed secrets (absent or empty: no `secrets.sealed.json`). */
  sealed?: readonly SealedSecret[];
}

/** An unpacked bundle. */
export interface UnpackedBundle {
  /** `manifest.json`. */
  manifest: BundleManifest;
  /** `payload.json`. */
  payload: Record<string, JsonValue>;
  /** `env.json`. */
  env: Record<string, string>;
  /** `secrets.sealed.json` (empty when absent). */
  sealed: SealedSecret[];
  /** Every entry of the archive. */
  entries: TarEntry[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function json(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value, null, 2) + "\n");
}

/**
 * Builds the bundle; returns the `tar.gz` bytes and the manifest.
 *
 * @example
 * ```ts
 * import { createBundle } from "./bundle.ts";
 * import { parseActionFile } from "./declarations.ts";
 * const t = parseActionFile('name = "x"\nexec = [["true"]]\n', "actions/x.toml", "data");
 * const b = createBundle({ action: { module: "data", name: "x", template: t }, inputs: {},
 *   rendered: { exec: [["true"]], env: [], files: [] }, createdAt: "2026-01-01T00:00:00Z" });
 * console.log(b.manifest.action, b.bytes[0] === 0x1f); // "x" true
 * ```
 */
export function createBundle(parts: BundleParts): { bytes: Uint8Array; manifest: BundleManifest } {
  const t = parts.action.template;
  const files = new Map<string, Uint8Array>();
  for (const f of parts.rendered.files) files.set(`files/${f.path}`, encoder.encode(f.text));
  for (const f of parts.extraFiles ?? []) files.set(`files/${f.path}`, f.bytes);
  const fileNames = [...files.keys()].sort();
  const manifest: BundleManifest = {
    format: 1,
    action: parts.action.name,
    template: t.name,
    module: parts.action.module,
    module_version: parts.moduleVersion ?? "",
    created_at: parts.createdAt,
    runtime: t.runtime,
    run_mode: t.runMode,
    exec: parts.rendered.exec,
    origin: parts.action.origin ?? null,
    files: fileNames,
    secrets: t.vaultSecrets.map(([n]) => n),
    expose: t.expose ?? null,
    runner_key: parts.runnerKey ?? null,
  };
  const entries: TarEntry[] = [
    { path: "manifest.json", bytes: json(manifest) },
    { path: "payload.json", bytes: json(parts.inputs) },
    { path: "env.json", bytes: json(Object.fromEntries(parts.rendered.env)) },
  ];
  for (const name of fileNames) entries.push({ path: name, bytes: files.get(name)! });
  for (const f of parts.runtimeFiles ?? []) {
    entries.push({ path: `runtime/${f.path}`, bytes: f.bytes, mode: 0o755 });
  }
  if (parts.sealed && parts.sealed.length > 0) {
    entries.push({ path: "secrets.sealed.json", bytes: json(parts.sealed) });
  }
  const mtime = Math.floor(Date.parse(parts.createdAt) / 1000);
  if (!Number.isFinite(mtime)) throw new RangeError(`created_at is not a time: ${parts.createdAt}`);
  return { bytes: gzip(writeTar(entries, mtime), mtime), manifest };
}

/**
 * Reads a bundle; throws `TarError` when it is not one.
 *
 * @example
 * ```ts ignore
 * const { manifest, payload } = unpackBundle(bytes);
 * ```
 */
export function unpackBundle(bytes: Uint8Array): UnpackedBundle {
  const entries = readTar(gunzip(bytes));
  const get = (path: string) => entries.find((e) => e.path === path);
  const parse = (path: string, required: boolean) => {
    const e = get(path);
    if (!e) {
      if (required) throw new TarError(`bundle has no ${path}`);
      return undefined;
    }
    try {
      return JSON.parse(decoder.decode(e.bytes));
    } catch {
      throw new TarError(`bundle entry ${path} is not JSON`);
    }
  };
  const manifest = parse("manifest.json", true) as BundleManifest;
  if (manifest?.format !== 1) throw new TarError("unknown bundle format");
  return {
    manifest,
    payload: parse("payload.json", false) ?? {},
    env: parse("env.json", false) ?? {},
    sealed: parse("secrets.sealed.json", false) ?? [],
    entries,
  };
}

/**
 * Names of secrets the manifest lists without a sealed entry (AC22): a runner refuses to start
 * such a bundle (error `secrets_unavailable`).
 *
 * @example
 * ```ts ignore
 * missingSecrets(manifest, sealed); // ["DB_PASSWORD"]
 * ```
 */
export function missingSecrets(
  manifest: BundleManifest,
  sealed: readonly SealedSecret[],
): string[] {
  const have = new Set(sealed.map((s) => s.name));
  return manifest.secrets.filter((n) => !have.has(n));
}
