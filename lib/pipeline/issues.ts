/**
 * Build issues: errors, warnings and notes collected while a build runs. A build collects every
 * issue instead of stopping at the first, so a user sees all problems of a workspace at once.
 *
 * @module
 */

/** How serious an issue is. Any `error` fails the build. */
export type Severity = "error" | "warning" | "info";

/** Where an issue comes from. Every field is optional; set as many as are known. */
export interface SourceLocation {
  /** Workspace-relative file path, e.g. `assets/host.csv` or `models/net.toml`. */
  file?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** For a CSV cell: its 1-based row (header = row 1) and column name (SV31, SV35). */
  cell?: { row: number; column: string };
}

/** One finding of a build. */
export interface BuildIssue extends SourceLocation {
  /** Severity. */
  severity: Severity;
  /** Stable machine-readable code, e.g. `csv_ragged_row`. */
  code: string;
  /** Human-readable message (without the location prefix). */
  message: string;
  /** Rule identification within the file, e.g. `chunk 2, create_resource[0].name`. */
  rule?: string;
  /** Build phase that produced the issue. */
  phase?: string;
  /**
   * The origin resource a rule failed for (`type 'name'`). An error with an origin is a rule
   * error: the build completes without that rule's effect for that origin and is published as
   * `degraded` (reference O12); every other error is structural and fails the build.
   */
  origin?: string;
}

/**
 * Whether an error is a rule error (fails soft, O12) rather than a structural one.
 *
 * @example
 * ```ts
 * import { isRuleError } from "./issues.ts";
 * isRuleError({ severity: "error", code: "template_error", message: "x", origin: "host 'a'" }); // true
 * ```
 */
export function isRuleError(issue: BuildIssue): boolean {
  return issue.severity === "error" && issue.origin !== undefined;
}

/** Formats an issue as `file:line:col: severity[code]: message (rule)`. */
export function formatIssue(issue: BuildIssue): string {
  let where = "";
  if (issue.file) {
    where = issue.file;
    if (issue.line !== undefined) {
      where += `:${issue.line}`;
      if (issue.column !== undefined) where += `:${issue.column}`;
    }
    where += ": ";
  }
  const rule = issue.rule ? ` (${issue.rule})` : "";
  return `${where}${issue.severity}[${issue.code}]: ${issue.message}${rule}`;
}

/**
 * Collects issues of one build and forwards each to an optional listener (the build log).
 */
export class IssueCollector {
  readonly #issues: BuildIssue[] = [];
  readonly #listener?: (issue: BuildIssue) => void;

  /** Creates an empty collector. @param listener called for every issue as it is reported */
  constructor(listener?: (issue: BuildIssue) => void) {
    this.#listener = listener;
  }

  readonly #seen = new Set<string>();

  /**
   * Records an issue. An issue identical to one already recorded (a rule failing the same way in
   * every model pass) is recorded once.
   */
  report(issue: BuildIssue): void {
    const key = [
      issue.severity,
      issue.code,
      issue.message,
      issue.file,
      issue.line,
      issue.column,
      issue.rule,
      issue.phase,
      issue.origin,
    ].join("\u0000");
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#issues.push(issue);
    this.#listener?.(issue);
  }

  /** Records an error. */
  error(
    code: string,
    message: string,
    where: Omit<BuildIssue, "severity" | "code" | "message"> = {},
  ): void {
    this.report({ severity: "error", code, message, ...where });
  }

  /** Records a warning. */
  warn(
    code: string,
    message: string,
    where: Omit<BuildIssue, "severity" | "code" | "message"> = {},
  ): void {
    this.report({ severity: "warning", code, message, ...where });
  }

  /** Records an informational note. */
  info(
    code: string,
    message: string,
    where: Omit<BuildIssue, "severity" | "code" | "message"> = {},
  ): void {
    this.report({ severity: "info", code, message, ...where });
  }

  /** All issues so far, in report order. */
  get all(): readonly BuildIssue[] {
    return this.#issues;
  }

  /** Number of errors so far. */
  get errorCount(): number {
    return this.#issues.filter((i) => i.severity === "error").length;
  }
}
