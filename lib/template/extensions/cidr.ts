/**
 * CIDR helpers of the original engine (T22–T25), IPv4 and IPv6 alike (bigint arithmetic).
 *
 * @module
 */

import { ExtensionError } from "./errors.ts";
import {
  bitsOf,
  blockSize,
  type Cidr,
  type Family,
  formatCidr,
  networkMask,
  parseCidr,
} from "./ip.ts";
import { compareCodePoints, describe, isObject, requireInt, toInt, type ToJson } from "./values.ts";

/** Upper bound for `cidr_split_n(n=)`, keeping the result array reasonably small. */
export const MAX_SPLIT = 1 << 20;

function cidrInput(ext: string, value: unknown, argument: string): Cidr {
  if (typeof value !== "string") {
    throw new ExtensionError(ext, `expected a CIDR string, got ${describe(value)}`, argument);
  }
  const c = parseCidr(value.trim());
  if (!c) throw new ExtensionError(ext, `invalid CIDR ${JSON.stringify(value)}`, argument);
  return c;
}

function bitLength(v: bigint): number {
  return v === 0n ? 0 : v.toString(2).length;
}

/**
 * `calculate_cidr(ips=[…])` (T22): the smallest block containing every address. Elements may be
 * plain addresses or CIDR blocks (a block counts with its whole range).
 */
export function calculateCidr(args: Record<string, unknown>, toJson: ToJson): string {
  const ext = "calculate_cidr";
  const raw = toJson(args.ips);
  if (args.ips === undefined || raw === null) {
    throw new ExtensionError(ext, "missing required argument `ips`", "ips");
  }
  const list = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(list)) {
    throw new ExtensionError(ext, `expected an array of addresses, got ${describe(raw)}`, "ips");
  }
  if (list.length === 0) throw new ExtensionError(ext, "needs at least one address", "ips");
  let family: Family | undefined;
  let lo = 0n;
  let hi = 0n;
  for (const item of list) {
    const c = typeof item === "string" ? parseCidr(item.trim(), true) : undefined;
    if (!c) throw new ExtensionError(ext, `invalid IP address ${describe(item)}`, "ips");
    if (family !== undefined && c.family !== family) {
      throw new ExtensionError(ext, "cannot mix IPv4 and IPv6 addresses", "ips");
    }
    const first = c.value;
    const last = c.value + blockSize(c.family, c.prefix) - 1n;
    if (family === undefined) {
      family = c.family;
      lo = first;
      hi = last;
    } else {
      if (first < lo) lo = first;
      if (last > hi) hi = last;
    }
  }
  const fam = family!;
  const prefix = bitsOf(fam) - bitLength(lo ^ hi);
  return formatCidr({ family: fam, value: lo & networkMask(fam, prefix), prefix });
}

/** Prefix length of the smallest block holding `hosts` usable addresses (IPv4 reserves 2). */
function prefixForHosts(family: Family, hosts: number): number | undefined {
  const need = BigInt(hosts) + (family === 4 ? 2n : 0n);
  const k = bitLength(need - 1n);
  const prefix = bitsOf(family) - k;
  return prefix < 0 ? undefined : prefix;
}

/**
 * `allocate_subnets(cidr=C, host_map={name: hosts})` (T23): non-overlapping blocks inside C,
 * largest requests first (ties by name), packed from the start of C. The result object is keyed
 * by name in name order.
 */
export function allocateSubnets(
  args: Record<string, unknown>,
  toJson: ToJson,
): Record<string, string> {
  const ext = "allocate_subnets";
  if (args.cidr === undefined || args.cidr === null) {
    throw new ExtensionError(ext, "missing required argument `cidr`", "cidr");
  }
  const parent = cidrInput(ext, args.cidr, "cidr");
  const map = toJson(args.host_map);
  if (args.host_map === undefined || map === null) {
    throw new ExtensionError(ext, "missing required argument `host_map`", "host_map");
  }
  if (!isObject(map)) {
    throw new ExtensionError(
      ext,
      `expected an object name → hosts, got ${describe(map)}`,
      "host_map",
    );
  }
  const requests = Object.entries(map).map(([name, h]) => {
    const hosts = toInt(ext, h, `host_map.${name}`);
    if (hosts < 1) {
      throw new ExtensionError(
        ext,
        `host count must be at least 1, got ${hosts}`,
        `host_map.${name}`,
      );
    }
    const prefix = prefixForHosts(parent.family, hosts);
    if (prefix === undefined || prefix < parent.prefix) {
      throw new ExtensionError(
        ext,
        `${hosts} hosts do not fit into ${formatCidr(parent)}`,
        `host_map.${name}`,
      );
    }
    return { name, hosts, prefix };
  });
  requests.sort((a, b) => b.hosts - a.hosts || compareCodePoints(a.name, b.name));
  const end = parent.value + blockSize(parent.family, parent.prefix);
  let cursor = parent.value;
  const out: Record<string, string> = {};
  for (const r of requests) {
    const size = blockSize(parent.family, r.prefix);
    const start = ((cursor + size - 1n) / size) * size;
    if (start + size > end) {
      throw new ExtensionError(
        ext,
        `${formatCidr(parent)} is too small: no room left for ${JSON.stringify(r.name)} ` +
          `(${r.hosts} hosts, /${r.prefix})`,
        "host_map",
      );
    }
    out[r.name] = formatCidr({ family: parent.family, value: start, prefix: r.prefix });
    cursor = start + size;
  }
  const sorted: Record<string, string> = {};
  for (const k of Object.keys(out).sort(compareCodePoints)) sorted[k] = out[k];
  return sorted;
}

/** Filter `cidr_nth_subnet(prefix=P, nth=N)` (T24). */
export function cidrNthSubnet(value: unknown, args: Record<string, unknown>): string {
  const ext = "cidr_nth_subnet";
  const parent = cidrInput(ext, value, "value");
  const prefix = requireInt(ext, args, "prefix");
  const nth = requireInt(ext, args, "nth");
  const max = bitsOf(parent.family);
  if (prefix < parent.prefix || prefix > max) {
    throw new ExtensionError(
      ext,
      `prefix must be between ${parent.prefix} and ${max} for ${formatCidr(parent)}, got ${prefix}`,
      "prefix",
    );
  }
  const count = 1n << BigInt(prefix - parent.prefix);
  if (nth < 0 || BigInt(nth) >= count) {
    throw new ExtensionError(
      ext,
      `${formatCidr(parent)} has ${count} subnets of /${prefix}; index ${nth} is out of range`,
      "nth",
    );
  }
  const value2 = parent.value + BigInt(nth) * blockSize(parent.family, prefix);
  return formatCidr({ family: parent.family, value: value2, prefix });
}

/** Filter `cidr_split_n(n=N)` (T25): `2^ceil(log2 N)` equal sub-blocks, in address order. */
export function cidrSplitN(value: unknown, args: Record<string, unknown>): string[] {
  const ext = "cidr_split_n";
  const parent = cidrInput(ext, value, "value");
  const n = requireInt(ext, args, "n");
  if (n < 1 || n > MAX_SPLIT) {
    throw new ExtensionError(ext, `n must be between 1 and ${MAX_SPLIT}, got ${n}`, "n");
  }
  const k = bitLength(BigInt(n - 1));
  const prefix = parent.prefix + k;
  if (prefix > bitsOf(parent.family)) {
    throw new ExtensionError(ext, `${formatCidr(parent)} cannot be split into ${n} blocks`, "n");
  }
  const size = blockSize(parent.family, prefix);
  const out: string[] = [];
  for (let i = 0n; i < 1n << BigInt(k); i++) {
    out.push(formatCidr({ family: parent.family, value: parent.value + i * size, prefix }));
  }
  return out;
}
