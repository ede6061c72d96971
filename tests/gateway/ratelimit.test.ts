// Rate limits end to end: HTTP → gateway (leases, identity, answers) → the real
// ratelimit service in process, both on one clock the test moves. Every test
// starts 10 s later than the one before, so buckets are full and leases and
// remembered refusals have lapsed.
import http from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ClientAddresses } from "@tongate/gateway";
import { startEmbedded, type Embedded } from "../support/embedded.js";

const ADMIN = "ratelimit-test-admin";
const RAW = "0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8";
const DETECT = `/api/v2/detectAddress?address=${RAW}`;

let ms = 1_700_000_000_000;
const now = () => ms;
const advance = (by: number) => (ms += by);

let t: Embedded;
/** A gateway behind a trusted proxy: loopback peers are proxies, X-Forwarded-For names the client. */
let proxied: Embedded;

beforeAll(async () => {
  const start = (trustedProxies: string[]) => startEmbedded({ adminToken: ADMIN, clock: now }, { rateLimit: { network: "mainnet", trustedProxies, now } });
  [t, proxied] = await Promise.all([start([]), start(["127.0.0.0/8", "::1"])]);
});
afterAll(async () => {
  await Promise.all([t?.close(), proxied?.close()]);
});
beforeEach(() => {
  advance(10_000);
});

interface Answer {
  status: number;
  body: any;
  headers: http.IncomingHttpHeaders;
}

/** One request over node:http (header names go out exactly as written, Origin and X-Forwarded-For included). */
function request(base: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Answer> {
  const payload = init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${path}`,
      { method: init.method ?? (payload ? "POST" : "GET"), headers: { ...(payload ? { "content-type": "application/json" } : {}), ...init.headers }, agent: false },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON (metrics, docs)
          }
          resolve({ status: res.statusCode!, body, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

const get = (path: string, headers: Record<string, string> = {}, base = t.url) => request(base, path, { headers });

/** An API key made through the admin route; its secret. */
async function createKey(spec: { plan?: string; rps?: number; networks?: string[]; ips?: string[]; origins?: string[] }, base = t.url): Promise<string> {
  const res = await request(base, "/api/admin/v1/keys/create", { body: { admin_token: ADMIN, plan: "free", ...spec } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.secret as string;
}

const statuses = (answers: Answer[]) => answers.map((a) => a.status);
const count = (answers: Answer[], status: number) => answers.filter((a) => a.status === status).length;
const many = (n: number, send: () => Promise<Answer>) => Promise.all(Array.from({ length: n }, send));

const LIMITED_V2 = { ok: false, error: "Ratelimit exceed", code: 429 };

describe("keyless: 1 request per second per client address", () => {
  it("admits one request a second; the second in the same second is 429 with toncenter's body and the headers", async () => {
    const first = await get(DETECT);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({ "ratelimit-limit": "1", "ratelimit-remaining": "0", "ratelimit-reset": "1" });

    const second = await get(DETECT);
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject(LIMITED_V2);
    expect(Object.keys(second.body).sort()).toEqual(["@extra", "code", "error", "ok"]);
    expect(second.headers).toMatchObject({ "ratelimit-limit": "1", "ratelimit-remaining": "0", "retry-after": "1" });

    advance(999);
    expect((await get(DETECT)).status).toBe(429);
    advance(1);
    expect((await get(DETECT)).status).toBe(200);
    expect((await get(DETECT)).status).toBe(429);
  });

  it("admits exactly one of many concurrent requests (one Lease for all of them)", async () => {
    expect(count(await many(20, () => get(DETECT)), 200)).toBe(1);
  });
});

describe("keys: each plan's rate, burst = rate", () => {
  for (const [plan, rps] of [
    ["free", 10],
    ["plus", 25],
    ["advanced", 100],
    ["custom", 7],
  ] as const) {
    it(`${plan}: ${rps} at once, then ${rps} per second`, async () => {
      const key = await createKey(plan === "custom" ? { plan, rps } : { plan });
      const send = () => get(DETECT, { "X-API-Key": key });
      const burst = await many(rps + 5, send);
      expect(count(burst, 200)).toBe(rps);
      expect(count(burst, 429)).toBe(5);
      expect(burst.find((a) => a.status === 200)!.headers["ratelimit-limit"]).toBe(String(rps));
      // Idle for long: the bucket holds no more than the burst.
      advance(60_000);
      expect(count(await many(rps + 3, send), 200)).toBe(rps);
      // Then the rate: one second gives `rps` more.
      advance(1000);
      expect(count(await many(rps + 3, send), 200)).toBe(rps);
      // A tenth of a second gives a tenth (at least the token that refilled).
      advance(Math.ceil(1000 / rps));
      expect(count(await many(3, send), 200)).toBe(1);
    });
  }

  it("a key in the api_key query parameter counts the same", async () => {
    const key = await createKey({ plan: "free" });
    expect(count(await many(12, () => get(`${DETECT}&api_key=${key}`)), 200)).toBe(10);
  });
});

describe("refusals in each API's shape", () => {
  it("401 for an unknown or revoked key: v2, v3, /jsonRPC", async () => {
    const h = { "X-API-Key": "no-such-key" };
    const v2 = await get(DETECT, h);
    expect(v2.status).toBe(401);
    expect(v2.body).toMatchObject({ ok: false, error: "API key does not exist", code: 401 });
    const v3 = await get("/api/v3/transactions", h);
    expect(v3.status).toBe(401);
    expect(v3.body).toEqual({ error: "API key does not exist" });
    const rpc = await request(t.url, "/api/v2/jsonRPC", { headers: h, body: { jsonrpc: "2.0", id: 7, method: "detectAddress", params: { address: RAW } } });
    expect(rpc.status).toBe(401);
    expect(rpc.body).toMatchObject({ ok: false, error: "API key does not exist", code: 401, jsonrpc: "2.0", id: 7 });

    const key = await createKey({ plan: "free" });
    expect((await get(DETECT, { "X-API-Key": key })).status).toBe(200);
    const list = await request(t.url, "/api/admin/v1/keys/list", { body: { admin_token: ADMIN } });
    const id = (list.body.keys as { id: string }[]).at(-1)!.id;
    expect((await request(t.url, "/api/admin/v1/keys/revoke", { body: { admin_token: ADMIN, id } })).status).toBe(200);
    // The lease already taken lapses within a second; then the key is refused.
    advance(1000);
    expect((await get(DETECT, { "X-API-Key": key })).status).toBe(401);
  });

  it("403 with the service's reason: network, address, origin", async () => {
    const testnetOnly = await createKey({ networks: ["testnet"] });
    const net = await get(DETECT, { "X-API-Key": testnetOnly });
    expect(net.status).toBe(403);
    expect(net.body).toMatchObject({ ok: false, code: 403 });
    expect(net.body.error).toContain("network mainnet");

    const fromTen = await createKey({ ips: ["10.0.0.0/8"] });
    const ip = await get("/api/v3/anything", { "X-API-Key": fromTen });
    expect(ip.status).toBe(403);
    expect(ip.body.error).toContain("address 127.0.0.1");
    expect(Object.keys(ip.body)).toEqual(["error"]);

    const appOnly = await createKey({ origins: ["https://app.example.com"] });
    const rpc = (origin?: string) =>
      request(t.url, "/api/v2/jsonRPC", { headers: { "X-API-Key": appOnly, ...(origin ? { Origin: origin } : {}) }, body: { id: "a", method: "detectAddress", params: { address: RAW } } });
    const none = await rpc();
    expect(none.status).toBe(403);
    expect(none.body).toMatchObject({ ok: false, code: 403, id: "a", jsonrpc: "2.0" });
    expect(none.body.error).toContain("origin");
    expect((await rpc("https://evil.example.com")).status).toBe(403);
    const ok = await rpc("https://app.example.com");
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ok: true, id: "a" });
  });

  it("429 on v3 (an unknown v3 path counts too) and /jsonRPC, with Retry-After", async () => {
    const first = await get("/api/v3/nothing");
    expect(first.status).toBe(404);
    expect(first.headers["ratelimit-limit"]).toBe("1");
    const v3 = await get("/api/v3/nothing");
    expect(v3.status).toBe(429);
    expect(v3.body).toEqual({ error: "Ratelimit exceed" });
    expect(v3.headers["retry-after"]).toBe("1");

    const rpc = await request(t.url, "/api/v2/jsonRPC", { body: { jsonrpc: "2.0", id: 42, method: "detectAddress", params: { address: RAW } } });
    expect(rpc.status).toBe(429);
    expect(rpc.body).toMatchObject({ ...LIMITED_V2, jsonrpc: "2.0", id: 42 });
    expect(rpc.headers).toMatchObject({ "ratelimit-limit": "1", "retry-after": "1" });
  });
});

describe("no way around the limit", () => {
  it("the X-API-Key header and the api_key parameter naming different keys is 422; the same key is one key", async () => {
    const a = await createKey({ plan: "advanced" });
    const b = await createKey({ plan: "advanced" });
    const mixed = await get(`${DETECT}&api_key=${b}`, { "X-API-Key": a });
    expect(mixed.status).toBe(422);
    expect(mixed.body.error).toBe("api_key: the X-API-Key header and the api_key query parameter name different keys");
    expect((await get(`${DETECT}&api_key=${b}&api_key=${a}`)).status).toBe(422);
    // An unknown key beside a real one is not a way to the keyless limit either.
    expect((await get(`${DETECT}&api_key=nope`, { "X-API-Key": a })).status).toBe(422);
    const same = await get(`${DETECT}&api_key=${a}`, { "X-API-Key": a });
    expect(same.status).toBe(200);
    expect(same.headers["ratelimit-limit"]).toBe("100");
  });

  it("header names in any case are the same header", async () => {
    const key = await createKey({ plan: "plus" });
    for (const name of ["x-api-key", "X-API-KEY", "x-Api-kEy"]) {
      const res = await get(DETECT, { [name]: key });
      expect(res.status).toBe(200);
      expect(res.headers["ratelimit-limit"]).toBe("25");
    }
  });

  it("spellings of a path, unknown paths and malformed ones all count", async () => {
    expect((await get(DETECT)).status).toBe(200);
    const variations = [
      `/api/v2//detectAddress?address=${RAW}`,
      `//api/v2/detectAddress?address=${RAW}`,
      `/api/v2/detectAddress/?address=${RAW}`,
      `/api/v2/detect%41ddress?address=${RAW}`,
      `/API/V2/detectAddress?address=${RAW}`,
      "/api/v2/noSuchMethod",
      "/api/v2/detect%zzAddress",
      "/favicon.ico",
      "/static/../api/v2/detectAddress",
    ];
    expect(statuses(await Promise.all(variations.map((p) => get(p))))).toEqual(variations.map(() => 429));
    // the page at the root and its files cost nothing, as the API docs (what the page asks the API counts)
    expect((await get("/")).status).toBe(200);
    expect((await request(t.url, DETECT, { method: "POST", body: {} })).status).toBe(429);
    expect((await request(t.url, "/api/v2/jsonRPC", { method: "GET" })).status).toBe(429);
  });

  it("a /jsonRPC batch takes one token per call, all or none (a batch larger than the bucket: from a full one, leaving debt)", async () => {
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "detectAddress", params: { address: RAW } });
    const batch = (n: number, headers: Record<string, string> = {}) => request(t.url, "/api/v2/jsonRPC", { headers, body: Array.from({ length: n }, (_, i) => call(i)) });

    // Keyless (1 rps): a batch of three is admitted from the full bucket and leaves it in debt for 3 s.
    const three = await batch(3);
    expect(three.status).toBe(200);
    expect(three.body.map((r: any) => r.id)).toEqual([0, 1, 2]);
    const refused = await batch(2);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual([0, 1].map((id) => expect.objectContaining({ ...LIMITED_V2, id, jsonrpc: "2.0" })));
    expect(refused.headers["retry-after"]).toBe("3");
    advance(2999);
    expect((await batch(1)).status).toBe(429);
    advance(1);
    expect((await batch(1)).status).toBe(200);

    // free (10 rps): 6 calls, then 5 do not fit (4 left), and the 4 are still there for single requests.
    const key = { "X-API-Key": await createKey({ plan: "free" }) };
    const six = await batch(6, key);
    expect(six.status).toBe(200);
    expect(six.body).toHaveLength(6);
    expect((await batch(5, key)).status).toBe(429);
    expect(statuses(await many(5, () => get(DETECT, key)))).toEqual(expect.arrayContaining([200, 200, 200, 200, 429]));
  });

  it("X-Forwarded-For from an untrusted peer is ignored", async () => {
    expect((await get(DETECT, { "X-Forwarded-For": "198.51.100.1" })).status).toBe(200);
    expect((await get(DETECT, { "X-Forwarded-For": "198.51.100.2" })).status).toBe(429);
    expect((await get(DETECT, { "X-Forwarded-For": "198.51.100.3, 198.51.100.4" })).status).toBe(429);
  });

  it("a malformed --trusted-proxy is a configuration error", () => {
    for (const bad of ["10.0.0.0/33", "10.0.0.0/8/1", "proxy.example", "::1/129", ""]) {
      expect(() => new ClientAddresses([bad]), bad).toThrow(`--trusted-proxy "${bad}" is not an IP address or CIDR`);
    }
    expect(() => new ClientAddresses(["10.0.0.0/8", "2001:db8::/32", "192.0.2.1"])).not.toThrow();
  });

  it("X-Forwarded-For from a trusted proxy names the client: its rightmost untrusted entry", async () => {
    const via = (xff: string) => get(DETECT, { "X-Forwarded-For": xff }, proxied.url);
    expect((await via("198.51.100.1")).status).toBe(200);
    expect((await via("198.51.100.2")).status).toBe(200);
    // What the client wrote left of the proxy's entry is not believed; trusted hops are skipped.
    expect((await via("203.0.113.9, 198.51.100.1")).status).toBe(429);
    expect((await via("198.51.100.2, 127.0.0.1")).status).toBe(429);
    // A key limited to an address range: the forwarded address is the one checked.
    const fromTen = await createKey({ ips: ["10.0.0.0/8"] }, proxied.url);
    expect((await get(DETECT, { "X-API-Key": fromTen, "X-Forwarded-For": "10.1.2.3" }, proxied.url)).status).toBe(200);
    expect((await get(DETECT, { "X-API-Key": fromTen, "X-Forwarded-For": "10.1.2.3, 198.51.100.7" }, proxied.url)).status).toBe(403);
  });
});

describe("never limited", () => {
  it("health, metrics, CORS preflights, the API docs and the admin API", async () => {
    expect((await get(DETECT)).status).toBe(200);
    expect((await get(DETECT)).status).toBe(429);
    const exempt = ["/healthz", "/metrics", "/api/v2/", "/api/v2/openapi.json", "/api/v2/swagger/swagger-ui.css", "/api/v2/swagger/init.js", "/healthz/"];
    for (let i = 0; i < 3; i++) {
      const answers = await Promise.all(exempt.map((p) => get(p)));
      expect(statuses(answers)).toEqual(exempt.map(() => 200));
      expect(answers.every((a) => a.headers["ratelimit-limit"] === undefined)).toBe(true);
    }
    expect((await request(t.url, DETECT, { method: "OPTIONS" })).status).toBe(204);
    const list = await request(t.url, "/api/admin/v1/keys/list", { body: { admin_token: ADMIN } });
    expect(list.status).toBe(200);
    // A swagger path that is not an asset is not documentation: it counts.
    expect((await get("/api/v2/swagger/other.js")).status).toBe(429);
  });

  it("decisions are counted in /metrics by outcome", async () => {
    await get(DETECT);
    await get(DETECT);
    const text = (await get("/metrics")).body as string;
    expect(text).toMatch(/tongate_ratelimit_decisions_total\{outcome="allowed"\} [1-9]/);
    expect(text).toMatch(/tongate_ratelimit_decisions_total\{outcome="limited"\} [1-9]/);
  });
});
