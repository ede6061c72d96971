// The liteserver pool against a real localnet with three liteservers (ADNL over TCP). Each liteserver is
// reached through a small TCP proxy owned by the test, so one can be stopped, made to hang, or pointed at a
// second localnet (same seed, hence the same liteserver keys) that is not sealed and so stays behind.
import { createServer, connect as netConnect, type Server, type Socket } from "node:net";
import { beginCell, external, internal, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { buildShardState, Localnet, localnetProofs } from "@tongate/localnet";
import { httpStatusOf } from "@tongate/runtime";
import type { TlObject } from "@tongate/tl";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  int32ToIpv4,
  LiteServerError,
  LiteserverPool,
  liteserversFromGlobalConfig,
  LiteserverTimeoutError,
  NoAliveLiteserverError,
  toApiError,
  type PoolOptions,
} from "@tongate/liteclient";

const MC_INFO = { kind: "liteServer.getMasterchainInfo" } as const;
const FAST: PoolOptions = { probeIntervalMs: 200, probeTimeoutMs: 1000, connectTimeoutMs: 1000, reconnectBaseMs: 100, reconnectMaxMs: 500 };

/** A TCP relay in front of one liteserver: it can be killed, made to swallow traffic, or retargeted. */
class TcpProxy {
  private readonly sockets = new Set<Socket>();
  /** While set, bytes from clients are dropped: the liteserver never answers. */
  hang = false;

  private constructor(
    private readonly server: Server,
    public target: { host: string; port: number },
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server, target);
    server.on("connection", (client) => {
      const upstream = netConnect(proxy.target.port, proxy.target.host);
      proxy.sockets.add(client).add(upstream);
      client.on("data", (chunk) => {
        if (!proxy.hang) upstream.write(chunk);
      });
      upstream.pipe(client);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        proxy.sockets.delete(client);
        proxy.sockets.delete(upstream);
      };
      client.on("close", drop).on("error", drop);
      upstream.on("close", drop).on("error", drop);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy.listenPort = (server.address() as { port: number }).port;
    return proxy;
  }

  private listenPort = 0;

  get port(): number {
    return this.listenPort;
  }

  /** Listens again on the same port after kill(). */
  revive(): Promise<void> {
    return new Promise((resolve) => this.server.listen(this.listenPort, "127.0.0.1", resolve));
  }

  /** Stops listening and cuts every connection: the liteserver is gone. */
  kill(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

let net: Localnet;
let lagNet: Localnet;
const proxies: TcpProxy[] = [];
const pools: LiteserverPool[] = [];

const listen = () => [0, 1, 2].map(() => ({ host: "127.0.0.1", port: 0 }));

beforeAll(async () => {
  const common = { seed: "pool", wallets: 1, emulator: { size: 1 }, listen: listen(), buildState: buildShardState, proofs: localnetProofs };
  [net, lagNet] = await Promise.all([Localnet.start(common), Localnet.start({ ...common, listen: listen() })]);
});

afterAll(async () => {
  await Promise.all([net?.close(), lagNet?.close()]);
});

afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
  await Promise.all(proxies.splice(0).map((p) => p.kill().catch(() => undefined)));
});

/** Three proxies (to `targets[i]`, default the main localnet's liteserver i) and a pool over them. */
async function setup(targets: Localnet[] = [net, net, net], options: PoolOptions = FAST): Promise<{ pool: LiteserverPool; px: TcpProxy[] }> {
  const px = await Promise.all(targets.map((t, i) => TcpProxy.start(t.liteservers[i]!)));
  proxies.push(...px);
  // The main localnet's global config, its addresses replaced by the proxies'.
  const config = net.globalConfig() as { liteservers: { port: number }[] };
  config.liteservers.forEach((l, i) => (l.port = px[i]!.port));
  const pool = LiteserverPool.fromGlobalConfig(config, options);
  pools.push(pool);
  await pool.ready(5000);
  await until(() => pool.status().alive === 3, 5000);
  return { pool, px };
}

async function until(cond: () => boolean, timeoutMs: number, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const seqnoOf = (info: TlObject) => (info.last as TlObject).seqno as number;

describe("global config", () => {
  it("reads liteservers from a TON global config", () => {
    expect(int32ToIpv4(2130706433)).toBe("127.0.0.1");
    expect(int32ToIpv4(-1062731775)).toBe("192.168.0.1");
    // The first liteserver of the public mainnet config.
    const [mainnet] = liteserversFromGlobalConfig({ liteservers: [{ ip: 84478511, port: 19949, id: { "@type": "pub.ed25519", key: "n4VDnSCUuSpjnCyUk9e3QOOd6o0ItSWYbTnW3Wnn8wk=" } }] });
    expect(mainnet).toMatchObject({ host: "5.9.10.47", port: 19949, address: "5.9.10.47:19949" });
    const ls = liteserversFromGlobalConfig(net.globalConfig());
    expect(ls).toHaveLength(3);
    expect(ls[1]).toMatchObject({ index: 1, host: "127.0.0.1", port: net.liteservers[1]!.port, address: `127.0.0.1:${net.liteservers[1]!.port}` });
    expect(ls[1]!.publicKey.equals(net.liteservers[1]!.publicKey)).toBe(true);
    expect(() => liteserversFromGlobalConfig({ liteservers: [{ ip: 1, port: 2, id: { "@type": "pub.ed25519", key: "AAAA" } }] })).toThrow(/liteservers\[0\]\.id\.key/);
    expect(() => liteserversFromGlobalConfig({})).toThrow(/liteservers/);
  });
});

describe("liteserver pool on a localnet with three liteservers", () => {
  it("probes every liteserver: seqno, latency, archival, consensus", async () => {
    const { pool } = await setup();
    await until(() => pool.status().liteservers.every((l) => l.archival !== null), 3000, "archival probes");
    const st = pool.status();
    const head = net.chain.lastMasterchain!.id.seqno;
    expect(st.consensus?.seqno).toBe(head);
    expect(st.total).toBe(3);
    for (const l of st.liteservers) {
      expect(l).toMatchObject({ connected: true, alive: true, archival: true, lastSeqno: head, lag: 0, error: null });
      expect(l.latencyMs).toBeGreaterThan(0);
    }
    expect(pool.statusLine()).toBe("[A0][A0][A0]");
  });

  it("spreads sessions over the liteservers and keeps each session on one", async () => {
    const { pool } = await setup();
    const used = new Map<string, number>();
    for (let i = 0; i < 9; i++) {
      const session = pool.session();
      expect(session.liteserver).toBeNull();
      await session.query(MC_INFO);
      const first = session.liteserver!;
      for (let k = 0; k < 3; k++) {
        await session.query({ kind: "liteServer.getTime" });
        expect(session.liteserver).toBe(first);
      }
      used.set(first, (used.get(first) ?? 0) + 1);
    }
    expect([...used.values()]).toEqual([3, 3, 3]);
    expect(pool.status().liteservers.map((l) => l.counters.queries)).toEqual([12, 12, 12]);
  });

  it("loses no request when one liteserver stops under load", async () => {
    const { pool, px } = await setup();
    const failures: unknown[] = [];
    const retries: string[] = [];
    pool.on("retry", (r) => retries.push(`${r.reason} ${r.from} -> ${r.to}`));
    let ok = 0;
    let afterKill = 0;
    let killed = false;
    const victim = `127.0.0.1:${px[1]!.port}`;
    const stopAt = Date.now() + 3000;
    const loop = async () => {
      while (Date.now() < stopAt) {
        const session = pool.session();
        try {
          // Two sub-requests of one "HTTP call".
          await session.query(MC_INFO, { timeoutMs: 3000 });
          await session.query({ kind: "liteServer.getTime" }, { timeoutMs: 3000 });
          ok++;
          if (killed) afterKill++;
        } catch (e) {
          failures.push(e);
        }
      }
    };
    const loops = Array.from({ length: 10 }, loop);
    await new Promise((r) => setTimeout(r, 1000));
    await px[1]!.kill();
    killed = true;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    console.log(`under load: ${ok} calls, ${afterKill} after the kill, retries: ${JSON.stringify(pool.status().counters)}`);
    expect(ok).toBeGreaterThan(100);
    expect(afterKill).toBeGreaterThan(50);
    const st = pool.status();
    const dead = st.liteservers.find((l) => l.address === victim)!;
    expect(dead).toMatchObject({ alive: false, connected: false });
    expect(dead.error).toMatch(/connection lost|connect failed/);
    expect(st.alive).toBe(2);
    expect(st.counters.failoverRetries).toBeGreaterThan(0); // queries in flight on it moved elsewhere
    // New sessions do not go to it.
    for (let i = 0; i < 6; i++) {
      const s = pool.session();
      await s.query(MC_INFO);
      expect(s.liteserver).not.toBe(victim);
    }
    // It comes back: the pool reconnects (with backoff) and uses it again.
    await px[1]!.revive();
    await until(() => pool.status().alive === 3, 3000, "the reconnect");
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const s = pool.session();
      await s.query(MC_INFO);
      seen.add(s.liteserver!);
    }
    expect(seen.has(victim)).toBe(true);
    expect(pool.status().liteservers[1]!.counters.reconnects).toBeGreaterThan(0);
  });

  it("excludes a lagging liteserver until it catches up", async () => {
    // Liteserver 2 is served by a second localnet (same seed, same key) that is not sealed.
    while (lagNet.chain.lastMasterchain!.id.seqno < net.chain.lastMasterchain!.id.seqno) await lagNet.chain.seal();
    const { pool } = await setup([net, net, lagNet]);
    const lagging = `127.0.0.1:${proxies[2]!.port}`;
    const events: string[] = [];
    pool.on("dead", (s) => events.push(`dead ${s.address}`));
    pool.on("alive", (s) => events.push(`alive ${s.address}`));
    for (let i = 0; i < 5; i++) await net.chain.seal();
    const head = net.chain.lastMasterchain!.id.seqno;
    expect(head - lagNet.chain.lastMasterchain!.id.seqno).toBeGreaterThan(3);
    await until(() => pool.status().consensus?.seqno === head && pool.status().alive === 2, 3000, "the lagging liteserver to be excluded");
    const st = pool.status().liteservers.find((l) => l.address === lagging)!;
    expect(st).toMatchObject({ connected: true, alive: false });
    expect(st.lag).toBeGreaterThan(3);
    expect(st.error).toMatch(/blocks behind consensus/);
    expect(events).toContain(`dead ${lagging}`);
    for (let i = 0; i < 12; i++) {
      const s = pool.session();
      const info = await s.query(MC_INFO);
      expect(s.liteserver).not.toBe(lagging);
      expect(seqnoOf(info)).toBe(head);
    }

    while (lagNet.chain.lastMasterchain!.id.seqno < head) await lagNet.chain.seal();
    await until(() => pool.status().alive === 3, 3000, "the lagging liteserver to catch up");
    expect(events.at(-1)).toBe(`alive ${lagging}`);
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const s = pool.session();
      await s.query(MC_INFO);
      seen.add(s.liteserver!);
    }
    expect(seen.has(lagging)).toBe(true);
  });

  it("waits for a masterchain block with the waitMasterchainSeqno prefix", async () => {
    const { pool } = await setup();
    const next = net.chain.lastMasterchain!.id.seqno + 1;
    const sealing = new Promise((r) => setTimeout(r, 200)).then(() => net.chain.seal());
    const info = await pool.query(MC_INFO, { awaitSeqno: next, timeoutMs: 5000 });
    expect(seqnoOf(info)).toBeGreaterThanOrEqual(next);
    await sealing;
    // Past the deadline the liteserver answers liteServer.error timeout.
    // (2 s: the liteserver gives up 400 ms before the pool does, a margin a loaded CI machine keeps)
    await expect(pool.query(MC_INFO, { awaitSeqno: next + 1000, timeoutMs: 2000 })).rejects.toMatchObject({ name: "LiteServerError", code: 652 });
  });

  it("turns liteServer.error into LiteServerError and retries \"not in db\" once on an archival liteserver", async () => {
    const { pool } = await setup();
    await until(() => pool.status().liteservers.every((l) => l.archival === true), 3000, "archival probes");
    const retries: string[] = [];
    pool.on("retry", (r) => retries.push(r.reason));
    const session = pool.session({ archival: true });
    const err = await session
      .query({ kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: -0x8000000000000000n, seqno: 10_000_000 } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LiteServerError);
    expect((err as LiteServerError).notInDb).toBe(true);
    expect(retries).toEqual(["archival"]);
    expect(pool.status().counters.archivalRetries).toBe(1);
    expect(session.liteserver).not.toBeNull();
    // An error that is not "not in db" is not retried.
    await expect(pool.query({ kind: "liteServer.sendMessage", body: Buffer.from("not a boc") })).rejects.toBeInstanceOf(LiteServerError);
    expect(retries).toEqual(["archival"]);
  });

  it("broadcasts: the first success wins; all failing gives the most informative error", async () => {
    const { pool, px } = await setup();
    const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
    // The genesis wallet has sent nothing yet on this localnet: seqno 0.
    const body = wallet.createTransfer({ seqno: 0, secretKey: w.keyPair.secretKey, messages: [internal({ to: wallet.address, value: toNano("0.01"), bounce: false })] });
    const boc = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc();

    // One liteserver stops answering; it is still alive (its probe has not failed yet) and gets the message too.
    px[0]!.hang = true;
    expect(pool.status().alive).toBe(3);
    const started = performance.now();
    const status = await pool.broadcast({ kind: "liteServer.sendMessage", body: boc }, { timeoutMs: 5000 });
    expect(status).toMatchObject({ kind: "liteServer.sendMsgStatus", status: 1 });
    expect(performance.now() - started).toBeLessThan(2000); // well before the hanging one's 5 s deadline

    // All fail: two liteservers reject the message, the hanging one times out. The rejection wins.
    const t0 = performance.now();
    const err = await pool.broadcast({ kind: "liteServer.sendMessage", body: Buffer.from("not a boc") }, { timeoutMs: 500 }).catch((e: unknown) => e);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(450);
    expect(err).toBeInstanceOf(LiteServerError);
    const attempts = (err as LiteServerError).attempts!;
    expect(attempts).toHaveLength(3);
    expect(attempts.filter((a) => a.error === "Liteserver timeout")).toHaveLength(1);
    expect(pool.status().counters.broadcastFailures).toBe(1);
  });

  it("answers a typed 504 on a liteserver timeout and a typed 542 when no liteserver is alive, promptly", async () => {
    const { pool, px } = await setup();
    for (const p of px) p.hang = true;
    const t0 = performance.now();
    const timeout = await pool.query(MC_INFO, { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(timeout).toBeInstanceOf(LiteserverTimeoutError);
    expect(httpStatusOf(toApiError(timeout as LiteserverTimeoutError))).toEqual({ status: 504, message: "Liteserver timeout" });
    expect(performance.now() - t0).toBeLessThan(1500);

    await Promise.all(px.map((p) => p.kill()));
    await until(() => pool.status().alive === 0, 2000, "every liteserver down");
    const t1 = performance.now();
    const err = await pool.query(MC_INFO, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(performance.now() - t1).toBeLessThan(100);
    expect(err).toBeInstanceOf(NoAliveLiteserverError);
    const e = err as NoAliveLiteserverError;
    expect(e.httpStatus).toBe(542);
    expect(e.down).toHaveLength(3);
    expect(e.message).toMatch(/^no alive liteserver: 127\.0\.0\.1:\d+ \((connection lost|connect failed)/);
    expect(httpStatusOf(toApiError(e)).status).toBe(542);
    await expect(pool.broadcast({ kind: "liteServer.sendMessage", body: Buffer.alloc(1) })).rejects.toBeInstanceOf(NoAliveLiteserverError);
    await expect(pool.ready(200)).rejects.toBeInstanceOf(NoAliveLiteserverError);
  });
});
