// What one request costs on its way through the gateway and a service, counted on real parts: a
// localnet over ADNL (every liteserver query it answers), the gateway with its services in this
// process as `tongate start` hosts them, and an index in chDB filled by the indexer's runIndexer.
// A walk of v2 getAddressInformation and of v3 /transactions parses each address once (the
// gateway's format check; the service reads the same parse) and asks the liteserver for the
// masterchain head at most once.
import { Address, toNano } from "@ton/core";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openIndexStore, runIndexer } from "@tongate/indexer";
import { liteClientKey, LiteserverPool } from "@tongate/liteclient";
import type { Localnet } from "@tongate/localnet";
import { createLogger, provide } from "@tongate/runtime";
import { addressParseCounts } from "@tongate/ton";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

const log = createLogger({ level: process.env.TONGATE_TEST_LOG_LEVEL ?? "silent" });
const account = new Address(0, Buffer.alloc(32, 0x5a));
let net: Localnet;
let t: Embedded;
/** liteserver queries the localnet answered, by lite_api name */
const queries = new Map<string, number>();

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "request-walk" });
  await net.faucet(account, toNano("3"));
  await net.chain.seal();
  await net.faucet(account, toNano("1"));
  await net.chain.seal();
  const config = net.globalConfig();

  // the index, filled up to the head by the indexer's one routine (as `tongate index --to` runs it)
  const dir = mkdtempSync(join(tmpdir(), "tongate-walk-"));
  const lite = LiteserverPool.fromGlobalConfig(config);
  const store = await openIndexStore({ path: dir });
  try {
    const run = await runIndexer({ lite, store, network: "localnet", to: net.chain.lastMasterchain!.id.seqno, log });
    expect((await run.done)?.transactions).toBeGreaterThan(0);
  } finally {
    await store.close();
    await lite.close();
  }

  // the services answer from that index; their pool probes the liteserver at start only, so that
  // every query the localnet sees during a request is the request's
  const pool = provide(liteClientKey, () => LiteserverPool.fromGlobalConfig(config, { probeIntervalMs: 3_600_000 }));
  t = await startEmbedded({ globalConfig: config, index: "off", "index-dir": dir }, {}, [pool]);
  net.onQuery = (name) => queries.set(name, (queries.get(name) ?? 0) + 1);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

/** The parses of addresses and the liteserver queries during `request`, and its answer. */
async function counted(request: () => Promise<{ status: number; body: any }>) {
  const parseSpies = [vi.spyOn(Address, "parse"), vi.spyOn(Address, "parseRaw"), vi.spyOn(Address, "parseFriendly")];
  const before = addressParseCounts();
  queries.clear();
  const answer = await request();
  const after = addressParseCounts();
  const coreParses = parseSpies.reduce((n, s) => n + s.mock.calls.length, 0);
  for (const s of parseSpies) s.mockRestore();
  return {
    answer,
    /** inputs parseAddress decoded, and the calls it answered from the ones parsed lately */
    decoded: after.decoded - before.decoded,
    remembered: after.remembered - before.remembered,
    coreParses,
    heads: queries.get("liteServer.getMasterchainInfo") ?? 0,
    queries: Object.fromEntries(queries),
  };
}

describe("one request's walk", () => {
  it("v2 getAddressInformation: the address parsed once, the head asked once", async () => {
    // a form of the address this process has not parsed yet
    const form = account.toString({ bounceable: false, urlSafe: true });
    const c = await counted(() => getJson(`${t.url}/api/v2/getAddressInformation?address=${form}`));
    expect(c.answer.status).toBe(200);
    // 4 TON received less the uninitialised account's storage fees
    expect(BigInt(c.answer.body.result.balance)).toBeGreaterThan(toNano("3.9"));
    expect(c.decoded).toBe(1);
    // the gateway's check and lite-proxy's read: one parse, the second a lookup
    expect(c.remembered).toBeGreaterThanOrEqual(1);
    expect(c.coreParses).toBe(0);
    expect(c.heads).toBeLessThanOrEqual(1);
    expect(c.queries).toEqual({ "liteServer.getMasterchainInfo": c.heads, "liteServer.getAccountState": 1 });
  });

  it("v3 /transactions: the account parsed once, no liteserver query", async () => {
    const form = account.toString({ bounceable: true, urlSafe: false });
    const c = await counted(() => getJson(`${t.url}/api/v3/transactions?account=${encodeURIComponent(form)}&limit=10`));
    expect(c.answer.status).toBe(200);
    expect(c.answer.body.transactions).toHaveLength(2);
    expect(c.decoded).toBe(1);
    expect(c.coreParses).toBe(0);
    expect(c.heads).toBeLessThanOrEqual(1);
    expect(c.queries).toEqual({});
  });
});
