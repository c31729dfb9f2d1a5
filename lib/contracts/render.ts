/**
 * Rendering of a contract's templates (reference AC42): every `record`, `lookup_by` and
 * `[[require]]` value is a template that sees `input.*`, the parameters (top level and under
 * `params`) and `contract` (`name`, `module`). All templates render before anything is read or
 * written, so a template error refuses the call without a change.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import { describeError } from "../pipeline/errors.ts";
import {
  type Contract,
  ContractCallError,
  type ContractRequire,
  type ContractWrite,
} from "./types.ts";

/** A `[[write]]` with its templates rendered. */
export interface RenderedWrite {
  /** The declaration. */
  readonly write: ContractWrite;
  /** Column → value. */
  readonly record: Record<string, string>;
  /** Column → value to match. */
  readonly lookupBy: Record<string, string>;
}

/** A `[[require]]` with its templates rendered. */
export interface RenderedRequire {
  /** The declaration. */
  readonly require: ContractRequire;
  /** Column → value to match. */
  readonly lookupBy: Record<string, string>;
  /** The refusal's message. */
  readonly message: string;
}

/**
 * Renders every template of `contract` for validated `inputs`.
 *
 * @example
 * ```ts
 * import { createTemplateRenderer } from "../pipeline/templates.ts";
 * import { parseContractFile } from "./parse.ts";
 * import { renderContract } from "./render.ts";
 * const c = parseContractFile(
 *   'name = "A"\n[[write]]\ntarget_asset = "t"\nrecord = { name = "{{ input.id | upper }}" }\n',
 *   "contracts/a.toml",
 *   "data",
 * );
 * const r = renderContract(c, { id: "x" }, {}, createTemplateRenderer({}));
 * console.log(r.writes[0].record.name); // "X"
 * ```
 */
export function renderContract(
  contract: Contract,
  inputs: Readonly<Record<string, JsonValue>>,
  params: Readonly<Record<string, JsonValue>>,
  templates: TemplateRenderer,
): { writes: RenderedWrite[]; requires: RenderedRequire[] } {
  const context: Record<string, unknown> = {
    ...params,
    params,
    input: inputs,
    contract: { name: contract.name, module: contract.module },
  };
  const render = (source: string, name: string): string => {
    try {
      return templates.render(source, context, name).trim();
    } catch (e) {
      throw new ContractCallError(
        400,
        "bad-request",
        `contract '${contract.name}': ${describeError(e)}`,
      );
    }
  };
  const table = (values: Readonly<Record<string, string>>, label: string) => {
    const out: Record<string, string> = {};
    for (const [column, source] of Object.entries(values)) {
      out[column] = render(source, `${label}.${column}`);
    }
    return out;
  };
  const requires = contract.requires.map((require) => {
    const label = `${contract.file}: require[${require.index}]`;
    const lookupBy = table(require.lookupBy, `${label}.lookup_by`);
    const message = require.message !== undefined
      ? render(require.message, `${label}.message`)
      : `no ${require.targetAsset} matches ${
        Object.keys(lookupBy).map((c) => `'${c}'`).join(", ")
      } (contract '${contract.name}')`;
    return { require, lookupBy, message };
  });
  const writes = contract.writes.map((write) => {
    const label = `${contract.file}: write[${write.index}]`;
    return {
      write,
      record: table(write.record, `${label}.record`),
      lookupBy: table(write.lookupBy, `${label}.lookup_by`),
    };
  });
  return { writes, requires };
}
