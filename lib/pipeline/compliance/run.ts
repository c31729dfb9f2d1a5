/**
 * One control being applied: origin iteration, conditions, rendering, error reporting (capped per
 * target) and the C42 evidence trail.
 *
 * @module
 */
import type { Graph, JsonValue, Resource } from "../../graph/graph.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import type { PreparedChunk, RuleEnvironment } from "../rules/environment.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import {
  positionOf,
  reportRuleError,
  RuleError,
  ruleLabel,
  type RuleSite,
} from "../rules/errors.ts";
import type { IssueCollector } from "../issues.ts";
import { renderDeep } from "../rules/scope.ts";
import type { Control, Table, Target } from "./compile.ts";
import { aggregate, controlEntry } from "./merge.ts";

/** Errors reported per target before the rest are summarised. */
export const MAX_ERRORS_PER_TARGET = 5;

/** Type of the optional evidence resources of C42. */
export const CONTROL_TYPE = "control";

/** The application of one control of one file. */
export class ControlRun {
  /** The graph. */
  readonly graph: Graph;
  readonly #errors = new Map<string, number>();

  /**
   * @param env rule environment of the phase
   * @param prepared the file's chunk (header data)
   * @param block the `[[control]]` block
   * @param auditId the file's `audit_id`
   * @param control the compiled control
   */
  constructor(
    readonly env: RuleEnvironment,
    readonly prepared: PreparedChunk,
    readonly block: RuleBlock,
    readonly auditId: string,
    readonly control: Control,
  ) {
    this.graph = env.ctx.graph;
  }

  /** File shown to users. */
  get file(): string {
    return this.prepared.source.displayPath;
  }

  /** Resources of the listed types: types in listed order, resources by name (C5). */
  origins(types: readonly string[]): Resource[] {
    const seen = new Set<string>();
    const out: Resource[] = [];
    for (const t of types) {
      if (seen.has(t)) continue;
      seen.add(t);
      // A loop, not push(...spread): a type can hold more resources than the call-argument limit.
      for (const r of this.graph.resourcesOfSorted(t)) out.push(r);
    }
    return out;
  }

  /** Template context of `origin` (header data evaluated for it) plus `extra`. */
  scope(
    origin: Resource | undefined,
    extra: Record<string, unknown> = {},
  ): Record<string, unknown> {
    return this.env.iterationScope(this.prepared, origin, extra).context;
  }

  /** Renders a rule string; `key` is relative to the control (e.g. `target[0].resource.name`). */
  render(source: string, context: Record<string, unknown>, key: string): string {
    const label = ruleLabel(this.prepared.chunk.number, "control", this.block.index, key);
    return this.env.render(source, context, this.file, label, key);
  }

  /** Renders every string of a property table. */
  renderTable(table: Table, context: Record<string, unknown>, key: string): Table {
    const out: Table = {};
    for (const [k, v] of Object.entries(table)) {
      out[k] = renderDeep(v, (s, kk) => this.render(s, context, kk), `${key}.${k}`);
    }
    return out;
  }

  /** True when `resource` passes the target's `match_on` (context built only if needed). */
  matches(target: Target, resource: Resource, extra: Record<string, unknown> = {}): boolean {
    if (!target.matchOn) return true;
    let ctx: Record<string, unknown> | undefined;
    return evaluateCondition(target.matchOn, resource, {
      graph: this.graph,
      render: (s, key) => this.render(s, ctx ??= this.scope(resource, extra), key),
    });
  }

  /** The control entry of `target` (C41). */
  entry(target: Target): Record<string, JsonValue> {
    const config: Record<string, JsonValue> = {};
    for (const k of target.propertiesFromConfig) config[k] = this.control.config[k];
    return controlEntry({
      controlId: this.control.id,
      controlName: this.control.name,
      auditId: this.auditId,
      evidence: target.description,
      config,
    });
  }

  /** Writes `values` onto `resource` with compliance merge semantics (C40). */
  mergeInto(resource: Resource, values: Table, key: string): void {
    for (const [k, v] of Object.entries(values)) {
      if (k === "name") {
        if (v !== resource.name) {
          throw new RuleError(
            `cannot change the name of ${resource.type} '${resource.name}'`,
            `${key}.name`,
            "compliance_name_change",
          );
        }
        continue;
      }
      this.graph.setProperty(resource, k, aggregate(resource.properties[k], v));
    }
  }

  /**
   * C42: appends `"<type>/<name>: <description>"` to `evidence_summary` of the `control` resource
   * named like this control, when such a resource exists.
   */
  evidence(target: Target, subject: { type: string; name: string }): void {
    const res = this.graph.getResource(CONTROL_TYPE, this.control.id);
    if (!res) return;
    const text = target.description ?? this.control.description ?? this.control.name;
    this.graph.setProperty(
      res,
      "evidence_summary",
      aggregate(res.properties.evidence_summary, `${subject.type}/${subject.name}: ${text}`),
    );
  }

  /** Reports a failure of `target` (for `origin`), capped per target. */
  fail(target: Target, error: unknown, origin?: Resource): void {
    const count = (this.#errors.get(target.key) ?? 0) + 1;
    this.#errors.set(target.key, count);
    if (count > MAX_ERRORS_PER_TARGET + 1) return;
    const site = { file: this.file, chunk: this.prepared.chunk, block: this.block };
    const err = count > MAX_ERRORS_PER_TARGET
      ? new RuleError(
        `further errors of this target are not shown (first ${MAX_ERRORS_PER_TARGET} above)`,
        target.key,
        "rule_errors_truncated",
      )
      : error instanceof RuleError && error.key === undefined
      ? new RuleError(error.message, target.key, error.code, error.template)
      : error;
    reportRuleError(
      this.env.ctx.issues,
      "compliance",
      site,
      err,
      // The truncation notice carries the origin that triggered it: it stays a rule error (O12).
      origin ? { type: origin.type, name: origin.name } : undefined,
    );
  }

  /** Reports a warning at `key`. */
  warn(code: string, message: string, key: string): void {
    warnAt(
      this.env.ctx.issues,
      { file: this.file, chunk: this.prepared.chunk, block: this.block },
      code,
      message,
      key,
    );
  }
}

/** Reports a compliance warning at `key` of a control block. */
export function warnAt(
  issues: IssueCollector,
  site: RuleSite,
  code: string,
  message: string,
  key: string,
): void {
  const pos = positionOf(site, key);
  issues.warn(code, message, {
    file: site.file,
    line: pos?.line,
    column: pos?.column,
    rule: ruleLabel(site.chunk.number, site.block?.kind, site.block?.index, key),
    phase: "compliance",
  });
}
