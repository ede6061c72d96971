// One metadata fetch: the hops of its redirects, each judged (scheme, resolved addresses) before
// its connection is opened, then the body read up to the size cap and parsed. Everything ends in a
// MetadataResult: nothing here throws or leaves a socket open.
import { lookup as dnsLookup } from "node:dns/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest, type RequestOptions } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { addressCategory } from "./address-policy.js";
import { parseMetadataJson } from "./json.js";
import { locate, shorten } from "./uri.js";

/** An address a host name resolves to (what dns.lookup with `all: true` gives). */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to its addresses (dns.lookup by default; tests give their own). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export type MetadataResult =
  | { ok: true; json: Record<string, unknown>; url: string; bytes: number }
  /** `retry`: the failure says nothing about the URI (queue full, fetcher closed): not cached. */
  | { ok: false; reason: string; retry?: boolean };

export interface RequestConfig {
  gateway: URL;
  allowPrivate: boolean;
  connectTimeoutMs: number;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  maxDepth: number;
  resolve: Resolver;
  userAgent: string;
  /** CA certificates trusted instead of Node's bundled ones (PEM), if given. */
  ca?: string | Buffer | (string | Buffer)[];
}

export const defaultResolver: Resolver = async (hostname) => {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** Why a fetch was aborted from outside: its deadline or the fetcher's close. */
export class Aborted extends Error {}

type Hop = { kind: "redirect"; location: string } | { kind: "body"; body: Buffer } | { kind: "fail"; reason: string };

/**
 * Fetches a content URI's JSON. `signal` aborts it (its reason an Aborted whose message is the
 * failure reported); the total deadline is the caller's too (see MetadataFetcher).
 */
export async function fetchMetadata(uri: string, config: RequestConfig, signal: AbortSignal): Promise<MetadataResult> {
  const located = locate(uri, config.gateway);
  if (!located.ok) return located;
  let url = located.url;
  // The operator's own gateway may be on a private network; the hops it redirects to are judged.
  let trusted = located.viaGateway;
  try {
    for (let redirects = 0; ; redirects++) {
      const hop = await requestOnce(url, trusted, config, signal);
      if (hop.kind === "fail") return { ok: false, reason: hop.reason };
      if (hop.kind === "body") {
        const parsed = parseMetadataJson(hop.body, config.maxDepth);
        return parsed.ok ? { ok: true, json: parsed.json, url: url.href, bytes: hop.body.length } : parsed;
      }
      if (redirects >= config.maxRedirects) return { ok: false, reason: `too many redirects (more than ${config.maxRedirects})` };
      let next: URL;
      try {
        next = new URL(hop.location, url);
      } catch {
        return { ok: false, reason: `invalid redirect location: ${shorten(hop.location)}` };
      }
      const target = locate(next.href, config.gateway);
      if (!target.ok) return { ok: false, reason: `redirect refused: ${target.reason}` };
      url = target.url;
      trusted = false;
    }
  } catch (e) {
    return { ok: false, reason: abortReason(signal) ?? `fetch failed: ${e instanceof Error ? e.message : String(e)}` };
  }
}

function abortReason(signal: AbortSignal): string | undefined {
  if (!signal.aborted) return undefined;
  return signal.reason instanceof Aborted ? signal.reason.message : "aborted";
}

/** Resolves a hop's host and judges every address; the addresses to connect to, or why not. */
async function judgeHost(url: URL, trusted: boolean, config: RequestConfig, signal: AbortSignal): Promise<ResolvedAddress[] | string> {
  const host = url.hostname.replace(/^\[(.*)\]$/u, "$1");
  let addresses: ResolvedAddress[];
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await untilAborted(config.resolve(host), signal);
    } catch (e) {
      if (signal.aborted) throw e;
      const code = e instanceof Error && "code" in e ? ` (${String(e.code)})` : "";
      return `DNS lookup of ${host} failed${code}`;
    }
    if (addresses.length === 0) return `DNS lookup of ${host} gave no address`;
  }
  if (!config.allowPrivate && !trusted) {
    for (const { address } of addresses) {
      const category = addressCategory(address);
      if (category !== undefined) return `refused address ${address} (${category})${address === host ? "" : ` of ${host}`}`;
    }
  }
  return addresses;
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/**
 * The connection goes to the addresses that were judged: a lookup that answers with them instead
 * of asking DNS again, so a name cannot resolve to a public address for the check and to a private
 * one for the connection (DNS rebinding). A literal IP host is not looked up at all.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const wanted = addresses.filter((a) => !options.family || options.family === a.family);
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all) callback(null, list);
    else callback(null, list[0]!.address, list[0]!.family);
  };
}

function requestOnce(url: URL, trusted: boolean, config: RequestConfig, signal: AbortSignal): Promise<Hop> {
  return judgeHost(url, trusted, config, signal).then((addresses) => {
    if (typeof addresses === "string") return { kind: "fail", reason: addresses };
    return exchange(url, addresses, config, signal);
  });
}

function exchange(url: URL, addresses: ResolvedAddress[], config: RequestConfig, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve) => {
    let settled = false;
    let connectTimer: NodeJS.Timeout | undefined;
    const finish = (hop: Hop) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      signal.removeEventListener("abort", onAbort);
      // No keep-alive: the socket is closed with the exchange, whatever its outcome.
      req.destroy();
      resolve(hop);
    };
    const onAbort = () => finish({ kind: "fail", reason: abortReason(signal) ?? "aborted" });
    const options: RequestOptions = {
      method: "GET",
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/u, "$1"),
      port: url.port === "" ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      headers: {
        accept: "application/json, text/plain;q=0.9, */*;q=0.1",
        "accept-encoding": "identity",
        connection: "close",
        "user-agent": config.userAgent,
      },
      agent: false,
      lookup: pinnedLookup(addresses),
      // The certificate is checked against the URL's host name (SNI too), not the pinned address.
      ...(url.protocol === "https:" && config.ca !== undefined ? { ca: config.ca } : {}),
    };
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(options);
    req.on("error", (e: NodeJS.ErrnoException) => finish({ kind: "fail", reason: socketReason(e, url) }));
    req.on("socket", (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => finish({ kind: "fail", reason: `no connection to ${url.host} within ${config.connectTimeoutMs} ms` }), config.connectTimeoutMs);
      socket.once("connect", () => clearTimeout(connectTimer));
    });
    req.on("response", (res) => onResponse(res, url, config, finish));
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    req.end();
  });
}

function onResponse(res: IncomingMessage, url: URL, config: RequestConfig, finish: (hop: Hop) => void): void {
  const status = res.statusCode ?? 0;
  res.on("error", (e) => finish({ kind: "fail", reason: socketReason(e, url) }));
  if (status >= 300 && status < 400 && status !== 304) {
    const location = res.headers.location;
    return finish(location ? { kind: "redirect", location } : { kind: "fail", reason: `HTTP ${status} without a Location` });
  }
  if (status < 200 || status >= 300) return finish({ kind: "fail", reason: `HTTP ${status}${res.statusMessage ? ` ${shorten(res.statusMessage, 60)}` : ""}` });
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > config.maxBytes) {
    return finish({ kind: "fail", reason: `too large: ${declared} bytes (the limit is ${config.maxBytes})` });
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.on("data", (chunk: Buffer) => {
    size += chunk.length;
    // Cut as soon as the cap is passed: a huge answer is never held in memory.
    if (size > config.maxBytes) return finish({ kind: "fail", reason: `too large: more than ${config.maxBytes} bytes` });
    chunks.push(chunk);
  });
  res.on("end", () => finish({ kind: "body", body: Buffer.concat(chunks) }));
  res.on("aborted", () => finish({ kind: "fail", reason: `connection to ${url.host} closed before the answer was complete` }));
}

function socketReason(e: NodeJS.ErrnoException, url: URL): string {
  switch (e.code) {
    case "ECONNREFUSED":
      return `connection refused by ${url.host}`;
    case "ECONNRESET":
      return `connection reset by ${url.host}`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `${url.host} unreachable`;
    case "HPE_INVALID_CONSTANT":
    case "HPE_INVALID_STATUS":
    case "HPE_INVALID_HEADER_TOKEN":
      return `invalid HTTP answer from ${url.host}`;
    default:
      if (e.code?.startsWith("HPE_")) return `invalid HTTP answer from ${url.host} (${e.code})`;
      if (e.code?.startsWith("ERR_TLS") || e.code?.includes("CERT") || e.code?.startsWith("ERR_SSL")) return `TLS error with ${url.host}: ${e.message}`;
      return `request to ${url.host} failed: ${e.message}${e.code ? ` (${e.code})` : ""}`;
  }
}
