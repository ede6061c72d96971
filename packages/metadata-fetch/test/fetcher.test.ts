// The metadata fetcher against a real HTTP server on loopback: every hostile answer ends in a
// failure with its reason, in bounded time, memory and sockets; refused addresses are refused
// before any connection (the watcher sees every connection attempt of the process, and none may
// leave loopback); the cache, the concurrency limits and the queue do what they say.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MetadataFetcher, type MetadataFetcherOptions, type MetadataResult, type Resolver } from "@tongate/metadata-fetch";
import { startMetadataServer, tcpSockets, watchConnections, type MetadataServer } from "./metadata-server.js";

let server: MetadataServer;
let watcher: ReturnType<typeof watchConnections>;
const fetchers: MetadataFetcher[] = [];

beforeAll(async () => {
  server = await startMetadataServer();
  watcher = watchConnections();
});
afterEach(async () => {
  await Promise.all(fetchers.splice(0).map((f) => f.close()));
});
afterAll(async () => {
  watcher.stop();
  // The one rule of these tests: nothing but loopback was ever dialled.
  expect(watcher.attempts.filter((ip) => ip !== "127.0.0.1")).toEqual([]);
  await server.close();
});

/** Names the tests control: each maps to the given addresses, and the calls are counted. */
function resolverOf(names: Record<string, string[]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const addresses = names[hostname];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }));
  };
  return Object.assign(resolve, { calls });
}

function fetcher(options: MetadataFetcherOptions = {}): MetadataFetcher {
  const f = new MetadataFetcher({ allowPrivate: true, timeoutMs: 2_000, ...options });
  fetchers.push(f);
  return f;
}

function failure(result: MetadataResult): string {
  expect(result.ok).toBe(false);
  return result.ok ? "" : result.reason;
}

/** Waits until the condition holds (sockets close asynchronously on both sides). */
async function until(condition: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
}

describe("answers", () => {
  it("reads a metadata JSON", async () => {
    const result = await fetcher().fetch(`${server.origin}/ok`);
    expect(result).toMatchObject({ ok: true, json: { name: "Token /ok", symbol: "TOK", decimals: "9" }, url: `${server.origin}/ok` });
  });

  it("reads ipfs:// through the gateway, the CID's case kept", async () => {
    const f = fetcher({ ipfsGateway: `${server.origin}/ipfs/` });
    const result = await f.fetch("ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/item/7");
    expect(result).toMatchObject({ ok: true, json: { name: "Token /item/7" }, url: `${server.origin}/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/item/7` });
    expect(await f.fetch("ipfs://QmX/../../ok")).toMatchObject({ ok: false });
  });

  it("refuses other schemes, without a request", async () => {
    const f = fetcher();
    expect(failure(await f.fetch("ftp://127.0.0.1/x.json"))).toBe("unsupported URI scheme ftp: (only https, http and ipfs are fetched)");
    expect(failure(await f.fetch("file:///etc/passwd"))).toMatch(/unsupported URI scheme file/u);
    expect(failure(await f.fetch("data:application/json,{}"))).toMatch(/unsupported URI scheme data/u);
    expect(failure(await f.fetch("not a uri"))).toMatch(/not an absolute URI/u);
  });

  it("an HTTP error, invalid JSON, a JSON that is not an object", async () => {
    const f = fetcher();
    expect(failure(await f.fetch(`${server.origin}/missing`))).toBe("HTTP 404 Not Found");
    expect(failure(await f.fetch(`${server.origin}/invalid`))).toMatch(/^invalid JSON: /u);
    expect(failure(await f.fetch(`${server.origin}/array`))).toBe("JSON is an array, not an object");
  });

  it("a deeply nested JSON is refused, not parsed into something that crashes its reader", async () => {
    const f = fetcher();
    expect(failure(await f.fetch(`${server.origin}/deep`))).toBe("JSON nested deeper than 32 levels");
    expect(failure(await f.fetch(`${server.origin}/deep-object`))).toBe("JSON nested deeper than 32 levels");
  });

  it("a 10 MB answer is cut at the cap, not read whole", async () => {
    const f = fetcher();
    const before = server.bigBytesWritten.length;
    // Declared by Content-Length: refused on the headers.
    expect(failure(await f.fetch(`${server.origin}/big`))).toBe("too large: 10485760 bytes (the limit is 1048576)");
    // Streamed without a length: cut once past 1 MiB.
    expect(failure(await f.fetch(`${server.origin}/big-chunked`))).toBe("too large: more than 1048576 bytes");
    await until(() => server.bigBytesWritten.length === before + 2);
    // The server stopped well short of 10 MB: the client went away (what is left is socket buffers).
    for (const written of server.bigBytesWritten.slice(before)) expect(written).toBeLessThan(6 * 1024 * 1024);
  });

  it("a server that hangs (before or in the body) times out, and its socket is closed", async () => {
    const f = fetcher({ timeoutMs: 300 });
    const started = Date.now();
    const [headers, body] = await Promise.all([f.fetch(`${server.origin}/hang`), f.fetch(`${server.origin}/hang-body`)]);
    expect(failure(headers)).toBe("timeout after 300 ms");
    expect(failure(body)).toBe("timeout after 300 ms");
    expect(Date.now() - started).toBeLessThan(1_500);
    await until(() => server.openSockets() === 0);
    expect(server.openSockets()).toBe(0);
  });

  it("a host that hangs does not hold up the others", async () => {
    const resolve = resolverOf({ "slow.test": ["127.0.0.1"], "fast.test": ["127.0.0.1"] });
    const f = fetcher({ timeoutMs: 1_500, concurrency: 4, perHostConcurrency: 2, resolve });
    const port = server.port;
    const hung = [1, 2, 3, 4].map((i) => f.fetch(`http://slow.test:${port}/hang?${i}`));
    const started = Date.now();
    expect(await f.fetch(`http://fast.test:${port}/ok`)).toMatchObject({ ok: true });
    expect(Date.now() - started).toBeLessThan(1_000); // the hung fetches hold their slots for 1.5 s
    await f.close();
    for (const r of await Promise.all(hung)) expect(failure(r)).toBe("metadata fetcher closed");
  });

  it("a refused connection and an unknown name are failures with their reason", async () => {
    const f = fetcher({ resolve: resolverOf({}) });
    expect(failure(await f.fetch("http://127.0.0.1:1/x.json"))).toBe("connection refused by 127.0.0.1:1");
    expect(failure(await f.fetch("https://nowhere.test/x.json"))).toBe("DNS lookup of nowhere.test failed (ENOTFOUND)");
  });
});

describe("https", () => {
  const tls = (file: string) => readFileSync(new URL(`./tls/${file}`, import.meta.url));
  let httpsServer: Server;
  let port = 0;
  beforeAll(async () => {
    httpsServer = createServer({ key: tls("meta.test.key"), cert: tls("meta.test.crt") }, (_req, res) => res.end('{"name":"over TLS"}'));
    await new Promise<void>((resolve) => httpsServer.listen(0, "127.0.0.1", resolve));
    port = (httpsServer.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => httpsServer.close(() => resolve())));

  it("the certificate is checked against the URL's host name, the connection going to the judged address", async () => {
    const resolve = resolverOf({ "meta.test": ["127.0.0.1"], "other.test": ["127.0.0.1"] });
    const trusting = fetcher({ resolve, ca: tls("meta.test.crt") });
    expect(await trusting.fetch(`https://meta.test:${port}/m.json`)).toMatchObject({ ok: true, json: { name: "over TLS" } });
    expect(failure(await trusting.fetch(`https://other.test:${port}/m.json`))).toMatch(new RegExp(`^TLS error with other.test:${port}: Hostname/IP does not match`, "u"));
    // Without the CA, a self-signed certificate is refused.
    expect(failure(await fetcher({ resolve }).fetch(`https://meta.test:${port}/m.json`))).toMatch(new RegExp(`^TLS error with meta.test:${port}: self-signed certificate`, "u"));
  });
});

describe("addresses", () => {
  it("private, loopback, link-local and other special addresses are refused before any connection", async () => {
    const resolve = resolverOf({
      "metadata.internal": ["169.254.169.254"],
      "db.internal": ["10.1.2.3"],
      "mixed.test": ["8.8.8.8", "192.168.1.1"],
      "v6.internal": ["fd00::1"],
      "mapped.test": ["::ffff:127.0.0.1"],
    });
    const f = fetcher({ allowPrivate: false, resolve });
    const attempts = watcher.attempts.length;
    const cases: [string, string][] = [
      ["http://169.254.169.254/latest/meta-data/", "refused address 169.254.169.254 (link-local)"],
      ["http://10.0.0.1/x.json", "refused address 10.0.0.1 (private)"],
      ["http://172.16.5.4/x.json", "refused address 172.16.5.4 (private)"],
      ["http://192.168.0.1/x.json", "refused address 192.168.0.1 (private)"],
      ["http://100.64.0.1/x.json", "refused address 100.64.0.1 (carrier-grade NAT)"],
      [`${server.origin}/ok`, "refused address 127.0.0.1 (loopback)"],
      ["http://2130706433/ok", "refused address 127.0.0.1 (loopback)"], // 127.0.0.1 as one number
      ["http://0.0.0.0/ok", "refused address 0.0.0.0 (unspecified)"],
      ["http://[::1]/ok", "refused address ::1 (loopback)"],
      ["http://[::ffff:a9fe:a9fe]/ok", "refused address ::ffff:a9fe:a9fe (link-local)"],
      ["http://[fe80::1]/ok", "refused address fe80::1 (link-local)"],
      ["http://224.0.0.1/ok", "refused address 224.0.0.1 (multicast)"],
      ["http://metadata.internal/latest", "refused address 169.254.169.254 (link-local) of metadata.internal"],
      ["https://db.internal/x.json", "refused address 10.1.2.3 (private) of db.internal"],
      ["https://mixed.test/x.json", "refused address 192.168.1.1 (private) of mixed.test"],
      ["https://v6.internal/x.json", "refused address fd00::1 (private) of v6.internal"],
      ["https://mapped.test/x.json", "refused address ::ffff:127.0.0.1 (loopback) of mapped.test"],
    ];
    for (const [uri, reason] of cases) expect(failure(await f.fetch(uri)), uri).toBe(reason);
    expect(watcher.attempts.length).toBe(attempts);
  });

  it("each redirect hop is judged: from the operator's gateway, a redirect to a private, loopback or link-local address is refused", async () => {
    const resolve = resolverOf({ "localhost.test": ["127.0.0.1"], "rebind.test": ["10.9.9.9"] });
    // The gateway (the operator's, on loopback here) is trusted; where it redirects is not.
    const f = fetcher({ allowPrivate: false, ipfsGateway: `${server.origin}/ipfs/`, resolve });
    const via = (to: string) => f.fetch(`ipfs://QmCid/redirect?to=${encodeURIComponent(to)}`);
    const attempts = watcher.attempts.length;
    expect(failure(await via("http://169.254.169.254/latest/meta-data/"))).toBe("refused address 169.254.169.254 (link-local)");
    expect(failure(await via("http://10.0.0.7/x.json"))).toBe("refused address 10.0.0.7 (private)");
    expect(failure(await via(`http://localhost.test:${server.port}/ok`))).toBe("refused address 127.0.0.1 (loopback) of localhost.test");
    expect(failure(await via(`${server.origin}/ok`))).toBe("refused address 127.0.0.1 (loopback)");
    expect(failure(await via("http://rebind.test/x"))).toBe("refused address 10.9.9.9 (private) of rebind.test");
    expect(failure(await via("gopher://127.0.0.1/"))).toMatch(/^redirect refused: unsupported URI scheme gopher/u);
    // Only the gateway's own hops were dialled (one per redirect above), all on loopback.
    expect(watcher.attempts.length - attempts).toBe(6);
  });

  it("with allowPrivate, the redirect to loopback is followed", async () => {
    const resolve = resolverOf({ "localhost.test": ["127.0.0.1"] });
    const f = fetcher({ allowPrivate: true, resolve });
    const result = await f.fetch(`${server.origin}/redirect?to=${encodeURIComponent(`http://localhost.test:${server.port}/ok`)}`);
    expect(result).toMatchObject({ ok: true, json: { symbol: "TOK" }, url: `http://localhost.test:${server.port}/ok` });
  });

  it("too many redirects", async () => {
    const f = fetcher({ maxRedirects: 5 });
    expect(failure(await f.fetch(`${server.origin}/loop/0`))).toBe("too many redirects (more than 5)");
    expect(server.hits.get("/loop/5")).toBe(1);
    expect(server.hits.get("/loop/6")).toBeUndefined();
  });

  it("the connection goes to the address that was judged (no second resolution to rebind)", async () => {
    let answers = 0;
    // The first answer is the one judged; a later one would point at a closed port.
    const resolve: Resolver = async () => [{ address: answers++ === 0 ? "127.0.0.1" : "127.0.0.3", family: 4 }];
    const f = fetcher({ allowPrivate: true, resolve });
    expect(await f.fetch(`http://pinned.test:${server.port}/ok`)).toMatchObject({ ok: true });
    expect(answers).toBe(1);
  });
});

describe("limits and cache", () => {
  it("the global and the per-host concurrency limits hold", async () => {
    const resolve = resolverOf({ "a.test": ["127.0.0.1"], "b.test": ["127.0.0.1"] });
    const f = fetcher({ concurrency: 3, perHostConcurrency: 2, resolve });
    server.maxConcurrent.all = 0;
    server.maxConcurrent.byHost.clear();
    const uris = [...Array(8).keys()].flatMap((i) => [`http://a.test:${server.port}/slow?${i}`, `http://b.test:${server.port}/slow?${i}`]);
    const results = await Promise.all(uris.map((u) => f.fetch(u)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(server.maxConcurrent.all).toBe(3);
    expect(server.maxConcurrent.byHost.get(`a.test:${server.port}`)).toBe(2);
    expect(server.maxConcurrent.byHost.get(`b.test:${server.port}`)).toBe(2);
  });

  it("one request per URI however many ask; cache hit, refresh after the TTL, failures cached for less", async () => {
    let now = 1_000_000;
    const f = fetcher({ now: () => now, ttlMs: 60_000, failureTtlMs: 10_000 });
    const uri = `${server.origin}/item/cache`;
    const hits = () => server.hits.get("/item/cache") ?? 0;
    const first = await Promise.all([f.fetch(uri), f.fetch(uri), f.fetch(uri)]);
    expect(first.every((r) => r.ok)).toBe(true);
    expect(hits()).toBe(1);
    now += 59_000;
    expect(await f.fetch(uri)).toMatchObject({ ok: true });
    expect(hits()).toBe(1);
    expect(f.cached(uri)).toMatchObject({ fresh: true });
    now += 2_000;
    expect(f.cached(uri)).toMatchObject({ fresh: false, result: { ok: true } });
    expect(await f.fetch(uri)).toMatchObject({ ok: true });
    expect(hits()).toBe(2);

    const missing = `${server.origin}/missing`;
    const missingHits = () => server.hits.get("/missing") ?? 0;
    const before = missingHits();
    expect(failure(await f.fetch(missing))).toBe("HTTP 404 Not Found");
    expect(failure(await f.fetch(missing))).toBe("HTTP 404 Not Found");
    expect(missingHits()).toBe(before + 1);
    now += 10_001;
    await f.fetch(missing);
    expect(missingHits()).toBe(before + 2);
  });

  it("the cache is bounded: the least recently used goes first", async () => {
    const f = fetcher({ cacheEntries: 2 });
    const uri = (i: number) => `${server.origin}/item/lru${i}`;
    await f.fetch(uri(1));
    await f.fetch(uri(2));
    await f.fetch(uri(1)); // 1 is now the most recent
    await f.fetch(uri(3)); // evicts 2
    expect(f.stats().cached).toBe(2);
    expect(f.cached(uri(2))).toBeUndefined();
    expect(f.cached(uri(1))).toBeDefined();
    await f.fetch(uri(1));
    expect(server.hits.get("/item/lru1")).toBe(1);
  });

  it("a flood of 10,000 URIs to a hanging host keeps the queue, memory and sockets bounded", async () => {
    const f = fetcher({ concurrency: 8, perHostConcurrency: 8, queueLimit: 100, timeoutMs: 10_000 });
    await until(() => server.openSockets() === 0);
    const socketsBefore = tcpSockets();
    const heapBefore = process.memoryUsage().heapUsed;
    const results = Array.from({ length: 10_000 }, (_, i) => f.fetch(`${server.origin}/hang?flood=${i}`));
    // What did not fit is answered at once, with a reason to try later.
    const settled = await Promise.all(results.slice(108).map((p) => p));
    expect(settled.every((r) => !r.ok && r.retry === true && r.reason === "queue full (100 URIs waiting): try again later")).toBe(true);
    await until(() => server.openSockets() === 8);
    expect(f.stats()).toMatchObject({ running: 8, queued: 100 });
    expect(server.openSockets()).toBe(8);
    expect(tcpSockets() - socketsBefore).toBeLessThanOrEqual(16); // 8 client sides + 8 server sides
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 1024 * 1024);
    await f.close();
    const rest = await Promise.all(results.slice(0, 108));
    expect(rest.every((r) => !r.ok && r.reason === "metadata fetcher closed")).toBe(true);
    await until(() => tcpSockets() <= socketsBefore);
    expect(tcpSockets()).toBeLessThanOrEqual(socketsBefore);
    expect(f.stats()).toMatchObject({ running: 0, queued: 0, cached: 0 });
  });
});
