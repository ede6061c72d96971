// Which addresses a metadata fetch may connect to. A content URI is written by whoever deployed a
// token, so without this rule any token could make the indexer's host request its own cloud
// metadata service (169.254.169.254), an admin port on loopback or a neighbour on the private
// network. An address is judged after DNS resolution (a public name can point anywhere) and the
// connection then goes to that same address (see request.ts).
import { isIPv4, isIPv6 } from "node:net";

/** Why an address is refused: the name of its special-purpose range. */
export type AddressCategory =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "carrier-grade NAT"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved"
  | "not an IP address";

type Range4 = readonly [base: number, bits: number, category: AddressCategory];

// IANA's IPv4 special-purpose registry, the ranges that are not reachable on the public internet.
const V4: readonly Range4[] = [
  [ip4(0, 0, 0, 0), 8, "unspecified"],
  [ip4(10, 0, 0, 0), 8, "private"],
  [ip4(100, 64, 0, 0), 10, "carrier-grade NAT"],
  [ip4(127, 0, 0, 0), 8, "loopback"],
  [ip4(169, 254, 0, 0), 16, "link-local"],
  [ip4(172, 16, 0, 0), 12, "private"],
  [ip4(192, 0, 0, 0), 24, "reserved"],
  [ip4(192, 0, 2, 0), 24, "documentation"],
  [ip4(192, 88, 99, 0), 24, "reserved"],
  [ip4(192, 168, 0, 0), 16, "private"],
  [ip4(198, 18, 0, 0), 15, "benchmarking"],
  [ip4(198, 51, 100, 0), 24, "documentation"],
  [ip4(203, 0, 113, 0), 24, "documentation"],
  [ip4(224, 0, 0, 0), 4, "multicast"],
  [ip4(255, 255, 255, 255), 32, "broadcast"],
  [ip4(240, 0, 0, 0), 4, "reserved"],
];

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function judge4(value: number): AddressCategory | undefined {
  for (const [base, bits, category] of V4) {
    const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
    if (((value & mask) >>> 0) === base) return category;
  }
  return undefined;
}

function parse4(text: string): number {
  const [a, b, c, d] = text.split(".").map(Number);
  return ip4(a!, b!, c!, d!);
}

/** An IPv6 address as 16 bytes (the text is known to be valid IPv6; a zone id is dropped). */
function parse6(text: string): Uint8Array {
  let s = text.split("%")[0]!;
  const bytes = new Uint8Array(16);
  // A trailing dotted quad (::ffff:10.0.0.1) is the last 32 bits.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  let tail: number[] = [];
  if (dotted) {
    const v = parse4(dotted[1]!);
    tail = [v >>> 16, v & 0xffff];
    s = s.slice(0, -dotted[1]!.length);
    if (s.endsWith(":") && !s.endsWith("::")) s = s.slice(0, -1);
  }
  const [head, rest] = s.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").filter((g) => g !== "").map((g) => parseInt(g, 16)) : []);
  const left = groups(head);
  const right = [...groups(rest), ...tail];
  const all = rest === undefined ? [...left, ...tail] : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  all.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  return bytes;
}

function prefixIs(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const bit = 7 - (i & 7);
    if (((bytes[byte]! >> bit) & 1) !== ((prefix[byte] ?? 0) >> bit & 1)) return false;
  }
  return true;
}

function embedded4(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function judge6(bytes: Uint8Array): AddressCategory | undefined {
  if (bytes.every((b) => b === 0)) return "unspecified";
  if (bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1) return "loopback";
  // Forms that carry an IPv4 address are judged by it: mapped (::ffff:a.b.c.d), the old
  // compatible form (::a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::).
  if (prefixIs(bytes, [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff], 96)) return judge4(embedded4(bytes, 12));
  if (prefixIs(bytes, [], 96)) return judge4(embedded4(bytes, 12)) ?? "reserved";
  if (prefixIs(bytes, [0, 0x64, 0xff, 0x9b], 96)) return judge4(embedded4(bytes, 12));
  if (prefixIs(bytes, [0, 0x64, 0xff, 0x9b, 0, 1], 48)) return "private";
  if (prefixIs(bytes, [0x20, 0x02], 16)) return judge4(embedded4(bytes, 2));
  if (prefixIs(bytes, [0x20, 0x01, 0x0d, 0xb8], 32)) return "documentation";
  // 2001::/23: IETF protocol assignments, among them Teredo (2001::/32), which tunnels to an
  // IPv4 address of its own.
  if (prefixIs(bytes, [0x20, 0x01, 0x00], 23)) return "reserved";
  if (prefixIs(bytes, [0xfc], 7)) return "private";
  if (prefixIs(bytes, [0xfe, 0x80], 10)) return "link-local";
  if (prefixIs(bytes, [0xfe, 0xc0], 10)) return "private"; // site-local, deprecated
  if (prefixIs(bytes, [0xff], 8)) return "multicast";
  // Only 2000::/3 is allocated as global unicast; the rest (100::/64 discard, …) is not public.
  if (!prefixIs(bytes, [0x20], 3)) return "reserved";
  return undefined;
}

/**
 * The special-purpose range an address belongs to, or undefined for a public address (one a
 * metadata fetch may connect to without `allowPrivate`).
 */
export function addressCategory(address: string): AddressCategory | undefined {
  if (isIPv4(address)) return judge4(parse4(address));
  if (isIPv6(address)) return judge6(parse6(address));
  return "not an IP address";
}
