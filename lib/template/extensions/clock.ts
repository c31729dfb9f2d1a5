/**
 * Function `now(timestamp=false, utc=false)` with an injectable clock, rendering exactly like
 * Tera's (chrono `to_rfc3339`: fractional seconds only when non-zero, numeric offset `+00:00`).
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

/** RFC 3339 text of `date` in UTC (`utc`) or in the local time zone of the process. */
export function formatRfc3339(date: Date, utc: boolean): string {
  const offsetMin = utc ? 0 : -date.getTimezoneOffset();
  const shifted = new Date(date.getTime() + offsetMin * 60_000);
  const ms = shifted.getUTCMilliseconds();
  const frac = ms === 0 ? "" : `.${pad(ms, 3)}`;
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${pad(shifted.getUTCFullYear(), 4)}-${pad(shifted.getUTCMonth() + 1)}-${
    pad(shifted.getUTCDate())
  }` +
    `T${pad(shifted.getUTCHours())}:${pad(shifted.getUTCMinutes())}:${
      pad(shifted.getUTCSeconds())
    }` +
    `${frac}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** Evaluates `now(...)` against `clock`. */
export function nowFunction(args: Record<string, unknown>, clock: () => Date): string | number {
  for (const name of ["timestamp", "utc"]) {
    const v = args[name];
    if (v !== undefined && typeof v !== "boolean") {
      throw new ExtensionError("now", `expected a boolean, got ${JSON.stringify(v)}`, name);
    }
  }
  const date = clock();
  if (args.timestamp === true) return Math.floor(date.getTime() / 1000);
  return formatRfc3339(date, args.utc === true);
}
