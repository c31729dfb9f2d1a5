/**
 * Reading action files (reference AC1, AC2): `actions/*.toml` of a module or of the data
 * directory, validated into {@link ActionTemplate}s. Every error is an {@link ActionConfigError}
 * located at `file:line:col`.
 *
 * Besides the keys of AC2 the form used by published modules is accepted: `[input] properties =
 * { x = { type, default, description } }` (and `required = [...]`), `[runtime] engine = "nix"`
 * with `flake`/`files`, and `[[mount]]` tables that put an output artifact into the bundle.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { parseTomlDocument } from "../workspace/manifest.ts";
import { compileConditions, type Condition } from "../pipeline/rules/conditions.ts";
import { ActionConfigError } from "./errors.ts";
import { locateKey } from "./locate.ts";

/** Types of an input (AC2). */
export type InputType = "string" | "boolean" | "integer" | "number" | "array_of_string";

/** One declared input (AC2, AC6). */
export interface InputDeclaration {
  /** Input name. */
  name: string;
  /** Documentation. */
  description?: string;
  /** Value type (default `string`). */
  type: InputType;
  /** Whether the input must be given (default false). */
  required: boolean;
  /** Value used when the input is not given. */
  default?: JsonValue;
  /** Allowed values, when restricted. */
  allowedValues?: JsonValue[];
}

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
}

const INPUT_TYPES: readonly InputType[] = [
  "string",
  "boolean",
  "integer",
  "number",
  "array_of_string",
];
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
  name: string,
  t: Record<string, JsonValue>,
  path: (string | number)[],
  fail: Fail,
  required?: boolean,
): InputDeclaration {
  let type = t.type ?? "string";
  if (type === "array") type = "array_of_string";
  if (!INPUT_TYPES.includes(type as InputType)) {
    fail([...path, "type"], `input '${name}': 'type' must be one of ${INPUT_TYPES.join(", ")}`);
  }
  if (t.required !== undefined && typeof t.required !== "boolean") {
    fail([...path, "required"], `input '${name}': 'required' must be a boolean`);
  }
  if (t.allowed_values !== undefined && !Array.isArray(t.allowed_values)) {
    fail([...path, "allowed_values"], `input '${name}': 'allowed_values' must be an array`);
  }
  if (t.description !== undefined && typeof t.description !== "string") {
    fail([...path, "description"], `input '${name}': 'description' must be a string`);
  }
  return {
    name,
    description: t.description as string | undefined,
    type: type as InputType,
    required: required ?? t.required === true,
    default: t.default,
    allowedValues: t.allowed_values as JsonValue[] | undefined,
  };
}

function readInputs(raw: JsonValue | undefined, fail: Fail): InputDeclaration[] {
  if (raw === undefined) return [];
  const out: InputDeclaration[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((t, i) => {
      if (!isTable(t)) fail(["input", i], `input[${i}] must be a table`);
      const r = t as Record<string, JsonValue>;
      if (typeof r.name !== "string" || r.name === "") {
        fail(["input", i, "name"], `input[${i}] needs a string 'name'`);
      }
      out.push(readInput(r.name as string, r, ["input", i], fail));
    });
  } else if (isTable(raw) && isTable(raw.properties)) {
    const required = Array.isArray(raw.required) ? raw.required : [];
    for (const [name, t] of Object.entries(raw.properties)) {
      if (!isTable(t)) fail(["input", "properties"], `input '${name}' must be a table`);
      const r = t as Record<string, JsonValue>;
      out.push(
        readInput(
          name,
          r,
          ["input", "properties"],
          fail,
          required.includes(name) || r.required === true,
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
