/**
 * The `date` filter and `now` function: chrono-compatible parsing of timestamps, RFC 3339 and
 * `YYYY-MM-DD` strings, strftime formatting and IANA time zones (via `Intl`).
 * @module
 */

import { describe, isFloat, isInt } from "../value.ts";
import { argStr, type FilterTable } from "./args.ts";

interface Moment {
  /** Milliseconds since the epoch (UTC). */
  ms: number;
  /** Nanoseconds within the second. */
  nanos: number;
  /** Offset east of UTC in seconds; null for a naive date-time. */
  offset: number | null;
  /** Zone abbreviation for `%Z` when known. */
  zone?: string;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

function parseDateString(s: string): Moment {
  if (s.includes("T")) {
    const m = RFC3339.exec(s);
    if (m) {
      const [, y, mo, d, h, mi, se, frac, z, sign, oh, om] = m;
      const nanos = frac ? Number((frac + "000000000").slice(0, 9)) : 0;
      const base = Date.UTC(+y, +mo - 1, +d, +h, +mi, +se);
      if (validFields(+y, +mo, +d, +h, +mi, +se)) {
        if (z || sign) {
          const off = z ? 0 : (sign === "-" ? -1 : 1) * (+oh * 3600 + +om * 60);
          return { ms: base - off * 1000, nanos, offset: off };
        }
        return { ms: base, nanos, offset: 0, zone: "UTC" };
      }
    }
    throw new Error(`Error parsing \`${JSON.stringify(s)}\` as rfc3339 date or naive datetime`);
  }
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(s);
  if (m && validFields(+m[1], +m[2], +m[3], 0, 0, 0)) {
    return { ms: Date.UTC(+m[1], +m[2] - 1, +m[3]), nanos: 0, offset: 0, zone: "UTC" };
  }
  throw new Error(`Error parsing \`${JSON.stringify(s)}\` as YYYY-MM-DD date`);
}

function validFields(y: number, mo: number, d: number, h: number, mi: number, s: number): boolean {
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 60) return false;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

const tzCache = new Map<string, Intl.DateTimeFormat>();

function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let f = tzCache.get(tz);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat("en-US", {
        timeZone: tz,
        hourCycle: "h23",
        year: "numeric",
        month: "numeric",
        day: "numeric",
        hour: "numeric",
        minute: "numeric",
        second: "numeric",
        timeZoneName: "short",
      });
    } catch {
      throw new Error(`Error parsing \`${tz}\` as a timezone`);
    }
    tzCache.set(tz, f);
  }
  return f;
}

function inZone(m: Moment, tz: string): Moment {
  const f = zoneFormatter(tz);
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(m.ms))) parts[p.type] = p.value;
  const local = Date.UTC(
    +parts.year,
    +parts.month - 1,
    +parts.day,
    +parts.hour,
    +parts.minute,
    +parts.second,
  );
  const offset = Math.round((local - Math.floor(m.ms / 1000) * 1000) / 1000);
  return { ms: m.ms, nanos: m.nanos, offset, zone: parts.timeZoneName };
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTHS = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

function pad(n: number, width: number, ch: string): string {
  const neg = n < 0;
  const s = String(Math.abs(n));
  return (neg ? "-" : "") + (s.length >= width ? s : ch.repeat(width - s.length) + s);
}

function isoWeek(d: Date): [number, number] {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const day = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - day);
  const y = t.getUTCFullYear();
  const week = Math.ceil(((t.getTime() - Date.UTC(y, 0, 1)) / 86400000 + 1) / 7);
  return [y, week];
}

function offsetText(off: number, colon: boolean): string {
  const sign = off < 0 ? "-" : "+";
  const a = Math.abs(off);
  return sign + pad(Math.floor(a / 3600), 2, "0") + (colon ? ":" : "") +
    pad(Math.floor(a % 3600 / 60), 2, "0");
}

/** Formats a moment with a chrono strftime format. */
function format(m: Moment, fmt: string): string {
  const local = new Date(m.ms + (m.offset ?? 0) * 1000);
  const Y = local.getUTCFullYear(), Mo = local.getUTCMonth() + 1, D = local.getUTCDate();
  const H = local.getUTCHours(), Mi = local.getUTCMinutes(), S = local.getUTCSeconds();
  const wd = local.getUTCDay();
  const yday = Math.floor((Date.UTC(Y, Mo - 1, D) - Date.UTC(Y, 0, 1)) / 86400000) + 1;
  let out = "";
  for (let i = 0; i < fmt.length; i++) {
    const ch = fmt[i];
    if (ch !== "%") {
      out += ch;
      continue;
    }
    let padCh: string | null = null;
    let spec = fmt[++i];
    if (spec === "-" || spec === "_" || spec === "0") {
      padCh = spec === "-" ? "" : spec === "_" ? " " : "0";
      spec = fmt[++i];
    }
    const num = (n: number, w: number, def = "0") =>
      padCh === "" ? String(n) : pad(n, w, padCh ?? def);
    if (spec === ":" && fmt[i + 1] === "z") {
      i++;
      if (m.offset === null) throw new Error("a naive date-time has no offset for `%:z`");
      out += offsetText(m.offset, true);
      continue;
    }
    if (spec === "." || spec === "3" || spec === "6" || spec === "9") {
      let digits = 0;
      let dot = false;
      if (spec === ".") {
        dot = true;
        if (/[369]/.test(fmt[i + 1]) && fmt[i + 2] === "f") {
          digits = +fmt[i + 1];
          i += 2;
        } else if (fmt[i + 1] === "f") i++;
        else throw new Error(`Invalid date format \`${fmt}\``);
      } else if (fmt[i + 1] === "f") {
        digits = +spec;
        i++;
      } else throw new Error(`Invalid date format \`${fmt}\``);
      const ns = String(m.nanos).padStart(9, "0");
      if (digits) out += (dot ? "." : "") + ns.slice(0, digits);
      else if (m.nanos !== 0) {
        const trimmed = m.nanos % 1000000 === 0
          ? ns.slice(0, 3)
          : m.nanos % 1000 === 0
          ? ns.slice(0, 6)
          : ns;
        out += "." + trimmed;
      }
      continue;
    }
    switch (spec) {
      case "Y":
        out += Y >= 0 && Y <= 9999 ? num(Y, 4) : (Y > 0 ? "+" : "") + String(Y);
        break;
      case "C":
        out += num(Math.floor(Y / 100), 2);
        break;
      case "y":
        out += num(((Y % 100) + 100) % 100, 2);
        break;
      case "m":
        out += num(Mo, 2);
        break;
      case "b":
      case "h":
        out += MONTHS[Mo - 1].slice(0, 3);
        break;
      case "B":
        out += MONTHS[Mo - 1];
        break;
      case "d":
        out += num(D, 2);
        break;
      case "e":
        out += num(D, 2, " ");
        break;
      case "a":
        out += DAYS[wd].slice(0, 3);
        break;
      case "A":
        out += DAYS[wd];
        break;
      case "w":
        out += String(wd);
        break;
      case "u":
        out += String(wd || 7);
        break;
      case "U":
        out += num(Math.floor((yday - 1 - wd + 7) / 7), 2);
        break;
      case "W":
        out += num(Math.floor((yday - 1 - ((wd + 6) % 7) + 7) / 7), 2);
        break;
      case "G":
        out += num(isoWeek(local)[0], 4);
        break;
      case "g":
        out += num(isoWeek(local)[0] % 100, 2);
        break;
      case "V":
        out += num(isoWeek(local)[1], 2);
        break;
      case "j":
        out += num(yday, 3);
        break;
      case "D":
      case "x":
        out += `${pad(Mo, 2, "0")}/${pad(D, 2, "0")}/${pad(((Y % 100) + 100) % 100, 2, "0")}`;
        break;
      case "F":
        out += `${pad(Y, 4, "0")}-${pad(Mo, 2, "0")}-${pad(D, 2, "0")}`;
        break;
      case "v":
        out += `${pad(D, 2, " ")}-${MONTHS[Mo - 1].slice(0, 3)}-${pad(Y, 4, "0")}`;
        break;
      case "H":
        out += num(H, 2);
        break;
      case "k":
        out += num(H, 2, " ");
        break;
      case "I":
        out += num(H % 12 || 12, 2);
        break;
      case "l":
        out += num(H % 12 || 12, 2, " ");
        break;
      case "P":
        out += H < 12 ? "am" : "pm";
        break;
      case "p":
        out += H < 12 ? "AM" : "PM";
        break;
      case "M":
        out += num(Mi, 2);
        break;
      case "S":
        out += num(S, 2);
        break;
      case "f":
        out += String(m.nanos).padStart(9, "0");
        break;
      case "R":
        out += `${pad(H, 2, "0")}:${pad(Mi, 2, "0")}`;
        break;
      case "T":
      case "X":
        out += `${pad(H, 2, "0")}:${pad(Mi, 2, "0")}:${pad(S, 2, "0")}`;
        break;
      case "r":
        out += `${pad(H % 12 || 12, 2, "0")}:${pad(Mi, 2, "0")}:${pad(S, 2, "0")} ${
          H < 12 ? "AM" : "PM"
        }`;
        break;
      case "c":
        out += `${DAYS[wd].slice(0, 3)} ${MONTHS[Mo - 1].slice(0, 3)} ${pad(D, 2, " ")} ${
          pad(H, 2, "0")
        }:${pad(Mi, 2, "0")}:${pad(S, 2, "0")} ${Y}`;
        break;
      case "Z":
        if (m.offset === null) throw new Error("a naive date-time has no time zone for `%Z`");
        out += m.zone ?? offsetText(m.offset, true);
        break;
      case "z":
        if (m.offset === null) throw new Error("a naive date-time has no offset for `%z`");
        out += offsetText(m.offset, false);
        break;
      case "s":
        out += String(Math.floor(m.ms / 1000));
        break;
      case "t":
        out += "\t";
        break;
      case "n":
        out += "\n";
        break;
      case "%":
        out += "%";
        break;
      default:
        throw new Error(`Invalid date format \`${fmt}\``);
    }
  }
  return out;
}

/** Formats `now()` like chrono's `to_rfc3339` (fraction of 0, 3, 6 or 9 digits). */
export function nowRfc3339(utc: boolean, at = Date.now()): string {
  const offset = utc ? 0 : -new Date(at).getTimezoneOffset() * 60;
  const m: Moment = { ms: at, nanos: (at % 1000) * 1000000, offset };
  const base = format(m, "%Y-%m-%dT%H:%M:%S%.f");
  return base + offsetText(offset, true);
}

/** Format strings already validated (validity depends on the string alone). */
const validFormats = new Set<string>();

/** The `date` filter. */
export const dateFilters: FilterTable = {
  date: (v, a) => {
    const fmt = a.format === undefined ? "%Y-%m-%d" : argStr("date", "format", a.format);
    let m: Moment;
    if (isInt(v)) m = { ms: v * 1000, nanos: 0, offset: null };
    else if (isFloat(v)) throw new Error(`Filter \`date\` was invoked on a float: ${describe(v)}`);
    else if (typeof v === "string") m = parseDateString(v);
    else {
      throw new Error(
        `Filter \`date\` received an incorrect type for arg \`value\`: got \`${
          describe(v)
        }\` but expected i64|u64|String`,
      );
    }
    if (a.timezone !== undefined) m = inZone(m, argStr("date", "timezone", a.timezone));
    // validate the whole format before rendering, as chrono does (once per format string)
    if (!validFormats.has(fmt)) {
      format({ ms: 0, nanos: 0, offset: 0 }, fmt);
      if (validFormats.size < 1024) validFormats.add(fmt);
    }
    return format(m, fmt);
  },
};
