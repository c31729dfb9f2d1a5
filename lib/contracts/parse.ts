/**
 * Parsing of `contracts/*.toml` (reference AC40–AC45) with located errors: every problem is a
 * {@link ParseError} pointing at the key or block that causes it (code `contract_invalid`).
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import { ParseError } from "../formats/errors.ts";
import { parseRuleFile, type RuleBlock, type TextPosition } from "../formats/toml.ts";
import { parseDuration } from "../generators/duration.ts";
import { parseInputDeclaration } from "./inputs.ts";
import type {
  Contract,
  ContractInput,
  ContractRequire,
  ContractWrite,
  WriteAction,
} from "./types.ts";
import { WRITE_ACTIONS } from "./types.ts";
import { LIFECYCLE_STATES } from "./lifecycle.ts";

const CODE = "contract_invalid";
const HEADER_KEYS = new Set(["name", "description"]);
const WRITE_KEYS = new Set([
  "target_asset",
  "action",
  "record",
  "lookup_by",
  "expect",
  "state",
  "expires",
  "ttl",
]);
const REQUIRE_KEYS = new Set(["target_asset", "lookup_by", "status", "message"]);
const REQUIRE_STATUS = [400, 403, 404, 409, 422] as const;

/**
 * Parses one contract file.
 *
 * @param text the file's text
 * @param file path shown in messages (e.g. `contracts/device.toml`)
 * @param module layer id (`data` or the module id)
 * @example
 * ```ts
 * import { parseContractFile } from "./parse.ts";
 * const c = parseContractFile(
 *   'name = "Add"\n[[write]]\ntarget_asset = "device"\naction = "add"\nrecord = { name = "{{ input.id }}" }\n',
 *   "contracts/add.toml",
 *   "data",
 * );
 * console.log(c.name, c.writes[0].action); // "Add" "add"
 * ```
 */
export function parseContractFile(text: string, file: string, module: string): Contract {
  const rule = parseRuleFile(text, file, { blockKinds: ["input", "write", "require"] });
  if (rule.chunks.length !== 1 || rule.chunks[0].originType !== undefined) {
    const pos = rule.chunks[0].originPosition ?? { line: 1, column: 1 };
    fail("origin_resource is not a key of a contract", file, pos);
  }
  const chunk = rule.chunks[0];
  let name: string | undefined;
  let description = "";
  for (const entry of chunk.header) {
    const pos = entry.position ?? { line: 1, column: 1 };
    if (!HEADER_KEYS.has(entry.key)) {
      fail(
        `unknown key '${entry.key}' (expected name, description, [[input]], [[write]], [[require]])`,
        file,
        pos,
      );
    }
    if (typeof entry.value !== "string") fail(`${entry.key} must be a string`, file, pos);
    if (entry.key === "name") name = entry.value;
    else description = entry.value;
  }
  if (name === undefined || name.trim() === "") {
    fail("a contract needs a non-empty 'name'", file, { line: 1, column: 1 });
  }
  if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)) {
    fail(
      `contract name '${name}' may only use letters, digits, '_', '-' and '.'`,
      file,
      at(chunk.header.find((h) => h.key === "name")?.position),
    );
  }
  const inputs: ContractInput[] = [];
  const writes: ContractWrite[] = [];
  const requires: ContractRequire[] = [];
  for (const block of chunk.blocks) {
    if (block.kind === "input") {
      const input = parseInputDeclaration(block.body, (message, key) => {
        fail(`[[input]] #${block.index + 1}: ${message}`, file, keyPos(block, key));
      });
      if (inputs.some((i) => i.name === input.name)) {
        fail(`input '${input.name}' is declared twice`, file, keyPos(block, "name"));
      }
      inputs.push(input);
    } else if (block.kind === "write") {
      writes.push(parseWrite(block, file));
    } else {
      requires.push(parseRequire(block, file));
    }
  }
  if (writes.length === 0) {
    fail("a contract needs at least one [[write]] block", file, { line: 1, column: 1 });
  }
  return { name, description, module, file, inputs, requires, writes };
}

function parseWrite(block: RuleBlock, file: string): ContractWrite {
  const b = block.body;
  const where = `[[write]] #${block.index + 1}`;
  const bad = (message: string, key?: string): never =>
    fail(`${where}: ${message}`, file, keyPos(block, key));
  for (const key of Object.keys(b)) {
    if (!WRITE_KEYS.has(key)) {
      bad(`unknown key '${key}' (expected ${[...WRITE_KEYS].join(", ")})`, key);
    }
  }
  const targetAsset = b.target_asset;
  if (typeof targetAsset !== "string" || targetAsset.trim() === "") {
    bad("'target_asset' (an asset file or type) is required", "target_asset");
  }
  const action = b.action ?? "upsert";
  if (typeof action !== "string" || !(WRITE_ACTIONS as readonly string[]).includes(action)) {
    bad(`'action' must be one of ${WRITE_ACTIONS.join(", ")}`, "action");
  }
  const record = templateTable(b.record, "record", bad);
  const lookupBy = templateTable(b.lookup_by, "lookup_by", bad);
  const expect: Record<string, string[]> = {};
  if (b.expect !== undefined) {
    if (!isTable(b.expect)) bad("'expect' must be a table of column = [allowed values]", "expect");
    for (const [column, allowed] of Object.entries(b.expect as Record<string, JsonValue>)) {
      const list = typeof allowed === "string" ? [allowed] : allowed;
      if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
        bad(`expect.${column} must be a list of strings`, `expect.${column}`);
      }
      expect[column] = list as string[];
    }
  }
  const state = optionalString(b.state, "state", bad);
  const expires = optionalString(b.expires, "expires", bad);
  let ttlMs: number | undefined;
  if (b.ttl !== undefined) {
    const parsed = typeof b.ttl === "string" ? parseDuration(b.ttl) : undefined;
    if (parsed === undefined) bad('\'ttl\' must be a duration such as "24h" or "1h30m"', "ttl");
    if (!expires) bad("'ttl' needs 'expires' (the column that holds the expiry)", "ttl");
    ttlMs = parsed;
  }
  const act = action as WriteAction;
  if (act !== "delete" && Object.keys(record).length === 0) {
    bad("'record' must set at least one column", "record");
  }
  if ((act === "delete" || act === "intake") && Object.keys(lookupBy).length === 0) {
    bad(`action '${act}' needs 'lookup_by'`, "lookup_by");
  }
  if (act === "intake" && !state) {
    bad("action 'intake' needs 'state' (the column holding the lifecycle state)", "action");
  }
  if (
    state && record[state] !== undefined && !/{[{%]/.test(record[state]) &&
    !(LIFECYCLE_STATES as readonly string[]).includes(record[state])
  ) {
    bad(
      `record.${state} '${record[state]}' is not a lifecycle state (${
        LIFECYCLE_STATES.join(", ")
      })`,
      `record.${state}`,
    );
  }
  // Spec §3 rule 4: the expiry is set at intake only and survives every merge update.
  if (expires && act !== "intake" && record[expires] !== undefined) {
    bad(
      `record.${expires} sets the expiry, which only 'intake' may set (spec §3 rule 4)`,
      `record.${expires}`,
    );
  }
  return {
    index: block.index,
    targetAsset: targetAsset as string,
    action: act,
    record,
    lookupBy,
    expect,
    state,
    expires,
    ttlMs,
    location: `${file}:${block.position.line}`,
  };
}

function parseRequire(block: RuleBlock, file: string): ContractRequire {
  const b = block.body;
  const where = `[[require]] #${block.index + 1}`;
  const bad = (message: string, key?: string): never =>
    fail(`${where}: ${message}`, file, keyPos(block, key));
  for (const key of Object.keys(b)) {
    if (!REQUIRE_KEYS.has(key)) {
      bad(`unknown key '${key}' (expected ${[...REQUIRE_KEYS].join(", ")})`, key);
    }
  }
  if (typeof b.target_asset !== "string" || b.target_asset.trim() === "") {
    bad("'target_asset' (an asset file or type) is required", "target_asset");
  }
  const lookupBy = templateTable(b.lookup_by, "lookup_by", bad);
  if (Object.keys(lookupBy).length === 0) bad("'lookup_by' is required", "lookup_by");
  const status = b.status ?? 404;
  if (!(REQUIRE_STATUS as readonly JsonValue[]).includes(status)) {
    bad(`'status' must be one of ${REQUIRE_STATUS.join(", ")}`, "status");
  }
  return {
    index: block.index,
    targetAsset: b.target_asset as string,
    lookupBy,
    status: status as ContractRequire["status"],
    message: optionalString(b.message, "message", bad),
    location: `${file}:${block.position.line}`,
  };
}

function templateTable(
  value: JsonValue | undefined,
  key: string,
  bad: (message: string, key?: string) => never,
): Record<string, string> {
  if (value === undefined) return {};
  if (!isTable(value)) bad(`'${key}' must be a table of column = "<template>"`, key);
  const out: Record<string, string> = {};
  for (const [column, v] of Object.entries(value as Record<string, JsonValue>)) {
    if (typeof v === "string") out[column] = v;
    else if (typeof v === "number" || typeof v === "boolean") out[column] = String(v);
    else bad(`${key}.${column} must be a string template`, `${key}.${column}`);
  }
  return out;
}

function optionalString(
  value: JsonValue | undefined,
  key: string,
  bad: (message: string, key?: string) => never,
): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "") bad(`'${key}' must be a non-empty string`, key);
  return value as string;
}

function keyPos(block: RuleBlock, key: string | undefined): TextPosition {
  if (key !== undefined) {
    const direct = block.keys.get(key);
    if (direct) return direct;
    const parent = block.keys.get(key.split(".")[0]);
    if (parent) return parent;
  }
  return block.position;
}

function at(pos: TextPosition | undefined): TextPosition {
  return pos ?? { line: 1, column: 1 };
}

function fail(reason: string, file: string, pos: TextPosition): never {
  throw new ParseError(reason, file, pos.line, pos.column, CODE);
}

function isTable(v: JsonValue | undefined): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
