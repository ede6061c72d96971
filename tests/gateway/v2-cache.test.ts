// The gateway's answer cache (toncenter CPP's per-method caches, v2-api.md §4.2): TTLs from the contract's
// cache option, hits marked ":c" in @extra, errors never kept, one entry for every spelling of a request,
// memory bounded by entries per RPC and a byte budget.
import { create } from "@bufbuild/protobuf";
import type { Localnet } from "@tongate/localnet";
import { GetAddressInformationRequestSchema } from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { AnswerCache } from "@tongate/gateway";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
/** The cache's clock, ms: moved by the tests instead of waiting. */
let clock = 0;
const BUDGET = 1 << 20;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-cache" });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() }, { cache: { maxBytes: BUDGET, now: () => clock } });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const enc = encodeURIComponent;
const wallet = () => net.genesis.wallets[0]!.address.toString();
const head = () => net.chain.lastMasterchain!.id.seqno;

async function metric(name: string): Promise<number> {
  const text = await (await fetch(`${t.url}/metrics`)).text();
  return text
    .split("\n")
    .filter((l) => l.startsWith(name))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
}

describe("answer cache", () => {
  it("serves a repeated read from the cache, marked by ':c' after @extra, until its 1 s TTL ends", async () => {
    clock += 10_000;
    const first = await getJson(`${t.url}/api/v2/getMasterchainInfo`);
    expect(first.status).toBe(200);
    expect(first.body["@extra"]).not.toMatch(/:c$/);
    await net.chain.seal();
    const second = await getJson(`${t.url}/api/v2/getMasterchainInfo?@extra=mine`);
    expect(second.body["@extra"]).toBe("mine:c");
    expect(second.body.result).toEqual(first.body.result); // the cached head, one block behind now
    clock += 999;
    expect((await getJson(`${t.url}/api/v2/getMasterchainInfo`)).body["@extra"]).toMatch(/:c$/);
    clock += 2;
    const fresh = await getJson(`${t.url}/api/v2/getMasterchainInfo`);
    expect(fresh.body["@extra"]).not.toMatch(/:c$/);
    expect(fresh.body.result.last.seqno).toBe(head());
  });

  it("keeps reads pinned to a block (seqno) for 300 s, latest reads for 1 s", async () => {
    clock += 10_000;
    const seqno = head();
    const pinned = `${t.url}/api/v2/getAddressInformation?address=${enc(wallet())}&seqno=${seqno}`;
    const latest = `${t.url}/api/v2/getAddressInformation?address=${enc(wallet())}`;
    expect((await getJson(pinned)).body["@extra"]).not.toMatch(/:c$/);
    expect((await getJson(latest)).body["@extra"]).not.toMatch(/:c$/);
    clock += 299_000;
    const again = await getJson(pinned);
    expect(again.body["@extra"]).toMatch(/:c$/);
    expect(again.body.result.block_id.seqno).toBe(seqno);
    expect((await getJson(latest)).body["@extra"]).not.toMatch(/:c$/);
    clock += 1_001;
    expect((await getJson(pinned)).body["@extra"]).not.toMatch(/:c$/);
  });

  it("shares one entry between GET, POST and /jsonRPC spellings of a request", async () => {
    clock += 10_000;
    const seqno = head();
    const get = await getJson(`${t.url}/api/v2/getAddressBalance?seqno=${seqno}&address=${enc(wallet())}`);
    expect(get.body["@extra"]).not.toMatch(/:c$/);
    const post = await postJson(`${t.url}/api/v2/getAddressBalance`, { address: wallet(), seqno: String(seqno), unknown: 1 });
    expect(post.body["@extra"]).toMatch(/:c$/);
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 7, method: "getAddressBalance", params: { seqno, address: wallet() } });
    expect(rpc.body).toMatchObject({ ok: true, id: 7, result: get.body.result });
    expect(rpc.body["@extra"]).toMatch(/:c$/);
    const batch = await postJson(`${t.url}/api/v2/jsonRPC`, [{ id: 1, method: "getAddressBalance", params: { address: wallet(), seqno } }]);
    expect(batch.body[0]["@extra"]).toMatch(/:c$/);
  });

  it("never keeps an error: a block that does not exist yet is read once it does", async () => {
    clock += 10_000;
    const next = head() + 1;
    const url = `${t.url}/api/v2/getAddressInformation?address=${enc(wallet())}&seqno=${next}`;
    const missing = await getJson(url);
    expect(missing.status).toBeGreaterThanOrEqual(400);
    expect((await getJson(url)).status).toBe(missing.status);
    await net.chain.seal();
    const found = await getJson(url);
    expect(found.status).toBe(200);
    expect(found.body["@extra"]).not.toMatch(/:c$/);
    expect(found.body.result.block_id.seqno).toBe(next);
  });

  it("does not cache utilities, and counts hits and misses in /metrics", async () => {
    const url = `${t.url}/api/v2/detectAddress?address=${enc(wallet())}`;
    await getJson(url);
    expect((await getJson(url)).body["@extra"]).not.toMatch(/:c$/);
    expect(await metric('tongate_cache_lookups_total{rpc="getMasterchainInfo",result="hit"}')).toBeGreaterThanOrEqual(2);
    expect(await metric('tongate_cache_lookups_total{rpc="getAddressInformation",result="miss"}')).toBeGreaterThanOrEqual(4);
    expect(await metric("tongate_cache_lookups_total{rpc=\"detectAddress\"")).toBe(0);
    const bytes = await metric("tongate_cache_bytes");
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
    expect(await metric("tongate_cache_entries")).toBeGreaterThan(0);
  });
});

describe("answer cache memory bounds", () => {
  const method = LiteProxy.method.getAddressInformation;
  const request = (i: number) => create(GetAddressInformationRequestSchema, { address: `0:${i.toString(16).padStart(64, "0")}` });
  const answer = { "@type": "raw.fullAccountState", balance: "1", data: "x".repeat(400) };

  it("holds at most the RPC's max_entries (4096 for getAddressInformation), least recently used out first", () => {
    const cache = new AnswerCache(LiteProxy.methods, { maxBytes: 1 << 30, now: () => 0 });
    for (let i = 0; i < 5000; i++) {
      cache.lookup(method, request(i))!.store(answer);
      if (i % 100 === 0) expect(cache.lookup(method, request(0))!.hit).toBeDefined(); // kept warm
    }
    expect(cache.stats().entries).toBe(4096);
    expect(cache.lookup(method, request(0))!.hit).toBeDefined();
    expect(cache.lookup(method, request(1))!.hit).toBeUndefined();
    expect(cache.lookup(method, request(4999))!.hit).toBeDefined();
  });

  it("stays within its byte budget across RPCs, and skips answers too big for it", () => {
    const budget = 64 * 1024;
    const cache = new AnswerCache(LiteProxy.methods, { maxBytes: budget, now: () => 0 });
    for (let i = 0; i < 1000; i++) {
      cache.lookup(method, request(i))!.store(answer);
      cache.lookup(LiteProxy.method.getMasterchainInfo, create(LiteProxy.method.getMasterchainInfo.input))!.store({ seqno: i });
      expect(cache.stats().bytes).toBeLessThanOrEqual(budget);
    }
    const { entries } = cache.stats();
    expect(entries).toBeGreaterThan(50);
    expect(entries).toBeLessThan(200);
    expect(cache.lookup(LiteProxy.method.getMasterchainInfo, create(LiteProxy.method.getMasterchainInfo.input))!.hit).toEqual({ seqno: 999 });
    cache.lookup(method, request(1_000_000))!.store({ data: "y".repeat(budget) });
    expect(cache.lookup(method, request(1_000_000))!.hit).toBeUndefined();
    expect(cache.stats().entries).toBe(entries);
  });
});
