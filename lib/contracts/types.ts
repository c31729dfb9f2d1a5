/**
 * The parsed form of a contract file (reference AC40–AC45) and the error of a refused call.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { InputType } from "../actions/inputs.ts";

export type { InputType } from "../actions/inputs.ts";

/** One `[[input]]` of a contract (AC41, as AC2). */
export interface ContractInput {
  /** Input name (`input.<name>` in templates). */
  readonly name: string;
  /** Value type; `string` by default. */
  readonly type: InputType;
  /** Whether the caller must give it (default false). */
  readonly required: boolean;
  /** Value used when the caller leaves it out. */
  readonly default?: JsonValue;
  /** The only values accepted, when given. */
  readonly allowedValues?: readonly JsonValue[];
  /** Text for UIs. */
  readonly description?: string;
}

/** What a `[[write]]` does to its asset (AC41; `intake` is the lifecycle intake of spec §3). */
export type WriteAction = "add" | "upsert" | "update" | "delete" | "intake";

/** The write actions, in the order messages list them. */
export const WRITE_ACTIONS: readonly WriteAction[] = [
  "add",
  "upsert",
  "update",
  "delete",
  "intake",
];

/** One `[[write]]` block (AC41, AC45, spec §3). */
export interface ContractWrite {
  /** 0-based position among the contract's writes. */
  readonly index: number;
  /** Asset file (`device.csv`) or asset type (`device`). */
  readonly targetAsset: string;
  /** The operation. */
  readonly action: WriteAction;
  /** Column → template of the row's values. */
  readonly record: Readonly<Record<string, string>>;
  /** Column → template; a row matches when every column equals. */
  readonly lookupBy: Readonly<Record<string, string>>;
  /** Column → allowed current values of the matched row (AC45). */
  readonly expect: Readonly<Record<string, readonly string[]>>;
  /** Column holding the lifecycle state (spec §3); enables the transition rules. */
  readonly state?: string;
  /** Column holding the item's expiry (RFC 3339); missing or unparseable counts as expired. */
  readonly expires?: string;
  /** Time to live of an item created by `intake`, in milliseconds. */
  readonly ttlMs?: number;
  /** `file:line` of the block, for messages. */
  readonly location: string;
}

/** One `[[require]]` block: a row that must exist before anything is written (spec §3 rule 6). */
export interface ContractRequire {
  /** 0-based position among the contract's requirements. */
  readonly index: number;
  /** Asset file or type to look in (typically a registry asset). */
  readonly targetAsset: string;
  /** Column → template; some row must match every column. */
  readonly lookupBy: Readonly<Record<string, string>>;
  /** Status of the refusal (default 404). */
  readonly status: 400 | 403 | 404 | 409 | 422;
  /** Template of the refusal's message. */
  readonly message?: string;
  /** `file:line` of the block, for messages. */
  readonly location: string;
}

/** A parsed contract. */
export interface Contract {
  /** Unique name across modules (AC41). */
  readonly name: string;
  /** Text for UIs and MCP. */
  readonly description: string;
  /** Layer id: `data` or the module id. */
  readonly module: string;
  /** Path shown in messages. */
  readonly file: string;
  /** Declared inputs. */
  readonly inputs: readonly ContractInput[];
  /** Preconditions checked before any write. */
  readonly requires: readonly ContractRequire[];
  /** The writes, applied in order and atomically. */
  readonly writes: readonly ContractWrite[];
}

/** Problem slugs a contract call can fail with (rest-api.md R90). */
export type ContractErrorSlug =
  | "bad-request"
  | "not-found"
  | "duplicate-key"
  | "invalid-transition"
  | "forbidden"
  | "validation-failed";

/** One invalid input (AC6). */
export interface InputProblem {
  /** The input's name. */
  field: string;
  /** What is wrong. */
  message: string;
}

/**
 * A refused contract call; nothing was written. Messages never repeat input values.
 *
 * @example
 * ```ts
 * import { ContractCallError } from "./types.ts";
 * const e = new ContractCallError(409, "invalid-transition", "status is 'valid'");
 * console.log(e.status, e.slug); // 409 "invalid-transition"
 * ```
 */
export class ContractCallError extends Error {
  /**
   * Creates the error.
   * @param status HTTP status
   * @param slug problem type
   * @param message what is wrong
   * @param errors invalid inputs, for input validation failures
   */
  constructor(
    readonly status: number,
    readonly slug: ContractErrorSlug,
    message: string,
    readonly errors: readonly InputProblem[] = [],
  ) {
    super(message);
    this.name = "ContractCallError";
  }
}
