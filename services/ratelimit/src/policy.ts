// What a key may be used for: networks, client addresses (IPv4/IPv6 addresses and
// CIDRs) and origins. An empty list allows any. A restricted key refuses a request
// that does not say (no Origin header, no address): the restriction cannot be
// passed by leaving the header out.
import { BlockList, isIP } from "node:net";

export interface KeyPolicy {
  networks: readonly string[];
  ips: readonly string[];
  origins: readonly string[];
}

export interface ClientView {
  address: string;
  origin: string;
  network: string;
}

/** "::ffff:10.1.2.3" (an IPv4 client on a dual-stack socket) is 10.1.2.3; IPv6 lowercased. */
export function normalizeAddress(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  return isIP(a) === 6 ? a.toLowerCase() : a;
}

/** 127.0.0.0/8 and ::1 (also as an IPv4-mapped IPv6 address). */
export function isLoopback(address: string): boolean {
  const a = normalizeAddress(address);
  return a === "::1" || (isIP(a) === 4 && a.startsWith("127."));
}

/** An address or CIDR as written in a key's `ips`, checked and in a canonical spelling; throws a message for a person. */
export function parseAddressRule(rule: string): { address: string; prefix: number; family: "ipv4" | "ipv6"; text: string } {
  const [addr = "", bits, extra] = rule.trim().split("/");
  const address = normalizeAddress(addr);
  const v = isIP(address);
  if (!v || extra !== undefined) throw new Error(`"${rule}" is not an IP address or CIDR (e.g. 10.0.0.0/8, 2001:db8::/32)`);
  const max = v === 4 ? 32 : 128;
  let prefix = max;
  if (bits !== undefined) {
    prefix = /^\d{1,3}$/.test(bits) ? Number(bits) : NaN;
    if (!(prefix >= 0 && prefix <= max)) throw new Error(`"${rule}": the prefix length must be 0..${max}`);
  }
  return { address, prefix, family: v === 4 ? "ipv4" : "ipv6", text: prefix === max ? address : `${address}/${prefix}` };
}

/** An origin as written in a key's `origins`: scheme://host[:port], checked and normalized (lowercase, default port dropped). */
export function parseOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin.trim());
  } catch {
    throw new Error(`"${origin}" is not an origin (e.g. https://app.example.com)`);
  }
  if (url.origin === "null" || url.pathname.length > 1 || url.search || url.hash || url.username) {
    throw new Error(`"${origin}" is not an origin: scheme://host[:port] only (e.g. https://app.example.com)`);
  }
  return url.origin;
}

const NETWORK = /^[a-z0-9][a-z0-9_-]{0,31}$/;

export function parseNetwork(network: string): string {
  const n = network.trim().toLowerCase();
  if (!NETWORK.test(n)) throw new Error(`"${network}" is not a network name (e.g. mainnet, testnet)`);
  return n;
}

/** A key's policy, compiled for checking requests. */
export class CompiledPolicy {
  private readonly blocks?: BlockList;
  private readonly networks: Set<string>;
  private readonly origins: Set<string>;

  constructor(policy: KeyPolicy) {
    this.networks = new Set(policy.networks);
    this.origins = new Set(policy.origins);
    if (policy.ips.length) {
      this.blocks = new BlockList();
      for (const r of policy.ips) {
        const { address, prefix, family } = parseAddressRule(r);
        this.blocks.addSubnet(address, prefix, family);
      }
    }
  }

  /** Why the client may not use the key, or undefined when it may. */
  refusal(client: ClientView): string | undefined {
    if (this.networks.size && !this.networks.has(client.network.toLowerCase())) {
      return `API key is not allowed for network ${client.network || "(not given)"}`;
    }
    if (this.blocks) {
      const address = normalizeAddress(client.address);
      const v = isIP(address);
      if (!v || !this.blocks.check(address, v === 4 ? "ipv4" : "ipv6")) return `API key is not allowed for address ${client.address || "(not given)"}`;
    }
    if (this.origins.size) {
      let origin: string | undefined;
      try {
        origin = client.origin ? new URL(client.origin).origin : undefined;
      } catch {
        origin = undefined;
      }
      if (!origin || !this.origins.has(origin)) return `API key is not allowed for origin ${client.origin || "(no Origin header)"}`;
    }
    return undefined;
  }
}
