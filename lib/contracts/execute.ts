/**
 * A contract call (reference AC43): validate every input, render every template, then check the
 * `[[require]]` rows and apply the `[[write]]`s in order inside ONE transaction of the write
 * service — all files change or none do — followed by a rebuild whose generation is returned.
 *
 * @module
 */
import type { JsonValue } from "../graph/graph.ts";
import type { TemplateRenderer } from "../pipeline/context.ts";
import type { AssetTarget } from "../writes/asset_table.ts";
import { WriteError } from "../writes/errors.ts";
import type { WriteService } from "../writes/service.ts";
import { applyWrite, type WriteOutcome } from "./apply.ts";
import { validateInputs } from "./inputs.ts";
import { renderContract } from "./render.ts";
import { type Contract, ContractCallError } from "./types.ts";

/** What a call needs. */
export interface ContractCallDeps {
  /** The one write path. */
  writes: WriteService;
  /** Template renderer for the parameters of the newest build. */
  templates: TemplateRenderer;
  /** Resolved parameter values. */
  params: Readonly<Record<string, JsonValue>>;
  /** The clock (expiry); default `new Date()`. */
  now?: () => Date;
}

/** The answer of a successful call (AC44). */
export interface ContractCallResult {
  /** Always true (refusals throw). */
  success: true;
  /** One entry per `[[write]]`, in order. */
  writes: WriteOutcome[];
  /** Generation that contains the writes (the current one when nothing changed). */
  generation: number;
  /** Whether any file changed. */
  changed: boolean;
}

/**
 * Calls `contract` with the JSON `body` of the request. Throws {@link ContractCallError} (also
 * for refusals of the write path) with nothing written.
 *
 * @example
 * ```ts ignore
 * const result = await callContract(contract, { id: "dev-7" }, { writes, templates, params: {} });
 * console.log(result.writes[0].result); // "created"
 * ```
 */
export async function callContract(
  contract: Contract,
  body: unknown,
  deps: ContractCallDeps,
): Promise<ContractCallResult> {
  const checked = validateInputs(contract.inputs, body ?? {});
  if (!checked.ok) {
    throw new ContractCallError(
      400,
      "validation-failed",
      `contract '${contract.name}': ${checked.errors.map((e) => e.message).join("; ")}`,
      checked.errors,
    );
  }
  const rendered = renderContract(contract, checked.values, deps.params, deps.templates);
  const now = (deps.now ?? (() => new Date()))();
  try {
    const targets = new Map<string, AssetTarget>();
    const resolve = async (asset: string) => {
      const found = targets.get(asset) ?? await deps.writes.target(asset);
      targets.set(asset, found);
      return found;
    };
    for (const r of rendered.requires) await resolve(r.require.targetAsset);
    for (const w of rendered.writes) await resolve(w.write.targetAsset);
    const outcome = await deps.writes.transaction([...targets.values()], (tables) => {
      for (const r of rendered.requires) {
        const table = tables.open(targets.get(r.require.targetAsset)!);
        const found = table !== undefined && Array.from({ length: table.rowCount }, (_, i) => i)
          .some((i) => {
            const row = table.rowValues(i);
            return Object.entries(r.lookupBy).every(([c, v]) => (row[c] ?? "").trim() === v);
          });
        if (!found) {
          const slug = r.require.status === 409
            ? "duplicate-key"
            : r.require.status === 404
            ? "not-found"
            : r.require.status === 403
            ? "forbidden"
            : r.require.status === 422
            ? "validation-failed"
            : "bad-request";
          throw new ContractCallError(r.require.status, slug, r.message);
        }
      }
      const outcomes: WriteOutcome[] = [];
      let stopped = false;
      for (const w of rendered.writes) {
        if (stopped) {
          outcomes.push({
            target_asset: w.write.targetAsset,
            action: w.write.action,
            key: "",
            result: "skipped",
          });
          continue;
        }
        const target = targets.get(w.write.targetAsset)!;
        const creates = w.write.action === "add" || w.write.action === "upsert" ||
          w.write.action === "intake";
        const table = tables.open(
          target,
          creates ? headerForNew(target, w.lookupBy, w.record) : undefined,
        );
        const result = applyWrite(table, w, now);
        outcomes.push(result);
        // Intake found a live item: the cycle goes on, the call's other writes do not apply.
        if (result.result === "existing") stopped = true;
      }
      return outcomes;
    });
    return {
      success: true,
      writes: outcome.value,
      generation: outcome.generation,
      changed: outcome.changed.length > 0,
    };
  } catch (e) {
    if (e instanceof WriteError) {
      throw new ContractCallError(
        e.status,
        e.slug,
        `contract '${contract.name}': ${e.message}`,
      );
    }
    throw e;
  }
}

/** Header of a file created by a contract: declared columns, then the written columns. */
function headerForNew(
  target: AssetTarget,
  lookupBy: Record<string, string>,
  record: Record<string, string>,
): string[] {
  const header = [...(target.declaration?.columns.keys() ?? [])];
  if (header.length === 0 && (record.name !== undefined || lookupBy.name !== undefined)) {
    header.push("name");
  }
  for (const column of [...Object.keys(lookupBy), ...Object.keys(record)]) {
    if (!header.includes(column)) header.push(column);
  }
  return header;
}
