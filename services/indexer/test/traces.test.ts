// Traces across masterchain blocks and restarts: a localnet chain with multi-hop traffic (transfers
// to masterchain accounts that bounce back to basechain, a block later each hop) indexed in one go,
// then again in pieces — each piece a new indexRange that rebuilds the trace state from the store,
// one of them after a block stored without its checkpoint (a crash between the two) — gives the
// same traces rows and transactions.trace_id; followChain after a failed round as well.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { getCheckpoint, openStore, type Store } from "@tongate/store";
import { type LiteClient, followChain, indexRange, migrate, restoreTraceAssembler } from "../src/index.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;
let head = 0;

const fresh = (wc: number, n: number) => new Address(wc, Buffer.alloc(32, n));

async function rows<T>(query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

const TABLES = ["blocks", "transactions", "messages", "account_states", "traces", "transactions_by_trace", "indexer_checkpoints"];

async function wipe(): Promise<void> {
  for (const t of [...TABLES, "masterchain_block_shards", "shard_state", "transactions_by_hash", "transactions_by_block", "messages_by_source", "messages_by_destination", "message_contents", "latest_account_states"]) {
    await store.client.command({ query: `TRUNCATE TABLE ${t}` });
  }
}

interface Snapshot {
  traces: Record<string, unknown>[];
  traceIds: { hash: string; trace_id: string | null }[];
}

async function snapshot(): Promise<Snapshot> {
  return {
    traces: await rows("SELECT * FROM traces FINAL ORDER BY trace_id"),
    traceIds: await rows("SELECT hash, trace_id FROM transactions FINAL ORDER BY hash"),
  };
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "indexer-traces", wallets: 2 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openStore();
  await migrate(store);
  await pool.ready(5000);
  const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  // bounceable transfers to empty masterchain accounts: wallet (wc0) → -1 (bounces) → wallet, over blocks
  await w1.send({ to: fresh(-1, 0xb1), value: toNano("1"), bounce: true }, { to: w2.address, value: toNano("1") });
  await w2.send({ to: fresh(-1, 0xb2), value: toNano("2"), bounce: true }, { to: fresh(0, 0xc1), value: toNano("1"), bounce: true });
  await net.faucet(fresh(0, 0xc2), toNano("3"));
  await w1.send({ to: fresh(-1, 0xb3), value: toNano("1"), bounce: false }, { to: fresh(-1, 0xb4), value: toNano("1"), bounce: true });
  for (let i = 0; i < 4; i++) await net.chain.seal();
  head = net.chain.lastMasterchain!.id.seqno;
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
});

describe("traces", () => {
  let whole: Snapshot;

  it("one run: every transaction has a trace; traces span masterchain blocks and complete", async () => {
    await indexRange(pool, store, { from: 1, to: head });
    whole = await snapshot();
    expect(whole.traceIds.every((t) => t.trace_id !== null)).toBe(true);
    const multi = whole.traces.filter((t) => Number(t.mc_seqno_end) > Number(t.mc_seqno_start));
    expect(multi.length).toBeGreaterThanOrEqual(2);
    expect(new Set(whole.traces.map((t) => t.state))).toEqual(new Set(["complete"]));
    const ids = new Set(whole.traceIds.map((t) => t.trace_id));
    expect(new Set(whole.traces.map((t) => t.trace_id))).toEqual(ids);
    for (const t of whole.traces) {
      const txs = whole.traceIds.filter((x) => x.trace_id === t.trace_id).length;
      expect(Number(t.nodes), String(t.trace_id)).toBe(txs);
    }
    // a bounce trace's root is its wallet's external message
    expect(multi.every((t) => t.external_hash !== null && t.external_hash_norm !== null)).toBe(true);
  });

  it("in pieces with restarts (and a block stored without its checkpoint): the same traces and trace_ids", async () => {
    const pendingSeen = new Set<number>();
    await wipe();
    let at = 0;
    while (at < head) {
      const to = Math.min(head, at + 1 + (at % 2));
      await indexRange(pool, store, { to });
      expect(await getCheckpoint(store, "follower")).toBe(to);
      // a crash after the rows of `to + 1` were stored but before its checkpoint: stored under another name
      if (to < head && to % 3 === 0) await indexRange(pool, store, { from: to + 1, to: to + 1, checkpoint: "scratch" });
      if ((await restoreTraceAssembler(store, to)).inflightMessages().size > 0) pendingSeen.add(to);
      at = to;
    }
    expect(pendingSeen.size).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(whole);
  });

  it("followChain after a failed round rebuilds the trace state from the store", async () => {
    await wipe();
    const ac = new AbortController();
    // fail after a few blocks: one getBlock answer lost
    let calls = 0;
    const flaky: LiteClient = {
      query: (fn, o) => (fn.kind === "liteServer.getBlock" && ++calls === 7 ? Promise.reject(new Error("lost answer")) : pool.query(fn, o)),
    };
    const errors: unknown[] = [];
    const done = followChain(flaky, store, { signal: ac.signal, waitMs: 500, retryMs: 20, onError: (e) => errors.push(e) });
    const deadline = Date.now() + 20_000;
    while (((await getCheckpoint(store, "follower")) ?? 0) < head) {
      if (Date.now() > deadline) throw new Error("followChain did not reach the head");
      await new Promise((r) => setTimeout(r, 50));
    }
    ac.abort();
    await done;
    expect(errors).toHaveLength(1);
    expect(await snapshot()).toEqual(whole);
  });
});
