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

  /** Records an issue. */
  report(issue: BuildIssue): void {
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
