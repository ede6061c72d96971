// Embedded mode: blocks.indexed events through the in-process bus while indexRange/followChain store
// a localnet's blocks — one per masterchain block, in order, with the stored blocks and tx counts;
// a publisher that missed blocks (a failed publish) sends them from the store first; the metrics
// and /healthz of what was stored.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { type BusMessage, InProcessBus, serveMetrics } from "@tongate/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getCheckpoint, openStore, type Store } from "@tongate/store";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import {
  type BlocksIndexed,
  BlocksIndexedPublisher,
  FOLLOWER_CHECKPOINT,
  IndexerMetrics,
  blocksIndexedSubject,
  decodeBlocksIndexed,
  followChain,
  indexRange,
  migrate,
  storedBlocksIndexed,
} from "../src/index.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;

const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "indexer-events" });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openStore();
  await migrate(store);
  await pool.ready(5000);
  await net.faucet(fresh(1), toNano("1"));
  await net.chain.seal();
  await net.faucet(fresh(2), toNano("1"));
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
});

async function until(cond: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the store says of a masterchain block: its transaction count and blocks. */
async function storedCounts(mc: number): Promise<{ txs: number; blocks: number }> {
  const rs = await store.client.query({
    query: "SELECT count() AS txs, uniqExact(block_workchain, block_shard, block_seqno) AS blocks FROM transactions FINAL WHERE mc_seqno = {n:UInt32}",
    query_params: { n: mc },
    format: "JSONEachRow",
  });
  const [r] = await rs.json<{ txs: string }>();
  const b = await store.client.query({ query: "SELECT count() AS n FROM blocks FINAL WHERE mc_seqno = {n:UInt32}", query_params: { n: mc }, format: "JSONEachRow" });
  return { txs: Number(r!.txs), blocks: Number((await b.json<{ n: string }>())[0]!.n) };
}

describe("blocks.indexed on the in-process bus", () => {
  const bus = new InProcessBus();
  const got: { subject: string; e: BlocksIndexed }[] = [];
  const metrics = new IndexerMetrics({ processMetrics: false });
  let publisher: BlocksIndexedPublisher;

  beforeAll(async () => {
    await bus.subscribe("tongate.*.blocks.indexed", (m: BusMessage) => void got.push({ subject: m.subject, e: decodeBlocksIndexed(m.data) }));
    publisher = new BlocksIndexedPublisher(bus, "localnet", store);
  });

  it("one event per stored masterchain block, in order, matching the store", async () => {
    const head = net.chain.lastMasterchain!.id.seqno;
    await indexRange(pool, store, {
      to: head,
      onStored: async (b) => {
        metrics.stored(b);
        await publisher.onStored(b);
      },
    });
    await until(() => got.length === head);
    expect(got.map((g) => g.subject)).toEqual(Array(head).fill(blocksIndexedSubject("localnet")));
    expect(got.map((g) => g.e.masterchain!.seqno)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
    let txs = 0;
    for (const { e } of got) {
      const s = await storedCounts(e.masterchain!.seqno);
      expect(e.transactionCount).toBe(s.txs);
      expect(1 + e.shardBlocks.length).toBe(s.blocks);
      expect(e.masterchain!.workchain).toBe(-1);
      expect(e.masterchain!.rootHash).toHaveLength(32);
      expect(e.shardBlocks.every((b) => b.workchain === 0 && b.shard === -(2n ** 63n))).toBe(true);
      expect(e.lagBlocks).toBe(head - e.masterchain!.seqno);
      // the same event rebuilt from the store (what a re-publish sends), lag aside
      const again = (await storedBlocksIndexed(store, e.masterchain!.seqno, head))!;
      expect({ ...again, lagSeconds: 0 }).toEqual({ ...e, lagSeconds: 0 });
      txs += e.transactionCount;
    }
    expect(txs).toBeGreaterThanOrEqual(2);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(new RegExp(`^tongate_indexer_last_mc_seqno ${head}$`, "m"));
    expect(text).toMatch(/^tongate_indexer_lag_blocks 0$/m);
    expect(text).toMatch(new RegExp(`^tongate_indexer_transactions_total ${txs}$`, "m"));
    expect(text).toMatch(/^tongate_indexer_rows_inserted_total\{table="traces"\} \d+$/m);
    expect(text).toMatch(/^tongate_indexer_insert_duration_seconds_count \d+$/m);
  });

  it("followChain: a failed publish is retried from the store before the next block; /healthz and /metrics", async () => {
    const before = got.length;
    const start = (await getCheckpoint(store, FOLLOWER_CHECKPOINT))!;
    let failOnce = true;
    const ac = new AbortController();
    const server = await serveMetrics({ host: "127.0.0.1", port: 0 }, metrics.registry, () => metrics.health());
    const done = followChain(pool, store, {
      signal: ac.signal,
      waitMs: 500,
      retryMs: 20,
      onError: (e) => metrics.failed(e),
      onStored: async (b) => {
        metrics.stored(b);
        if (failOnce) {
          failOnce = false;
          throw new Error("bus unavailable");
        }
        await publisher.onStored(b);
      },
    });
    await net.chain.seal();
    await net.faucet(fresh(3), toNano("1"));
    await net.chain.seal();
    const head = net.chain.lastMasterchain!.id.seqno;
    await until(() => got.length - before === head - start);
    expect(got.slice(before).map((g) => g.e.masterchain!.seqno)).toEqual(Array.from({ length: head - start }, (_, i) => start + 1 + i));
    const health = (await (await fetch(`http://127.0.0.1:${server.address.port}/healthz`)).json()) as { status: string; detail: { lastMcSeqno: number } };
    expect(health).toMatchObject({ status: "ok", detail: { lastMcSeqno: head } });
    const text = await (await fetch(`http://127.0.0.1:${server.address.port}/metrics`)).text();
    expect(text).toMatch(/^tongate_indexer_errors_total 1$/m);
    expect(text).toMatch(new RegExp(`^tongate_indexer_head_mc_seqno ${head}$`, "m"));
    expect((await fetch(`http://127.0.0.1:${server.address.port}/nope`)).status).toBe(404);
    ac.abort();
    await done;
    await server.close();
    await bus.close();
  });
});
