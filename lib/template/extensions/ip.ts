/**
 * IPv4/IPv6 addresses and CIDR blocks as bigints (T22–T25).
 *
 * Parsing follows Rust's `std::net` / `ipnet` (the original's libraries): IPv4 is strict
 * dotted-quad without leading zeros; IPv6 accepts `::` compression and a trailing embedded IPv4;
 * zone ids are rejected. Formatting is RFC 5952 (lowercase, longest zero run compressed,
 * `::ffff:a.b.c.d` for IPv4-mapped addresses), as Rust prints them.
 *
 * @module
 */

/** Address family: 4 or 6. */
export type Family = 4 | 6;

/** A parsed address. */
export interface IpAddress {
  family: Family;
  value: bigint;
}

/** A CIDR block; `value` is the network address (host bits cleared). */
export interface Cidr {
  family: Family;
  value: bigint;
  prefix: number;
}

/** Number of address bits of a family. */
export function bitsOf(family: Family): number {
  return family === 4 ? 32 : 128;
}

function parseIpv4(text: string): bigint | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = (value << 8n) | BigInt(n);
  }
  return value;
}

function parseIpv6(text: string): bigint | undefined {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return undefined;
  let groups: string[];
  const dbl = text.indexOf("::");
  let head: string[];
  let tail: string[];
  if (dbl >= 0) {
    if (text.indexOf("::", dbl + 1) >= 0) return undefined;
    const left = text.slice(0, dbl);
    const right = text.slice(dbl + 2);
    head = left === "" ? [] : left.split(":");
    tail = right === "" ? [] : right.split(":");
  } else {
    head = text.split(":");
    tail = [];
  }
  const expand = (list: string[]): string[] | undefined => {
    const out: string[] = [];
    for (let i = 0; i < list.length; i++) {
      const g = list[i];
      if (g.includes(".")) {
        if (i !== list.length - 1) return undefined;
        const v4 = parseIpv4(g);
        if (v4 === undefined) return undefined;
        out.push(((v4 >> 16n) & 0xffffn).toString(16), (v4 & 0xffffn).toString(16));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return undefined;
        out.push(g);
      }
    }
    return out;
  };
  const h = expand(head);
  const t = expand(tail);
  if (!h || !t) return undefined;
  // An embedded IPv4 is only allowed at the very end of the address.
  if (dbl >= 0 && head.some((g) => g.includes("."))) return undefined;
  if (dbl >= 0) {
    if (h.length + t.length > 7) return undefined;
    groups = [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  } else {
    if (h.length !== 8) return undefined;
    groups = h;
  }
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(parseInt(g, 16));
  return value;
}

/** Parses an IPv4 or IPv6 address; undefined when the text is not an address. */
export function parseAddress(text: string): IpAddress | undefined {
  const v4 = parseIpv4(text);
  if (v4 !== undefined) return { family: 4, value: v4 };
  const v6 = parseIpv6(text);
  if (v6 !== undefined) return { family: 6, value: v6 };
  return undefined;
}

/**
 * Parses `addr/prefix`. Host bits are cleared (like `ipnet`'s `trunc()`); with
 * `allowBareAddress` a plain address is a full-length block (/32 or /128).
 */
export function parseCidr(text: string, allowBareAddress = false): Cidr | undefined {
  const slash = text.indexOf("/");
  if (slash < 0) {
    if (!allowBareAddress) return undefined;
    const a = parseAddress(text);
    return a && { family: a.family, value: a.value, prefix: bitsOf(a.family) };
  }
  const addr = parseAddress(text.slice(0, slash));
  const p = text.slice(slash + 1);
  if (!addr || !/^(0|[1-9]\d{0,2})$/.test(p)) return undefined;
  const prefix = Number(p);
  if (prefix > bitsOf(addr.family)) return undefined;
  return { family: addr.family, value: addr.value & networkMask(addr.family, prefix), prefix };
}

/** Mask with the first `prefix` bits set. */
export function networkMask(family: Family, prefix: number): bigint {
  const bits = BigInt(bitsOf(family));
  const all = (1n << bits) - 1n;
  return all ^ ((1n << (bits - BigInt(prefix))) - 1n);
}

/** Number of addresses in a block of the given prefix length. */
export function blockSize(family: Family, prefix: number): bigint {
  return 1n << BigInt(bitsOf(family) - prefix);
}

/** Formats an address (RFC 5952 for IPv6). */
export function formatAddress(family: Family, value: bigint): string {
  if (family === 4) {
    return [24n, 16n, 8n, 0n].map((s) => ((value >> s) & 0xffn).toString()).join(".");
  }
  const groups: number[] = [];
  for (let i = 7; i >= 0; i--) groups.push(Number((value >> BigInt(i * 16)) & 0xffffn));
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${formatAddress(4, value & 0xffffffffn)}`;
  }
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestLen < 2) return hex.join(":");
  const left = hex.slice(0, bestStart).join(":");
  const right = hex.slice(bestStart + bestLen).join(":");
  return `${left}::${right}`;
}

/** Formats a block as `network/prefix`. */
export function formatCidr(c: Cidr): string {
  return `${formatAddress(c.family, c.value)}/${c.prefix}`;
}
