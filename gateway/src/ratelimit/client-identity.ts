// Who is asking, as the rate limiter counts it: the API key, the client's IP
// address and the Origin header. The key comes from the X-API-Key header or the
// api_key query parameter (toncenter's two ways); a key in a JSON body is not
// one (toncenter documents only these two, and the limit is decided before the
// body is read). The address is the socket peer, or, when the peer is a trusted
// proxy, the rightmost X-Forwarded-For entry that is not a trusted proxy itself:
// entries left of it were written by the client and prove nothing.
import { BlockList, isIP } from "node:net";
import type { IncomingMessage } from "node:http";
import { apiKeyId, ConfigError } from "@tongate/runtime";

export interface ClientIdentity {
  /** Empty: keyless. */
  apiKey: string;
  address: string;
  origin: string;
}

/** A request whose identity is contradictory (422). */
export class IdentityError extends Error {
  readonly status = 422;
}

/** The API key of a request; throws IdentityError when it names two different keys. */
export function apiKeyOf(req: IncomingMessage, query: string): string {
  const header = req.headers["x-api-key"];
  // Node joins repeated custom headers with ", ": two X-API-Key headers are one key that does not exist.
  const fromHeader = (Array.isArray(header) ? header.join(", ") : header ?? "").trim();
  // Parsed like the codec parses it, so a percent-encoded name (api%5Fkey) is the same parameter; a query
  // with neither the name nor an escape has none.
  const parse = query.includes("api_key") || query.includes("%");
  const fromQuery = parse ? [...new Set(new URLSearchParams(query).getAll("api_key").filter((k) => k !== ""))] : [];
  if (fromQuery.length > 1) throw new IdentityError("api_key: the query names several different keys");
  const q = fromQuery[0];
  if (q !== undefined && fromHeader && q !== fromHeader) {
    throw new IdentityError("api_key: the X-API-Key header and the api_key query parameter name different keys");
  }
  return fromHeader || (q ?? "");
}

/** The client addresses behind the configured trusted proxies (`--trusted-proxy CIDR`). */
export class ClientAddresses {
  private readonly trusted = new BlockList();
  private readonly any: boolean;

  /** `proxies`: addresses or CIDRs (IPv4 or IPv6); a malformed one is a ConfigError. */
  constructor(proxies: readonly string[] = []) {
    for (const p of proxies) {
      const [net, bits, extra] = p.trim().split("/");
      const type = isIP(net ?? "");
      const prefix = bits === undefined ? (type === 6 ? 128 : 32) : Number(bits);
      if (!type || extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > (type === 6 ? 128 : 32)) {
        throw new ConfigError(`--trusted-proxy "${p}" is not an IP address or CIDR`);
      }
      this.trusted.addSubnet(net!, prefix, type === 6 ? "ipv6" : "ipv4");
    }
    this.any = proxies.length > 0;
  }

  of(req: IncomingMessage): string {
    const peer = unmapped(req.socket.remoteAddress ?? "");
    if (!this.any || !this.isTrusted(peer)) return peer;
    const header = req.headers["x-forwarded-for"];
    if (!header) return peer;
    const hops = (Array.isArray(header) ? header.join(",") : header).split(",");
    let client = peer;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = unmapped(hops[i]!.trim());
      // A malformed entry was not written by a proxy we trust: the last good one stands.
      if (!isIP(hop)) break;
      client = hop;
      if (!this.isTrusted(hop)) break;
    }
    return client;
  }

  private isTrusted(address: string): boolean {
    const type = isIP(address);
    return type !== 0 && this.trusted.check(address, type === 6 ? "ipv6" : "ipv4");
  }
}

/** "::ffff:1.2.3.4" (an IPv4 peer of a dual-stack socket) → "1.2.3.4". */
const unmapped = (address: string) => (address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address);

/** The request header that tells a service who is asking (forwardedClient); one a client sends is never forwarded. */
export const CLIENT_HEADER = "x-tongate-client";

/**
 * Who is asking, as services see it in the CLIENT_HEADER of every call the gateway makes: `key:<id>`
 * (the public id of the API key, as the RateLimit service lists it — the secret never leaves the
 * gateway) or `ip:<address>` when keyless. A service keeps its own per-client limits by it (the
 * streaming service's connections per client). Without rate limiting keys are not checked, so a
 * made-up key would be a new client at will: the address alone counts then.
 */
export function forwardedClient(client: ClientIdentity | undefined, peer: string): string {
  if (client?.apiKey) return `key:${keyIdOf(client.apiKey)}`;
  return `ip:${client?.address ?? unmapped(peer)}`;
}

/** The public id of an API key: the RateLimit service's (the first 12 hex digits of its SHA-256). */
export const keyIdOf = apiKeyId;
