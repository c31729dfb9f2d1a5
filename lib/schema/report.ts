/**
 * Validation reports (reference SV35–SV36, SV40, SV42–SV43): deduplication, strict promotion,
 * sorting, counts, and the CE text / EE syslog renderings.
 *
 * @module
 */
import type { ValidationIssue, ValidationReport, ValidationSeverity } from "./types.ts";

const RANK: Record<ValidationSeverity, number> = { error: 0, warning: 1, info: 2 };

/**
 * Builds the report: identical issues once, warnings promoted to errors in strict mode
 * (`promoted: true`; info never), sorted by severity, code, message (SV35), counted (SV36).
 *
 * @example
 * ```ts
 * import { makeReport } from "./report.ts";
 * const r = makeReport([{ severity: "warning", code: "relation_conflict", message: "m" }], true);
 * console.log(r.error_count, r.issues[0].promoted); // 1 true
 * ```
 */
export function makeReport(issues: readonly ValidationIssue[], strict: boolean): ValidationReport {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const issue of issues) {
    const key = JSON.stringify(issue);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(
      strict && issue.severity === "warning"
        ? { ...issue, severity: "error", promoted: true }
        : { ...issue },
    );
  }
  out.sort((a, b) =>
    RANK[a.severity] - RANK[b.severity] || cmp(a.code, b.code) || cmp(a.message, b.message)
  );
  const count = (s: ValidationSeverity) => out.filter((i) => i.severity === s).length;
  return {
    error_count: count("error"),
    warning_count: count("warning"),
    info_count: count("info"),
    issues: out,
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * CE text rendering (SV42): `<severity> <code> <message>` per issue, then
 * `N error(s), N warning(s), N info`.
 *
 * @example
 * ```ts
 * import { formatReportText, makeReport } from "./report.ts";
 * console.log(formatReportText(makeReport([], false))); // "0 error(s), 0 warning(s), 0 info\n"
 * ```
 */
export function formatReportText(report: ValidationReport): string {
  const lines = report.issues.map((i) => `${i.severity} ${i.code} ${oneLine(i.message)}`);
  lines.push(
    `${report.error_count} error(s), ${report.warning_count} warning(s), ${report.info_count} info`,
  );
  return lines.join("\n") + "\n";
}

/** Where a syslog line comes from (SV43). */
export interface SyslogOrigin {
  /** Host name (`-` when unknown). */
  host: string;
  /** Process id. */
  pid: number;
  /** Timestamp of the lines. */
  now: Date;
}

const SYSLOG_SEVERITY: Record<ValidationSeverity, number> = { error: 3, warning: 4, info: 6 };

/**
 * EE rendering (SV43): one RFC 5424-shaped line per issue,
 * `<PRI>1 <timestamp> <host> graphsvc-ee <pid> <code> - <message>`, facility user (PRI = 8 +
 * severity).
 *
 * @example
 * ```ts
 * import { formatReportSyslog, makeReport } from "./report.ts";
 * const r = makeReport([{ severity: "error", code: "x", message: "m" }], false);
 * console.log(formatReportSyslog(r, { host: "h", pid: 7, now: new Date(0) }));
 * // "<11>1 1970-01-01T00:00:00.000Z h graphsvc-ee 7 x - m\n"
 * ```
 */
export function formatReportSyslog(report: ValidationReport, origin: SyslogOrigin): string {
  const ts = origin.now.toISOString();
  const host = origin.host.replace(/\s+/g, "") || "-";
  return report.issues.map((i) =>
    `<${8 + SYSLOG_SEVERITY[i.severity]}>1 ${ts} ${host} graphsvc-ee ${origin.pid} ${i.code} - ${
      oneLine(i.message)
    }\n`
  ).join("");
}

function oneLine(text: string): string {
  return text.replace(/\r?\n/g, " ");
}
