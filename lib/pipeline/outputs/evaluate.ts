/**
 * Evaluating one `[[output]]` rule over its origins into pending writes (reference OU5–OU8).
 *
 * @module
 */
import type { JsonValue, Properties, Resource } from "../../graph/graph.ts";
import type { RuleBlock } from "../../formats/toml.ts";
import type { ImportResolver, ReadLog } from "../../jsonnet/mod.ts";
import type { PreparedChunk, RuleEnvironment } from "../rules/environment.ts";
import { evaluateCondition } from "../rules/conditions.ts";
import { positionOf, reportRuleError, RuleError, ruleLabel } from "../rules/errors.ts";
import { VIEW_JSON_DEPTH } from "../rules/view.ts";
import { fileLineOf, type OutputRule } from "./compile.ts";
import { evaluateOutputJsonnet, layerImportResolver, type PlainResourceCache } from "./jsonnet.ts";
import { templateOutputReads, type TemplateReads } from "./template_reads.ts";
import { originValues, relationFieldNames, type SortedMemo } from "../rules/read_collector.ts";
import type { RenderedEntry } from "./output_memo.ts";
import { CONTENT_PROPERTY, jsonnetResult, type OutputResult, templateResult } from "./result.ts";
import { runSteps, type Steps } from "../slicing.ts";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const utf8 = new TextEncoder();

/** Errors reported per rule before the rest are summarised. */
export const MAX_ERRORS_PER_RULE = 5;

/** Origins evaluated between two pause points of a sliced build (see `slicing.ts`). */
const ORIGINS_PER_STEP = 2;

/**
 * Origins whose result is kept from the last build (`output_memo.ts`, about a µs each) that count
 * as one evaluated origin towards the next pause: a pause per two of them cost more than they do.
 */
const KEPT_PER_EVALUATED = 16;

/** A pending output: written after every rule was evaluated. */
export interface OutputWrite {
  /** Output resource type. */
  type: string;
  /** Output resource name. */
  name: string;
  /** Properties (object keys or `content`, plus `filename`/`mimetype`). */
  properties: Properties;
  /** The origin, for rules with `origin_resource`. */
  origin?: Resource;
  /** File of the rule. */
  file: string;
  /** Rule label. */
  rule: string;
}

/** One rule of one file, with its evaluation helpers. */
export class RuleRun {
  /** Rule label, e.g. `chunk 1, output[0]`. */
  readonly label: string;
  /** Name of the Jsonnet program in messages and imports. */
  readonly programName: string;
  /** Set once the result-`name` warning was given for this rule. */
  nameWarned = false;
  #errors = 0;
  #resolver?: ImportResolver;
  #templateReads?: TemplateReads | null;
  #relationNames?: ReadonlySet<string>;
  #rendered?: SortedMemo<RenderedEntry>;
  #staticExt?: Record<string, JsonValue>;

  /**
   * @param env rule environment
   * @param prepared the rule's chunk
   * @param block the `[[output]]` block
   * @param rule the compiled rule
   * @param plain shared plain-copy cache of the phase
   */
  constructor(
    readonly env: RuleEnvironment,
    readonly prepared: PreparedChunk,
    readonly block: RuleBlock,
    readonly rule: OutputRule,
    readonly plain: PlainResourceCache,
  ) {
    this.label = ruleLabel(prepared.chunk.number, "output", block.index);
    this.programName = `${prepared.source.displayPath}#output[${block.index}].jsonnet`;
  }

  /** File shown to users. */
  get file(): string {
    return this.prepared.source.displayPath;
  }

  /** Renders a Tera string of the rule. */
  render(source: string, context: Record<string, unknown>, key: string): string {
    return this.env.render(source, context, this.file, `${this.label}.${key}`, key);
  }

  /** What the rule reads when its Tera results can be kept across builds (`template_reads.ts`). */
  get templateReads(): TemplateReads | undefined {
    if (this.#templateReads === undefined) {
      this.#templateReads = templateOutputReads(
        this.prepared.chunk.originType,
        this.rule,
        this.prepared.header,
      ) ?? null;
    }
    return this.#templateReads ?? undefined;
  }

  /** Every name a relation field can have in this build's graph (relation and resource types). */
  get relationNames(): ReadonlySet<string> {
    const graph = this.env.ctx.graph;
    return (this.#relationNames ??= relationFieldNames(graph));
  }

  /** This rule's kept Tera outputs of this build (`output_memo.ts`). */
  get rendered(): SortedMemo<RenderedEntry> {
    return (this.#rendered ??= this.env.ctx.options.outputMemo!.renderedOf(
      `${this.file}#${this.label}`,
    ));
  }

  /** Import resolver over the rule file's layer. */
  get resolver(): ImportResolver {
    return (this.#resolver ??= layerImportResolver(this.prepared.source, this.programName));
  }

  /** External variables of one evaluation (T34, OU8). */
  extVars(vars: Record<string, unknown>, origin: Resource | undefined): Record<string, JsonValue> {
    if (!this.#staticExt) {
      const params = this.env.ctx.params;
      const ext: Record<string, JsonValue> = { ...params, params: { ...params } };
      for (const [k, v] of Object.entries(this.prepared.staticVars ?? {})) {
        const j = toJson(v);
        if (j !== undefined) ext[k] = j;
      }
      this.#staticExt = ext;
    }
    const out = { ...this.#staticExt };
    for (const [k, v] of Object.entries(vars)) {
      if (v === this.prepared.staticVars?.[k]) continue;
      const j = toJson(v);
      if (j !== undefined) out[k] = j;
    }
    if (origin) {
      out.origin_resource = this.plain.get(origin, VIEW_JSON_DEPTH);
    }
    return out;
  }

  /** Reports a failure (capped per rule), adding the rule-file line of body positions. */
  fail(error: unknown, origin?: Resource): void {
    this.#errors++;
    if (this.#errors > MAX_ERRORS_PER_RULE + 1) return;
    let err = error;
    if (this.#errors > MAX_ERRORS_PER_RULE) {
      err = new RuleError(
        `further errors of this rule are not shown (first ${MAX_ERRORS_PER_RULE} above)`,
        undefined,
        "rule_errors_truncated",
      );
    } else if (
      error instanceof RuleError && error.template?.line !== undefined &&
      (error.key === "template" || error.key === "jsonnet")
    ) {
      const line = fileLineOf(
        this.prepared.source.text,
        this.rule.body.position,
        error.template.line,
      );
      if (line !== undefined) {
        err = new RuleError(
          `${error.message} (rule file line ${line})`,
          error.key,
          error.code,
          error.template,
        );
      }
    }
    reportRuleError(
      this.env.ctx.issues,
      "outputs",
      { file: this.file, chunk: this.prepared.chunk, block: this.block },
      err,
      // The truncation notice carries the origin that triggered it: it stays a rule error (O12).
      origin ? { type: origin.type, name: origin.name } : undefined,
    );
  }

  /** Reports a warning at the rule (or `key`). */
  warn(code: string, message: string, key?: string): void {
    const pos = positionOf({ file: this.file, chunk: this.prepared.chunk, block: this.block }, key);
    this.env.ctx.issues.warn(code, message, {
      file: this.file,
      line: pos?.line,
      column: pos?.column,
      rule: key ? `${this.label}.${key}` : this.label,
      phase: "outputs",
    });
  }
}

/** Evaluates `run`'s rule for every origin; returns the pending writes. */
export function evaluateRule(run: RuleRun): OutputWrite[] {
  return runSteps(evaluateRuleSteps(run));
}

/** {@link evaluateRule} as steps (see `slicing.ts`): pauses every few origins. */
export function* evaluateRuleSteps(run: RuleRun): Steps<OutputWrite[]> {
  const { rule, prepared } = run;
  const graph = run.env.ctx.graph;
  const type = prepared.chunk.originType;
  const origins: (Resource | undefined)[] = type === undefined
    ? [undefined]
    : graph.resourcesOfSorted(type);
  if (type === undefined && rule.matchOn) {
    run.warn("match_on_ignored", "match_on has no effect without origin_resource", "match_on");
  }
  if ((rule.filename === undefined) !== (rule.mimetype === undefined)) {
    run.warn(
      "output_not_downloadable",
      "an output is downloadable only with both 'filename' and 'mimetype'",
      rule.filename === undefined ? "mimetype" : "filename",
    );
  }
  const writes: OutputWrite[] = [];
  // Work since the last pause, in kept origins: an evaluated one counts KEPT_PER_EVALUATED.
  let work = 0;
  const kept = { kept: false };
  for (const origin of origins) {
    if (work >= ORIGINS_PER_STEP * KEPT_PER_EVALUATED) {
      work = 0;
      yield;
    }
    kept.kept = false;
    try {
      const write = evaluateOne(run, origin, kept);
      if (write) writes.push(write);
    } catch (e) {
      run.fail(e, origin);
    }
    work += kept.kept ? 1 : KEPT_PER_EVALUATED;
  }
  return writes;
}

/**
 * One origin's output: a Tera result kept from the last build when the origin fields the rule
 * reads are the same (`output_memo.ts`; then `kept.kept` is set), else evaluated.
 */
function evaluateOne(
  run: RuleRun,
  origin: Resource | undefined,
  kept: { kept: boolean },
): OutputWrite | undefined {
  const memo = run.env.ctx.options.outputMemo;
  const reads = memo && origin ? run.templateReads : undefined;
  if (reads === undefined) return evaluateFresh(run, origin);
  const graph = run.env.ctx.graph;
  const values = originValues(graph, origin!, reads.fields, run.relationNames);
  if (values === undefined) return evaluateFresh(run, origin);
  const previous = memo!.rendered(run.rendered, origin!.name, reads.signature, values);
  const { rule } = run;
  if (previous) {
    kept.kept = true;
    const { name, properties } = previous;
    return { type: rule.resourceType, name, properties, origin, file: run.file, rule: run.label };
  }
  const result = { named: false };
  const write = evaluateFresh(run, origin, result);
  // A result that names itself warns (once per rule): evaluate it again next time.
  if (write && !result.named) {
    memo!.keepRendered(run.rendered, origin!.name, reads.signature, values, write);
  }
  return write;
}

function evaluateFresh(
  run: RuleRun,
  origin: Resource | undefined,
  result: { named: boolean } = { named: false },
): OutputWrite | undefined {
  const { rule, prepared } = run;
  const graph = run.env.ctx.graph;
  let scope: { context: Record<string, unknown>; vars: Record<string, unknown> } | undefined;
  const getScope = () => (scope ??= run.env.iterationScope(prepared, origin));
  if (origin && rule.matchOn) {
    const ok = evaluateCondition(rule.matchOn, origin, {
      graph,
      render: (s, key) => run.render(s, getScope().context, key),
    });
    if (!ok) return undefined;
  }
  const { context, vars } = getScope();
  const name = run.render(rule.name, context, "name").trim();
  if (name === "") {
    run.warn(
      "empty_name",
      `name rendered empty${origin ? ` for ${origin.type} '${origin.name}'` : ""}; output skipped`,
      "name",
    );
    return undefined;
  }
  let body: OutputResult;
  if (rule.body.kind === "template") {
    body = templateResult(run.render(rule.body.source, context, "template"), rule.mimetype);
  } else {
    const source = rule.body.source;
    const ext = run.extVars(vars, origin);
    const evaluate = (readLog?: ReadLog) =>
      evaluateOutputJsonnet(source, ext, run.programName, run.resolver, readLog);
    const memo = run.env.ctx.options.outputMemo;
    body = jsonnetResult(
      memo ? memo.evaluate(run.programName, origin?.name ?? "", source, ext, evaluate) : evaluate(),
    );
  }
  const properties: Properties = body.kind === "object"
    ? { ...body.properties }
    : { [CONTENT_PROPERTY]: body.text };
  if (properties.name !== undefined) result.named = true;
  if (properties.name !== undefined && properties.name !== name && !run.nameWarned) {
    run.nameWarned = true;
    run.warn(
      "output_name_ignored",
      `the result's 'name' (${
        JSON.stringify(properties.name)
      }) is ignored: the output is named by the rule's 'name' ('${name}')`,
      rule.body.kind,
    );
  }
  delete properties.name;
  if (rule.filename !== undefined && rule.mimetype !== undefined) {
    properties.filename = run.render(rule.filename, context, "filename").trim();
    properties.mimetype = rule.mimetype;
  }
  // OU12 (the resource side): like the original's (its export of rescile/oci_landing_zone carries
  // `hash = { sha256 = <hex> }` on every artifact), an output with text content records the
  // SHA-256 of its UTF-8 bytes; a result that sets `hash` itself keeps its own.
  const content = properties[CONTENT_PROPERTY];
  if (typeof content === "string" && properties.hash === undefined) {
    properties.hash = { sha256: bytesToHex(sha256(utf8.encode(content))) };
  }
  return { type: rule.resourceType, name, properties, origin, file: run.file, rule: run.label };
}

function toJson(v: unknown): JsonValue | undefined {
  if (v === undefined || typeof v === "function") return undefined;
  if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") {
    return v;
  }
  return JSON.parse(JSON.stringify(v)) as JsonValue;
}
