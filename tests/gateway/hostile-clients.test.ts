// Hostile and careless clients at the HTTP edge, against real gateways over HTTP (one on a localnet):
// values that would crash or bloat what answers them (a deep or huge JSON-RPC id, deeply nested bodies,
// long values quoted back), API keys that must stay out of the logs, and clients that do not read their
// answers. After each, the gateway answers a v2 call normally.
import http from "node:http";
import net from "node:net";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import type { Localnet } from "@tongate/localnet";
import { createLogger } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

const SEND_TIMEOUT_MS = 1000;
const MAX_UNREAD_BYTES = 4 << 20;
const RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const KEY = "5ecret-api-key-0123456789abcdef";

v8.setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;
/** The process's memory as the gateway holds it (JS heap and buffers), after a full collection, MiB. */
const heldMiB = () => {
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 2 ** 20;
};

/** Log lines of a real logger writing to a stream. */
function capturedLog() {
  const lines: string[] = [];
  return { lines, log: createLogger({ format: "json", level: "debug", destination: { write: (s: string) => lines.push(s) } }) };
}

let chain: Localnet;
/** On the localnet, answer cache on, a short send timeout, a small unread bound, logs captured. */
let t: Embedded;
/** No chain (v2 chain methods answer 501), logs captured. */
let chainless: Embedded;
/** Rate limits on (keyless: 1 request a second), no chain. */
let limited: Embedded;
const tLog = capturedLog();
const chainlessLog = capturedLog();

beforeAll(async () => {
  chain = await startTestLocalnet({ seed: "hostile-clients" });
  await chain.chain.seal();
  [t, chainless, limited] = await Promise.all([
    startEmbedded({ globalConfig: chain.globalConfig() }, { cache: { maxBytes: 64 << 20 }, sendTimeoutMs: SEND_TIMEOUT_MS, maxUnreadBytes: MAX_UNREAD_BYTES, log: tLog.log }),
    startEmbedded({}, { log: chainlessLog.log }),
    startEmbedded({}, { rateLimit: { network: "mainnet", trustedProxies: [] } }),
  ]);
});
afterAll(async () => {
  await Promise.all([t?.close(), chainless?.close(), limited?.close()]);
  await chain?.close();
});

interface Answer {
  status: number;
  text: string;
  body: any;
}

async function send(base: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(base + path, body === undefined ? { headers } : { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, text, body: parsed };
}

/** The gateway answers a v2 call normally, within a second. */
async function answersV2(base = t.url): Promise<void> {
  const started = performance.now();
  const r = await send(base, `/api/v2/detectAddress?address=${RAW}`);
  expect(r.status).toBe(200);
  expect(r.body.ok).toBe(true);
  if (base === t.url) {
    const mc = await send(base, "/api/v2/getMasterchainInfo");
    expect(mc.status).toBe(200);
    expect(mc.body.result["@type"]).toBe("blocks.masterchainInfo");
  }
  expect(performance.now() - started).toBeLessThan(1000);
}

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const rpc = (id: string) => `{"jsonrpc":"2.0","method":"getMasterchainInfo","params":{},"id":${id}}`;

/** A value of the gateway's /metrics (summed over the series of `name` whose labels contain `labels`). */
async function metric(base: string, name: string, labels = ""): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(name) || !(line[name.length] === " " || line[name.length] === "{") || !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

describe("JSON-RPC id", () => {
  it("a 10,000-deep id is refused with 422 naming the nesting bound, id null, and the process goes on", async () => {
    const r = await send(t.url, "/api/v2/jsonRPC", rpc(nested(10_000)));
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ ok: false, code: 422, jsonrpc: "2.0", id: null });
    expect(r.body.error).toMatch(/deeper than 64 levels/);
    await answersV2();
  });

  it("an id that is not a string, a number or null, or a string over 256 characters, is a 422 with id null", async () => {
    for (const [id, error] of [
      ["[[1]]", /^id: a JSON-RPC id is a string, a number or null, got an array$/],
      ['{"a":{"b":1}}', /^id: .* got an object$/],
      ["true", /^id: .* got a boolean$/],
      [JSON.stringify("x".repeat(257)), /^id: at most 256 characters, got 257$/],
    ] as const) {
      const r = await send(t.url, "/api/v2/jsonRPC", rpc(id));
      expect(r.status, id).toBe(422);
      expect(r.body, id).toMatchObject({ ok: false, code: 422, jsonrpc: "2.0", id: null });
      expect(r.body.error, id).toMatch(error);
    }
    const bad = await send(t.url, "/api/v2/jsonRPC", '{"jsonrpc":{"v":2},"method":"getMasterchainInfo","id":1}');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^jsonrpc: expected "2\.0"/);
    await answersV2();
  });

  it("a string (up to 256 characters), a number or null is echoed as it was sent", async () => {
    for (const id of ["x".repeat(256), 7, -1.5, null, "7"]) {
      const r = await send(t.url, "/api/v2/jsonRPC", rpc(JSON.stringify(id)));
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, jsonrpc: "2.0", id });
    }
  });

  it("in a batch, the call with a bad id alone is refused", async () => {
    const r = await send(t.url, "/api/v2/jsonRPC", `[${rpc("[1]")},${rpc("2")}]`);
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(2);
    expect(r.body[0]).toMatchObject({ ok: false, code: 422, id: null });
    expect(r.body[1]).toMatchObject({ ok: true, id: 2 });
  });

  it("a client already rate-limited gets its 429 with id null for a deep or bad id, and the process goes on", async () => {
    // keyless clients: one request a second; the second is refused
    let refused: Answer | undefined;
    for (let i = 0; i < 5 && !refused; i++) {
      const r = await send(limited.url, "/api/v2/jsonRPC", rpc("1"));
      if (r.status === 429) refused = r;
    }
    expect(refused?.body).toMatchObject({ ok: false, code: 429, id: 1 });
    for (const id of [nested(10_000), nested(40), '{"a":1}', JSON.stringify("x".repeat(100_000))]) {
      const r = await send(limited.url, "/api/v2/jsonRPC", rpc(id));
      expect(r.status).toBe(429);
      expect(r.body).toMatchObject({ ok: false, code: 429, id: null });
    }
    const batch = await send(limited.url, "/api/v2/jsonRPC", `[${rpc("[[1]]")},${rpc("3")}]`);
    expect(batch.status).toBe(429);
    expect(batch.body.map((b: { id: unknown }) => b.id)).toEqual([null, 3]);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await answersV2(limited.url);
  });
});

describe("JSON nesting of request bodies", () => {
  it("5,000-deep values in v2 bodies and /jsonRPC params are a 422 naming the bound, not a stack overflow", async () => {
    const address = chain.genesis.wallets[0]!.address.toString();
    for (const [path, body] of [
      ["/api/v2/runGetMethod", `{"address":"${address}","method":"seqno","stack":${nested(5000)}}`],
      ["/api/v2/runGetMethod", `{"address":${nested(5000)},"method":"seqno","stack":[]}`],
      ["/api/v2/runGetMethodStd", `{"address":"${address}","method":"seqno","stack":[{"@type":${nested(5000)}}]}`],
      ["/api/v2/getAddressInformation", `{"address":"${address}","ignored":${nested(5000)}}`],
      ["/api/v2/jsonRPC", `{"jsonrpc":"2.0","id":1,"method":"getAddressInformation","params":{"address":${nested(5000)}}}`],
    ] as const) {
      const r = await send(t.url, path, body);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toBe("the request body nests arrays and objects deeper than 64 levels");
    }
    await answersV2();
  });

  it("the deepest stack the codec takes (15 nested typed tuples, 49 levels of JSON) passes the bound", async () => {
    let entry: unknown = { "@type": "tvm.stackEntryNumber", number: { "@type": "tvm.numberDecimal", number: "1" } };
    for (let i = 0; i < 15; i++) entry = { "@type": "tvm.stackEntryTuple", tuple: { "@type": "tvm.tuple", elements: [entry] } };
    const address = chain.genesis.wallets[0]!.address.toString();
    const r = await send(t.url, "/api/v2/runGetMethodStd", JSON.stringify({ address, method: "seqno", stack: [entry] }));
    expect(r.body.error ?? "").not.toMatch(/levels|nested too deeply/);
    await answersV2();
  });
});

describe("the input quoted back", () => {
  it("an error message quotes at most a few hundred characters of a 500 KB value, with its length", async () => {
    const address = chain.genesis.wallets[0]!.address.toString();
    const long = "x".repeat(500_000);
    for (const [path, body] of [
      // quoted by the codec
      ["/api/v2/runGetMethodStd", JSON.stringify({ address, method: "seqno", stack: [{ "@type": long }] })],
      // quoted by lite-proxy
      ["/api/v2/runGetMethod", JSON.stringify({ address, method: "seqno", stack: [[long, "1"]] })],
      ["/api/v2/runGetMethod", JSON.stringify({ address, method: "seqno", stack: [["num", long]] })],
    ] as const) {
      const r = await send(t.url, path, body);
      expect(r.status, path).toBe(422);
      expect(r.body.error.length, r.body.error.slice(0, 100)).toBeLessThanOrEqual(540);
      // a quote is cut with the value's length; a bound's message may name the length instead
      expect(r.body.error).toMatch(/… \([\d,]+ characters\)|500,000 characters/);
      expect(r.body.error).not.toMatch(/x{100}/);
      expect(r.text.length).toBeLessThan(1000);
    }
    const keys = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`${"k".repeat(200)}${i}`, 1]));
    const r = await send(t.url, "/api/v2/detectAddress", JSON.stringify({ address: RAW, ...keys }));
    expect(r.status).toBe(200);
    await answersV2();
  });
});

describe("API keys in logs", () => {
  it("a key in the query or the X-API-Key header is in no log line of a 5xx, the URL shows api_key=***", async () => {
    chainlessLog.lines.length = 0;
    const get = await send(chainless.url, `/api/v2/getMasterchainInfo?api_key=${KEY}&x=1`, undefined, { "X-API-Key": KEY });
    expect(get.status).toBe(501);
    const post = await send(chainless.url, `/api/v2/jsonRPC?api%5Fkey=${KEY}`, rpc("1"), { "X-API-Key": KEY });
    expect(post.status).toBe(501);
    const failed = chainlessLog.lines.map((l) => JSON.parse(l) as { msg: string; url?: string }).filter((l) => l.msg === "request failed");
    expect(failed.map((l) => l.url)).toEqual(["/api/v2/getMasterchainInfo?api_key=***&x=1", "/api/v2/jsonRPC?api%5Fkey=***"]);
    for (const line of chainlessLog.lines) expect(line).not.toContain(KEY);
    await answersV2(chainless.url);
  });
});

/** A raw connection that sends `request` (`times` over, pipelined) and never reads. */
function nonReader(base: string, request: string, times = 1): { socket: net.Socket; closed: Promise<void> } {
  const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(request.repeat(times));
  socket.pause();
  return { socket, closed };
}

/** Resolves when `check` holds (polled), or fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("clients that do not read", () => {
  let batch = "";
  let request = "";

  beforeAll(async () => {
    // getConfigAll pinned to a block: cached once, then each call of the batch is a hit
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "getConfigAll", params: { seqno: 1 } });
    expect((await send(t.url, "/api/v2/jsonRPC", JSON.stringify(call(0)))).status).toBe(200);
    batch = JSON.stringify(Array.from({ length: 100 }, (_, i) => call(i)));
    request = `POST /api/v2/jsonRPC HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(batch)}\r\n\r\n${batch}`;
  });

  it("a client that reads gets a 1.9 MB batch answer whole, and is not dropped while idle on keep-alive past the send timeout", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const once = () =>
      new Promise<{ bytes: number; socket: net.Socket }>((resolve, reject) => {
        const req = http.request(`${t.url}/api/v2/jsonRPC`, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
          let bytes = 0;
          res.on("data", (d: Buffer) => (bytes += d.length));
          res.on("end", () => resolve({ bytes, socket: req.socket! }));
        });
        req.on("error", reject);
        req.end(batch);
      });
    const first = await once();
    expect(first.bytes).toBeGreaterThan(1_800_000);
    await new Promise((resolve) => setTimeout(resolve, 2.5 * SEND_TIMEOUT_MS));
    expect(first.socket.destroyed).toBe(false);
    const second = await once();
    expect(second.socket).toBe(first.socket);
    expect(Math.abs(second.bytes - first.bytes)).toBeLessThan(1000);
    agent.destroy();
  });

  it("100 clients that never read a 1.9 MB batch answer are dropped after the send timeout, the memory back", async () => {
    const before = heldMiB();
    const dropped = await metric(t.url, "tongate_http_clients_dropped_total");
    const clients = Array.from({ length: 100 }, () => nonReader(t.url, request));
    await eventually(async () => (await metric(t.url, "tongate_http_clients_dropped_total")) - dropped >= 100, 30_000, "100 clients dropped");
    for (const c of clients) c.socket.resume();
    await Promise.all(clients.map((c) => c.closed));
    expect(await metric(t.url, "tongate_http_unread_bytes")).toBe(0);
    expect(heldMiB() - before).toBeLessThan(32);
    await answersV2();
  }, 60_000);

  it("a pipelining client that never reads cannot queue unbounded answers: dropped past the unread bound, the memory back", async () => {
    const before = heldMiB();
    const answered = await metric(t.url, "tongate_http_requests_total", 'route="/api/v2/jsonRPC"');
    const overBound = await metric(t.url, "tongate_http_clients_dropped_total", 'reason="unread_bytes"');
    // 50 batches of 1.9 MB answers asked at once: 95 MB if they were all queued
    const client = nonReader(t.url, request, 50);
    await eventually(async () => (await metric(t.url, "tongate_http_clients_dropped_total", 'reason="unread_bytes"')) > overBound, 20_000, "the client dropped");
    client.socket.resume();
    await client.closed;
    expect((await metric(t.url, "tongate_http_requests_total", 'route="/api/v2/jsonRPC"')) - answered).toBeLessThan(50);
    expect(await metric(t.url, "tongate_http_unread_bytes")).toBe(0);
    expect(heldMiB() - before).toBeLessThan(32);
    await answersV2();
  }, 60_000);

  it("clients that go away before their answer leave nothing to crash on", async () => {
    const clients = Array.from({ length: 20 }, () => nonReader(t.url, request));
    await new Promise((resolve) => setTimeout(resolve, 20));
    for (const c of clients) c.socket.destroy();
    await Promise.all(clients.map((c) => c.closed));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await answersV2();
    expect(tLog.lines.filter((l) => l.includes('"level":50'))).toEqual([]);
  });
});
