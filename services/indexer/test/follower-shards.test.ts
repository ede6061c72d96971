// The chain follower across shard splits and merges: a localnet with workchain 0 in 4 shards, split to
// 8 and merged back to 4 while wallets of different shards pay each other (also in the blocks right
// after the split and the merge). Every transaction is indexed exactly once, compared with what the
// liteserver lists (listBlockTransactions of every shard block every masterchain block commits);
// the shard blocks' prev links are stored as TON's (the parent after a split, both children after a
// merge); the states before a block's transactions are read from the old side of its Merkle update,
// a split_state after a merge.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool } from "@tongate/liteclient";
import { accountNoneCell, SHARD_FULL, shardChildren, shardHashesList, shardParent } from "@tongate/block";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { getCheckpoint, openStore, type Store } from "@tongate/store";
import { followChain, indexRange, migrate } from "../src/index.js";
import type { PrevBlockRef, TransactionStateRow } from "../src/rows/types.js";

let net: Localnet;
let pool: LiteserverPool;
let store: Store;

/** The hash of account_none$0, base64 (an account that did not exist). */
const ACCOUNT_NONE_HASH = accountNoneCell().hash().toString("base64");
const fresh = (n: number) => new Address(0, Buffer.alloc(32, n));
const signed = (shard: bigint) => BigInt.asIntN(64, shard).toString();

async function rows<T>(query: string): Promise<T[]> {
  return (await store.client.query({ query, format: "JSONEachRow" })).json<T>();
}

/** Every transaction hash (hex) the liteserver lists for the shard blocks of masterchain blocks 1..mc, and the masterchain's own. */
async function listed(mc: number): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const list = async (id: { workchain: number; shard: bigint; seqno: number; rootHash: Buffer; fileHash: Buffer }) => {
    const tlId = { kind: "tonNode.blockIdExt" as const, workchain: id.workchain, shard: BigInt.asIntN(64, id.shard), seqno: id.seqno, root_hash: id.rootHash, file_hash: id.fileHash };
    let after: { kind: "liteServer.transactionId3"; account: Buffer; lt: bigint } | undefined;
    for (;;) {
      const r = await pool.query({ kind: "liteServer.listBlockTransactions", id: tlId, mode: 7 | (after ? 128 : 0), count: 100, after });
      for (const t of r.ids) out.set(t.hash!.toString("base64"), `${id.workchain}:${id.shard.toString(16)}:${id.seqno}`);
      if (!r.incomplete || r.ids.length === 0) return;
      const last = r.ids.at(-1)!;
      after = { kind: "liteServer.transactionId3", account: last.account!, lt: last.lt! }; // mode 7: account, lt and hash are there
    }
  };
  for (let s = 1; s <= mc; s++) {
    const m = net.chain.mcBlock(s)!;
    await list(m.id);
    // the shard blocks committed by s and not by s - 1 (one per shard per seal on the localnet)
    for (const top of shardHashesList(m.block.extra.custom!.shardHashes)) {
      const b = net.chain.block({ workchain: top.workchainId, shard: top.shard, seqno: top.descr.seqNo })!;
      expect(b.id.rootHash).toEqual(top.descr.rootHash);
      if (b.mcSeqno === s) await list(b.id);
    }
  }
  return out;
}

async function expectIndexedOnce(mc: number): Promise<void> {
  const want = await listed(mc);
  const got = await rows<{ hash: string; n: string; block: string }>(
    "SELECT hash, count() AS n, any(concat(toString(block_workchain), ':', toString(block_shard), ':', toString(block_seqno))) AS block FROM transactions FINAL GROUP BY hash",
  );
  expect(got.length).toBe(want.size);
  for (const t of got) {
    expect(want.has(t.hash), t.hash).toBe(true);
    expect(Number(t.n), t.hash).toBe(1);
  }
  const blocks = await rows<{ workchain: number; n: string }>("SELECT workchain, count() AS n FROM blocks FINAL GROUP BY workchain ORDER BY workchain");
  expect(blocks.map((b) => [b.workchain, Number(b.n)])).toEqual([
    [-1, mc],
    [0, net.chain.shardchain.filter((b) => b.mcSeqno <= mc).length],
  ]);
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "indexer-shards", wallets: 2, shards: 4 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig(), { probeIntervalMs: 200 });
  store = await openStore();
  await migrate(store);
  await pool.ready(5000);
  const w1 = new LocalnetSender(net, net.genesis.wallets[1]!);
  const w2 = new LocalnetSender(net, net.genesis.wallets[2]!);
  await net.chain.seal();
  await net.chain.seal();
  await net.chain.seal(); // 4 shards
  await net.faucet(fresh(0x11), toNano("5"));
  await w1.send({ to: w2.address, value: toNano("1") }, { to: fresh(0x51), value: toNano("2"), bounce: false }, { to: fresh(0xb1), value: toNano("1"), bounce: true });
  net.chain.requestSplit();
  await w2.send({ to: w1.address, value: toNano("0.5") }, { to: fresh(0xf1), value: toNano("1"), bounce: false }); // before_split
  await w1.send({ to: fresh(0x91), value: toNano("1"), bounce: false }, { to: w2.address, value: toNano("0.3") }); // after_split
  await w2.send({ to: fresh(0x31), value: toNano("1"), bounce: false }); // 8 shards
  net.chain.requestMerge();
  await w1.send({ to: w2.address, value: toNano("0.2") }, { to: fresh(0x71), value: toNano("1"), bounce: false }); // want_merge
  await w2.send({ to: w1.address, value: toNano("0.1") }, { to: fresh(0xd1), value: toNano("1"), bounce: false }); // after_merge
  await net.faucet(fresh(0x12), toNano("1"));
  await net.chain.seal();
}, 120_000);

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await net?.close();
});

describe("chain follower across shard splits and merges", () => {
  it("the chain split to 8 shards and merged back to 4", () => {
    const counts = net.chain.masterchain.map((m) => shardHashesList(m.block.extra.custom!.shardHashes).length);
    expect(counts).toContain(8);
    expect(counts.at(-1)).toBe(4);
    expect(net.chain.shardchain.some((b) => b.meta.afterMerge && b.transactions.length > 0)).toBe(true);
    expect(net.chain.shardchain.some((b) => b.meta.afterSplit && b.transactions.length > 0)).toBe(true);
  });

  it("indexes every transaction exactly once, as the liteserver lists them", async () => {
    const head = net.chain.lastMasterchain!.id.seqno;
    const r = await indexRange(pool, store, { to: head });
    expect(r.last).toBe(head);
    await expectIndexedOnce(head);
  });

  it("stores the prev links of TON: the parent after a split, both children after a merge", async () => {
    const blocks = await rows<{ shard: string; seqno: number; after_split: boolean; after_merge: boolean; prev_blocks: PrevBlockRef[] | string }>(
      "SELECT shard, seqno, after_split, after_merge, prev_blocks FROM blocks FINAL WHERE workchain = 0",
    );
    let splits = 0;
    let merges = 0;
    for (const b of blocks) {
      const prev = typeof b.prev_blocks === "string" ? (JSON.parse(b.prev_blocks) as PrevBlockRef[]) : b.prev_blocks;
      const shard = BigInt.asUintN(64, BigInt(b.shard));
      if (b.after_merge) {
        merges++;
        expect(prev.map((p) => String(p.shard))).toEqual(shardChildren(shard).map(signed));
      } else if (b.after_split) {
        splits++;
        expect(prev.map((p) => String(p.shard))).toEqual([signed(shardParent(shard))]);
      } else expect(prev.map((p) => String(p.shard))).toEqual([b.seqno === 1 ? signed(SHARD_FULL) : b.shard]);
    }
    expect(merges).toBe(4);
    expect(splits).toBe(2 + 4 + 8);
  });

  it("transactions of after_merge and after_split blocks carry the account state before them", async () => {
    const txs = await rows<{ account: string; lt: string; before: string; block_shard: string; block_seqno: number; states: string }>(
      "SELECT account, lt, account_state_hash_before AS before, block_shard, block_seqno, states FROM transactions FINAL WHERE block_workchain = 0 ORDER BY account, toUInt64(lt)",
    );
    const checked = { merge: 0, split: 0 };
    for (const b of net.chain.shardchain.filter((x) => x.meta.afterMerge || x.meta.afterSplit)) {
      const own = txs.filter((x) => BigInt.asUintN(64, BigInt(x.block_shard)) === b.id.shard && x.block_seqno === b.id.seqno);
      for (const [i, t] of own.entries()) {
        // an existing account's first transaction of the block: its state before, from the old side
        // of the block's Merkle update (a split_state of both merged states after a merge)
        if (own[i - 1]?.account === t.account || t.before === ACCOUNT_NONE_HASH) continue;
        const states = JSON.parse(t.states) as TransactionStateRow[];
        expect(states.map((x) => x.hash), `${t.account} ${t.lt}`).toContain(t.before);
        checked[b.meta.afterMerge ? "merge" : "split"]++;
      }
    }
    expect(checked.merge).toBeGreaterThanOrEqual(1);
    expect(checked.split).toBeGreaterThanOrEqual(1);
  });

  it("followChain keeps indexing through another split and merge", async () => {
    const ac = new AbortController();
    const errors: unknown[] = [];
    const done = followChain(pool, store, { signal: ac.signal, waitMs: 2000, retryMs: 50, onError: (e) => errors.push(e) });
    net.chain.requestSplit(0x2000000000000000n);
    await net.faucet(fresh(0x13), toNano("1"));
    await net.chain.seal();
    net.chain.requestMerge(0x2000000000000000n);
    await net.faucet(fresh(0x14), toNano("1"));
    await net.faucet(fresh(0x15), toNano("1"));
    const target = net.chain.lastMasterchain!.id.seqno;
    const deadline = Date.now() + 15_000;
    while (((await getCheckpoint(store, "follower")) ?? 0) < target) {
      if (Date.now() > deadline) throw new Error("followChain did not reach the head");
      await new Promise((r) => setTimeout(r, 50));
    }
    ac.abort();
    expect(await done).toBe(target);
    expect(errors).toEqual([]);
    await expectIndexedOnce(target);
  });
});
