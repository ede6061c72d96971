// @tongate/liteclient's PendingBlocks against a real localnet with a pending window, over the
// liteserver pool: a transfer's transaction is emitted from its signed shard block before any
// masterchain block commits it, then `committed` names the masterchain block that did.
import { Address, toNano } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { LiteServerError, LiteserverPool, PendingBlocks, type BlockIdExt, type LiteQuerier, type PendingShardBlock } from "@tongate/liteclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let pool: LiteserverPool;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "pending-blocks", pendingWindowMs: 300 });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig());
  await pool.ready(5000);
});

afterAll(async () => {
  await pool?.close();
  await net?.close();
});

const rawOf = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

describe("PendingBlocks", () => {
  it("emits a transfer's transaction as pending, then committed with its masterchain block", async () => {
    const watcher = new PendingBlocks(pool, { intervalMs: 50 });
    const blocks: { block: PendingShardBlock; headAtEmit: number }[] = [];
    const commits: { mcSeqno: number; blocks: BlockIdExt[] }[] = [];
    watcher.on("block", (block) => blocks.push({ block, headAtEmit: net.chain.lastMasterchain!.id.seqno }));
    watcher.on("committed", (mcSeqno, ids) => commits.push({ mcSeqno, blocks: ids }));
    try {
      await new Promise((resolve) => watcher.once("supported", resolve));
      expect(watcher.supported).toBe(true);
      const faucet = net.faucetAddress!;
      const sent = await net.faucet(new Address(0, Buffer.alloc(32, 0x5e)), toNano(1));

      const mine = blocks.find((b) => b.block.transactions.some((t) => t.hash.equals(sent.hash)));
      expect(mine, "the faucet's transaction was emitted from a pending block").toBeDefined();
      // emitted while the masterchain was still at the block before the one that commits it
      expect(mine!.headAtEmit).toBe(sent.mcSeqno - 1);
      const tx = mine!.block.transactions.find((t) => t.hash.equals(sent.hash))!;
      expect(tx.account).toBe(rawOf(faucet));
      expect(tx.lt).toBe(sent.lt);
      expect(tx.cell.hash()).toEqual(sent.hash);
      expect(tx.inMsgHash).not.toBeNull();

      await expect.poll(() => commits.find((c) => c.mcSeqno === sent.mcSeqno), { timeout: 5000, interval: 20 }).toBeDefined();
      const commit = commits.find((c) => c.mcSeqno === sent.mcSeqno)!;
      expect(commit.blocks.map((b) => b.seqno)).toEqual([mine!.block.id.seqno]);
      expect(Buffer.from(commit.blocks[0]!.root_hash)).toEqual(Buffer.from(mine!.block.id.root_hash));
      // the committing block's shard top is that very block
      const committed = net.chain.mcBlock(sent.mcSeqno)!;
      expect(committed.meta.shards.map((k) => k.seqno)).toEqual([mine!.block.id.seqno]);
    } finally {
      await watcher.close();
    }
  });

  it("follows several seals in a row, each block committed once by its own masterchain block", async () => {
    const watcher = new PendingBlocks(pool, { intervalMs: 30 });
    const emitted: number[] = [];
    const commits = new Map<number, number[]>();
    watcher.on("block", (b) => emitted.push(b.id.seqno));
    watcher.on("committed", (mc, ids) => commits.set(mc, ids.map((i) => i.seqno)));
    try {
      await new Promise((resolve) => watcher.once("supported", resolve));
      const sealed = [];
      for (let i = 0; i < 3; i++) sealed.push(await net.chain.seal());
      const shardSeqnos = sealed.map((mc) => mc.meta.shards[0]!.seqno);
      await expect.poll(() => commits.size, { timeout: 5000, interval: 20 }).toBe(3);
      expect(emitted).toEqual(shardSeqnos);
      expect([...commits]).toEqual(sealed.map((mc, i) => [mc.id.seqno, [shardSeqnos[i]]]));
    } finally {
      await watcher.close();
    }
  });

  it("through a split and a merge, every shard's block is emitted and committed by the masterchain block that lists it", async () => {
    const watcher = new PendingBlocks(pool, { intervalMs: 30 });
    const emitted: string[] = [];
    const commits = new Map<number, string[]>();
    const name = (i: { shard: bigint; seqno: number }) => `${BigInt.asUintN(64, i.shard).toString(16)}:${i.seqno}`;
    watcher.on("block", (b) => emitted.push(name(b.id)));
    watcher.on("committed", (mc, ids) => commits.set(mc, ids.map(name).sort()));
    try {
      await new Promise((resolve) => watcher.once("supported", resolve));
      net.chain.requestSplit();
      const sealed = [];
      // before_split, then two after_split blocks, then both wanting the merge, then the merged block
      for (let i = 0; i < 2; i++) sealed.push(await net.chain.seal());
      net.chain.requestMerge();
      for (let i = 0; i < 2; i++) sealed.push(await net.chain.seal());
      expect(sealed.map((mc) => mc.meta.shards.length)).toEqual([1, 2, 2, 1]);
      const expected = sealed.map((mc) => [mc.id.seqno, mc.meta.shards.map((k) => name({ shard: k.shard, seqno: k.seqno })).sort()] as const);
      await expect.poll(() => commits.size, { timeout: 5000, interval: 20 }).toBe(4);
      expect([...commits]).toEqual(expected);
      expect(emitted.sort()).toEqual(expected.flatMap(([, b]) => b).sort());
    } finally {
      await watcher.close();
    }
  });

  it("says once that a liteserver without nonfinal queries is unsupported, and asks it rarely", async () => {
    // A liteserver older than TON's nonfinal queries (2024.04) answers them with a liteServer.error:
    // this one answers everything else from the localnet through the pool.
    let asked = 0;
    const old: LiteQuerier = {
      query: (fn, options) => {
        if (fn.kind === "liteServer.nonfinal.getPendingShardBlocks") {
          asked++;
          return Promise.reject(new LiteServerError(-400, "unknown query"));
        }
        return pool.query(fn, options);
      },
    };
    const watcher = new PendingBlocks({ session: () => old }, { intervalMs: 10, unsupportedIntervalMs: 400 });
    const said: boolean[] = [];
    watcher.on("supported", (s) => said.push(s));
    try {
      await new Promise((r) => setTimeout(r, 600));
      expect(said).toEqual([false]);
      expect(watcher.supported).toBe(false);
      expect(asked).toBeLessThanOrEqual(2);
    } finally {
      await watcher.close();
    }
  });

  it("remembers a bounded number of blocks", async () => {
    const watcher = new PendingBlocks(pool, { intervalMs: 20, remember: 2 });
    const emitted: number[] = [];
    watcher.on("block", (b) => emitted.push(b.id.seqno));
    try {
      await new Promise((resolve) => watcher.once("supported", resolve));
      for (let i = 0; i < 4; i++) await net.chain.seal();
      await expect.poll(() => emitted.length, { timeout: 5000, interval: 20 }).toBe(4);
      expect(watcher.rememberedBlocks).toBeLessThanOrEqual(2);
    } finally {
      await watcher.close();
    }
  });
});
