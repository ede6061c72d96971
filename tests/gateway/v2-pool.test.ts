// Acceptance of lite-proxy's liteserver pool through the gateway: one localnet serving three liteservers
// over ADNL, continuous load of API v2 reads, and one liteserver stopped, then one made to lag (its
// getMasterchainInfo frozen while the chain goes on). No request may fail; /healthz shows the pool's view.
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;

beforeAll(async () => {
  const listen = [0, 1, 2].map(() => ({ host: "127.0.0.1", port: 0 }));
  net = await startTestLocalnet({ seed: "v2-pool", listen });
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

interface LiteserverState {
  address: string;
  connected: boolean;
  alive: boolean;
  lastSeqno: number | null;
  error: string | null;
  counters: { queries: number };
}

async function pool(): Promise<{ alive: number; liteservers: LiteserverState[]; consensus: { seqno: number } }> {
  const h = await getJson(`${t.url}/healthz`);
  return h.body.detail["lite-proxy"].pool;
}

/** Polls the pool's state until `ok` holds; fails after timeoutMs. */
async function until(what: string, ok: (p: Awaited<ReturnType<typeof pool>>) => boolean, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const p = await pool();
    if (ok(p)) return p;
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}; pool: ${JSON.stringify(p.liteservers)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `loops` clients reading in a loop (getAddressInformation, getMasterchainInfo) until stopped. */
function load(loops: number) {
  const address = encodeURIComponent(net.genesis.wallets[0]!.address.toString());
  const paths = [`/api/v2/getAddressInformation?address=${address}`, "/api/v2/getMasterchainInfo"];
  let running = true;
  const failures: string[] = [];
  let done = 0;
  const loop = async (k: number) => {
    for (let i = k; running; i++) {
      const r = await getJson(t.url + paths[i % paths.length]!);
      if (r.status !== 200 || r.body.ok !== true) failures.push(`${paths[i % paths.length]} → ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      done++;
    }
  };
  const all = Promise.all(Array.from({ length: loops }, (_, k) => loop(k)));
  return {
    get done() {
      return done;
    },
    async stop() {
      running = false;
      await all;
      return { done, failures };
    },
  };
}

describe("liteserver pool through the gateway (three liteservers, under load)", () => {
  it("starts with every liteserver alive", async () => {
    const p = await until("3 alive", (s) => s.alive === 3);
    expect(p.liteservers.map((l) => l.error)).toEqual([null, null, null]);
  });

  it("loses no request while a liteserver stops and comes back", async () => {
    const traffic = load(4);
    const sealer = setInterval(() => void net.chain.seal(), 400);
    try {
      await new Promise((r) => setTimeout(r, 500));
      await net.stopLiteserver(1);
      const down = await until("liteserver 1 excluded", (s) => !s.liteservers[1]!.alive);
      expect(down.alive).toBe(2);
      expect(down.liteservers[1]!.error).toMatch(/connect|connection|probe/);
      const before = traffic.done;
      await new Promise((r) => setTimeout(r, 1000));
      expect(traffic.done - before).toBeGreaterThan(5); // the others carry the load meanwhile
      await net.startLiteserver(1);
      await until("liteserver 1 alive again", (s) => s.alive === 3);
    } finally {
      clearInterval(sealer);
      const { done, failures } = await traffic.stop();
      console.log(`stop/start: ${done} requests, ${failures.length} failed`, JSON.stringify((await getJson(`${t.url}/healthz`)).body.detail["lite-proxy"].pool.counters));
      expect(failures.slice(0, 5)).toEqual([]);
      expect(done).toBeGreaterThan(40);
    }
  });

  it("excludes a lagging liteserver (more than 3 blocks behind consensus) until it catches up", async () => {
    const traffic = load(3);
    try {
      await net.freezeHead(2);
      for (let i = 0; i < 5; i++) await net.chain.seal();
      // excluded from 4 blocks behind; the status names the lag it saw last (5 once it has seen every block)
      const lagging = await until("liteserver 2 excluded, 5 blocks behind", (s) => !s.liteservers[2]!.alive && /5 blocks behind/.test(s.liteservers[2]!.error ?? ""));
      expect(lagging.alive).toBe(2);
      expect(lagging.liteservers[2]!.connected).toBe(true);
      expect(lagging.liteservers[2]!.error).toMatch(/5 blocks behind consensus/);
      expect(lagging.consensus.seqno).toBe(net.chain.lastMasterchain!.id.seqno);
      // No call is routed to it while it is out.
      const queries = lagging.liteservers[2]!.counters.queries;
      await new Promise((r) => setTimeout(r, 500));
      expect((await pool()).liteservers[2]!.counters.queries).toBe(queries);
      await net.freezeHead(2, false);
      const back = await until("liteserver 2 alive again", (s) => s.alive === 3);
      expect(back.liteservers[2]!.lastSeqno).toBe(net.chain.lastMasterchain!.id.seqno);
    } finally {
      await net.freezeHead(2, false);
      const { done, failures } = await traffic.stop();
      console.log(`lag: ${done} requests, ${failures.length} failed`);
      expect(failures.slice(0, 5)).toEqual([]);
    }
  });

  it("tolerates a liteserver up to 3 blocks behind", async () => {
    await net.freezeHead(0);
    try {
      for (let i = 0; i < 3; i++) await net.chain.seal();
      const head = net.chain.lastMasterchain!.id.seqno;
      const p = await until("consensus at the head", (s) => s.consensus.seqno === head && s.liteservers[0]!.lastSeqno === head - 3);
      expect(p.alive).toBe(3);
    } finally {
      await net.freezeHead(0, false);
    }
  });
});
