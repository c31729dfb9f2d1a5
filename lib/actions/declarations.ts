/**
 * Reading action files (reference AC1, AC2): `actions/*.toml` of a module or of the data
 * directory, validated into {@link ActionTemplate}s. Every error is an {@link ActionConfigError}
 * located at `file:line:col`.
 *
 * Besides the keys of AC2 the form used by published modules is accepted: `[input] properties =
 * { x = { type, default, description } }` (and `required = [...]`), `[runtime] engine = "nix"`
 * with `flake`/`files`, and `[[mount]]` tables that put an output artifact into the bundle.
 * Input tables are read by the parser contracts share (`./inputs.ts`, AC6, AC41), which refuses
 * unknown keys and type-checks `default` and `allowed_values`; any other unknown key is ignored
 * with a located `unknown_key` warning ({@link ActionTemplate.warnings}).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import { compileConditions, type Condition } from "../pipeline/rules/conditions.ts";
import { checkKeys, type KeySpec } from "../pipeline/rules/known_keys.ts";
import { ActionConfigError } from "./errors.ts";
import { locateKey } from "./locate.ts";
import { type InputDeclaration, parseInputDeclaration } from "./inputs.ts";

export type { InputDeclaration, InputType } from "./inputs.ts";

/** A `[[file]]` entry (AC2): rendered `template` or copied `source`. */
export interface FileDeclaration {
  /** Path inside the bundle's `files/`. */
  path: string;
  /** Template rendered into the file. */
  template?: string;
  /** Module-relative path of a file copied as is. */
  source?: string;
}

/** A `[[mount]]` entry: an output artifact placed into the bundle's `files/`. */
export interface MountDeclaration {
  /** Output resource type. */
  resourceType: string;
  /** Origin type of the artifact, when given. */
  originResource?: string;
  /** Artifact file name. */
  filename: string;
  /** Path inside the bundle's `files/`. */
  mountPath: string;
}

/** A validated action file: a template (with `origin_resource`) or a global action. */
export interface ActionTemplate {
  /** Template name (`name`). */
  name: string;
  /** Declaring layer: `data` or the module id. */
  module: string;
  /** Display path of the file. */
  file: string;
  /** Documentation. */
  description?: string;
  /** argv templates, run in order. */
  exec: string[][];
  /** Declared inputs in order. */
  inputs: InputDeclaration[];
  /** Origin resource type (AC4). */
  originResource?: string;
  /** Compiled `match_on`. */
  matchOn?: Condition;
  /** `[env]` templates in declaration order. */
  env: [string, string][];
  /** `[[file]]` entries. */
  files: FileDeclaration[];
  /** `[[mount]]` entries. */
  mounts: MountDeclaration[];
  /** `[vault_secrets]` in declaration order. */
  vaultSecrets: [string, { collection: string; secret: string }][];
  /** Bundle flavour. */
  runtime: "bash" | "docker" | "nix";
  /** Lifecycle verbs offered (SV33). */
  capabilities: string[];
  /** `job` or `service` (AC30, AC31). */
  runMode: "job" | "service";
  /** Services start automatically (AC31). */
  autoExecute: boolean;
  /** `[runtime.expose]` (AC32). */
  expose?: { socket: string };
  /**
   * Keys the engine does not know, ignored: located `unknown_key` warnings (schemas-and-validation
   * `unknown_key`), so that a misspelt key is not dropped silently.
   */
  warnings: ActionConfigError[];
}

/** The keys of an action file and of its tables (AC2 and the published modules' form). */
const ACTION_KEYS: KeySpec = {
  keys: [
    "name",
    "description",
    "exec",
    "input",
    "origin_resource",
    "match_on",
    "env",
    "file",
    "mount",
    "vault_secrets",
    "runtime",
    "capabilities",
    "run_mode",
    "auto_execute",
  ],
  nested: {
    file: { keys: ["path", "template", "source"] },
    mount: { keys: ["resource_type", "origin_resource", "filename", "mount_path"] },
    runtime: {
      keys: ["engine", "flake", "files", "expose"],
      nested: { expose: { keys: ["socket"] } },
    },
  },
};

/** `path` of a dotted key from `checkKeys` (`.file[0].x` → `["file", 0, "x"]`). */
function keyPath(dotted: string): (string | number)[] {
  const out: (string | number)[] = [];
  for (const part of dotted.replace(/^\./, "").split(".")) {
    const m = /^(.*?)((?:\[\d+\])*)$/.exec(part)!;
    out.push(m[1]);
    for (const i of m[2].matchAll(/\[(\d+)\]/g)) out.push(Number(i[1]));
  }
  return out;
}

/** Located `unknown_key` warnings of `doc` (the `[input]` tables are refused by their parser). */
function unknownKeys(doc: Record<string, JsonValue>, text: string, file: string) {
  const spec: KeySpec = isTable(doc.input)
    ? {
      ...ACTION_KEYS,
      nested: { ...ACTION_KEYS.nested, input: { keys: ["properties", "required"] } },
    }
    : ACTION_KEYS;
  const warnings = checkKeys(doc, spec, "action", "");
  if (isTable(doc.vault_secrets)) {
    for (const [name, entry] of Object.entries(doc.vault_secrets)) {
      const label = `action.vault_secrets.${name}`;
      warnings.push(
        ...checkKeys(entry, { keys: ["collection", "secret"] }, label, "vault_secrets"),
      );
    }
  }
  return warnings.map((w) => {
    const at = locateKey(text, keyPath(w.key));
    const message = w.message.replace("[action.", "[").replace(" in [action]", "");
    return new ActionConfigError("unknown_key", file, message, at.line, at.column);
  });
}

const RUNTIMES = ["bash", "docker", "nix"] as const;
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function safeRelative(path: string): boolean {
  return path !== "" && !path.startsWith("/") && !path.includes("\\") &&
    !path.split("/").some((p) => p === ".." || p === "");
}

/**
 * Parses and validates one action file. `file` is the display path used in messages.
 *
 * @example
 * ```ts
 * import { parseActionFile } from "./declarations.ts";
 * const a = parseActionFile('name = "restart"\norigin_resource = "host"\nexec = [["sh", "-c", "echo {{ origin_resource.name }}"]]\n', "actions/restart.toml", "data");
 * console.log(a.name, a.originResource); // "restart" "host"
 * ```
 */
export function parseActionFile(text: string, file: string, module: string): ActionTemplate {
  let doc: Record<string, JsonValue>;
  try {
    doc = parseTomlDocument(text, file);
  } catch (e) {
    if (e instanceof ParseError) {
      throw new ActionConfigError(e.code, file, e.reason, e.line, e.column);
    }
    throw e;
  }
  const fail = (path: (string | number)[], reason: string): never => {
    const at = locateKey(text, path);
    throw new ActionConfigError("action_invalid", file, reason, at.line, at.column);
  };
  const str = (key: string, t: Record<string, JsonValue> = doc, path: (string | number)[] = []) => {
    const v = t[key];
    if (v === undefined) return undefined;
    if (typeof v !== "string") fail([...path, key], `'${key}' must be a string`);
    return v as string;
  };

  const name = str("name");
  if (name === undefined) fail([], "'name' is required");
  if (!NAME.test(name!)) fail(["name"], `'name' must be letters, digits, '_', '-' or '.'`);
  const exec = readExec(doc.exec, fail);
  const inputs = readInputs(doc.input, fail);
  const originResource = str("origin_resource");
  let matchOn: Condition | undefined;
  if (doc.match_on !== undefined) {
    if (originResource === undefined) fail(["match_on"], "'match_on' needs 'origin_resource'");
    try {
      matchOn = compileConditions(doc.match_on, "match_on");
    } catch (e) {
      fail(["match_on"], e instanceof Error ? e.message : String(e));
    }
  }
  const env: [string, string][] = [];
  if (doc.env !== undefined) {
    if (!isTable(doc.env)) fail(["env"], "'[env]' must be a table");
    for (const [k, v] of Object.entries(doc.env as Record<string, JsonValue>)) {
      if (typeof v !== "string" && typeof v !== "number" && typeof v !== "boolean") {
        fail(["env", k], `env '${k}' must be a string`);
      }
      env.push([k, String(v)]);
    }
  }
  const files = readFiles(doc.file, fail);
  const mounts = readMounts(doc.mount, fail);
  const vaultSecrets: ActionTemplate["vaultSecrets"] = [];
  if (doc.vault_secrets !== undefined) {
    if (!isTable(doc.vault_secrets)) fail(["vault_secrets"], "'[vault_secrets]' must be a table");
    for (const [k, v] of Object.entries(doc.vault_secrets as Record<string, JsonValue>)) {
      if (!isTable(v) || typeof v.collection !== "string" || typeof v.secret !== "string") {
        fail(["vault_secrets", k], `secret '${k}' needs string 'collection' and 'secret'`);
      }
      const t = v as Record<string, string>;
      vaultSecrets.push([k, { collection: t.collection, secret: t.secret }]);
    }
  }
  let runtime: ActionTemplate["runtime"] = "bash";
  let expose: { socket: string } | undefined;
  const rt = doc.runtime;
  if (typeof rt === "string" || (isTable(rt) && rt.engine !== undefined)) {
    const engine = typeof rt === "string" ? rt : rt.engine;
    if (!RUNTIMES.includes(engine as typeof RUNTIMES[number])) {
      fail(["runtime"], `'runtime' must be one of ${RUNTIMES.join(", ")}`);
    }
    runtime = engine as ActionTemplate["runtime"];
  } else if (rt !== undefined && !isTable(rt)) fail(["runtime"], "'runtime' must be a string");
  if (isTable(rt) && rt.expose !== undefined) {
    const socket = isTable(rt.expose) ? rt.expose.socket : undefined;
    if (typeof socket !== "string" || !safeRelative(socket)) {
      fail(["runtime", "expose"], "'[runtime.expose] socket' must be a relative path");
    }
    expose = { socket: socket as string };
  }
  const caps = doc.capabilities;
  if (caps !== undefined && (!Array.isArray(caps) || caps.some((c) => typeof c !== "string"))) {
    fail(["capabilities"], "'capabilities' must be an array of strings");
  }
  const runMode = str("run_mode") ?? "job";
  if (runMode !== "job" && runMode !== "service") {
    fail(["run_mode"], '\'run_mode\' must be "job" or "service"');
  }
  const auto = doc.auto_execute;
  if (auto !== undefined && typeof auto !== "boolean") {
    fail(["auto_execute"], "'auto_execute' must be a boolean");
  }
  return {
    name: name!,
    module,
    file,
    description: str("description"),
    exec,
    inputs,
    originResource,
    matchOn,
    env,
    files,
    mounts,
    vaultSecrets,
    runtime,
    capabilities: (caps as string[] | undefined) ?? [],
    runMode: runMode as "job" | "service",
    autoExecute: auto === true,
    expose,
    warnings: unknownKeys(doc, text, file),
  };
}

type Fail = (path: (string | number)[], reason: string) => never;

function readExec(raw: JsonValue | undefined, fail: Fail): string[][] {
  if (raw === undefined) fail([], "'exec' is required");
  if (!Array.isArray(raw) || raw.length === 0) {
    fail(["exec"], "'exec' must be a non-empty array of argv arrays");
  }
  return (raw as JsonValue[]).map((argv, i) => {
    if (!Array.isArray(argv) || argv.length === 0 || argv.some((a) => typeof a !== "string")) {
      fail(["exec"], `exec[${i}] must be a non-empty array of strings`);
    }
    return argv as string[];
  });
}

function readInput(
  t: Record<string, JsonValue>,
  path: (string | number)[],
  label: string,
  fail: Fail,
  named?: { name: string; required: boolean },
): InputDeclaration {
  return parseInputDeclaration(
    t,
    (message, key) => fail(key === undefined ? path : [...path, key], `${label}: ${message}`),
    named,
  );
}

function readInputs(raw: JsonValue | undefined, fail: Fail): InputDeclaration[] {
  if (raw === undefined) return [];
  const out: InputDeclaration[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((t, i) => {
      if (!isTable(t)) fail(["input", i], `input[${i}] must be a table`);
      out.push(readInput(t as Record<string, JsonValue>, ["input", i], `input[${i}]`, fail));
    });
  } else if (isTable(raw) && isTable(raw.properties)) {
    const required = Array.isArray(raw.required) ? raw.required : [];
    for (const [name, t] of Object.entries(raw.properties)) {
      if (!isTable(t)) fail(["input", "properties"], `input '${name}' must be a table`);
      out.push(
        readInput(
          t as Record<string, JsonValue>,
          ["input", "properties"],
          `input '${name}'`,
          fail,
          {
            name,
            required: required.includes(name),
          },
        ),
      );
    }
  } else fail(["input"], "'input' must be an array of tables ([[input]])");
  const seen = new Set<string>();
  for (const i of out) {
    if (seen.has(i.name)) fail(["input"], `input '${i.name}' is declared twice`);
    seen.add(i.name);
  }
  return out;
}

function readFiles(raw: JsonValue | undefined, fail: Fail): FileDeclaration[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(["file"], "'file' must be an array of tables ([[file]])");
  return (raw as JsonValue[]).map((t, i) => {
    if (!isTable(t) || typeof t.path !== "string" || !safeRelative(t.path)) {
      return fail(["file", i, "path"], `file[${i}] needs a relative 'path'`);
    }
    const template = typeof t.template === "string" ? t.template : undefined;
    const source = typeof t.source === "string" ? t.source : undefined;
    if ((template === undefined) === (source === undefined)) {
      fail(["file", i], `file[${i}] needs exactly one of 'template' and 'source'`);
    }
    if (source !== undefined && !safeRelative(source.replace(/^\.\//, ""))) {
      fail(["file", i, "source"], `file[${i}] 'source' must be a relative path in the module`);
    }
    return { path: t.path, template, source: source?.replace(/^\.\//, "") };
  });
}

function readMounts(raw: JsonValue | undefined, fail: Fail): MountDeclaration[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) fail(["mount"], "'mount' must be an array of tables ([[mount]])");
  return (raw as JsonValue[]).map((t, i) => {
    if (
      !isTable(t) || typeof t.resource_type !== "string" || typeof t.filename !== "string" ||
      typeof t.mount_path !== "string" || !safeRelative(t.mount_path)
    ) {
      return fail(
        ["mount", i],
        `mount[${i}] needs 'resource_type', 'filename' and a relative 'mount_path'`,
      );
    }
    return {
      resourceType: t.resource_type,
      originResource: typeof t.origin_resource === "string" ? t.origin_resource : undefined,
      filename: t.filename,
      mountPath: t.mount_path,
    };
  });
}
