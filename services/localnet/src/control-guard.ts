// Who may use the control API. It hands out the genesis wallets' secret keys and moves the chain,
// so a web page the developer happens to visit must not reach it through the browser:
// - DNS rebinding: a page of evil.example whose name is then made to resolve to 127.0.0.1 reaches
//   the port, but its requests carry `Host: evil.example`. Only loopback names are accepted
//   (localhost, 127.0.0.0/8, [::1]), and the IP literal of the address the connection came in on
//   (a control API bound to a LAN address by the user is reached as http://192.168.1.5:30380): an IP
//   literal is no DNS name, so nothing can rebind it. A machine's DNS name is refused.
// - cross-site requests: a page may send a form, text/plain or bodyless POST to any address without
//   asking the browser first (no CORS preflight); a JSON POST needs the preflight, which fails
//   because the control API sends no CORS header at all. So every POST must be JSON (415
//   otherwise), and a request whose Origin is another site is refused.
// Programs (curl, tests, SDKs) are unaffected: they send a loopback Host and no Origin.
import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

/** Why a request is refused, with its HTTP status; undefined when it may go on. */
export type Refusal = { status: number; error: string } | undefined;

/** The hostname of a Host header or an Origin (IPv6 in brackets, lowercase), or undefined when it is not one. */
function hostnameOf(hostPort: string): string | undefined {
  // a bare host[:port]; anything else (userinfo, a path) would let URL parsing pick another host
  if (!/^[A-Za-z0-9.\-:[\]]+$/.test(hostPort)) return undefined;
  try {
    // URL normalises what resolvers accept as the same address (IPv6 forms, 0x7f.1, trailing case)
    return new URL(`http://${hostPort}`).hostname;
  } catch {
    return undefined;
  }
}

const bare = (hostname: string) => (hostname.startsWith("[") ? hostname.slice(1, -1) : hostname);

/** localhost, 127.0.0.0/8 or ::1 (also as an IPv4-mapped IPv6 address). */
export function isLoopbackName(hostname: string): boolean {
  const h = bare(hostname).replace(/^::ffff:/, "");
  if (h === "localhost" || h === "::1") return true;
  return isIP(h) === 4 && h.startsWith("127.");
}

/** Whether `hostname` names loopback or, as an IP literal, the local address of this connection. */
function isOwnName(hostname: string, localAddress: string | undefined): boolean {
  if (isLoopbackName(hostname)) return true;
  const h = bare(hostname);
  if (isIP(h) === 0 || localAddress === undefined) return false;
  const local = hostnameOf(isIP(localAddress) === 6 ? `[${localAddress}]` : localAddress);
  // a dual-stack wildcard bind reports an IPv4 client's connection as ::ffff:a.b.c.d
  return local !== undefined && (bare(local) === h || bare(local) === `::ffff:${h}`);
}

/** The checks of the header: Host (DNS rebinding), Origin (cross-site pages), and JSON on POST. */
export function refusalOf(req: IncomingMessage): Refusal {
  const local = req.socket.localAddress;
  const host = req.headers.host;
  if (!host) return { status: 400, error: "the request has no Host header; send Host: 127.0.0.1:<port> (or localhost)" };
  const name = hostnameOf(host);
  if (name === undefined || !isOwnName(name, local)) {
    return {
      status: 403,
      error: `Host ${JSON.stringify(host.slice(0, 100))} is not a loopback name: the control API answers requests to localhost, 127.0.0.1 or [::1] (or to the IP address it listens on), so that no web page can reach it through DNS rebinding`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined) {
    const m = /^https?:\/\/([^/]+)$/.exec(origin);
    const originName = m ? hostnameOf(m[1]!) : undefined;
    if (originName === undefined || !isOwnName(originName, local)) {
      return { status: 403, error: `Origin ${JSON.stringify(origin.slice(0, 100))}: the control API answers no requests from web pages of other sites` };
    }
  }
  if (req.method === "POST") {
    const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== "application/json") {
      return {
        status: 415,
        error: `Content-Type ${type ? JSON.stringify(type) : "missing"}: POST bodies must be JSON, sent as Content-Type: application/json (curl --json '{…}'); an empty body is {}`,
      };
    }
  }
  return undefined;
}
