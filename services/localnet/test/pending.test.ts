// A seal's pending window over ADNL: a transfer's transaction is in a shard block that
// liteServer.nonfinal.getPendingShardBlocks lists and liteServer.getBlock serves while
// getMasterchainInfo still shows the previous masterchain block; then the next masterchain
// block commits exactly that block. With no window nothing is ever pending.
import { beginCell, Cell, external, internal, loadTransaction, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { AdnlClient } from "@tongate/adnl";
import { blockTransactions, loadShardHashes, parseBlock, SHARD_FULL, shardHashesList } from "@tongate/block";
import { liteApi, type TlObject } from "@tongate/tl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildShardState } from "../src/chain/state.js";
import { deriveKeyPair } from "../src/keys.js";
import { checkPendingWindow, defaultPendingWindowMs, Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

const SEED = "pending";
const WINDOW_MS = 400;

let net: Localnet;
let adnl: AdnlClient;

async function call(fn: TlObject): Promise<any> {
  return liteApi.decode(await adnl.query(liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(fn) })));
}

async function ok(fn: TlObject): Promise<any> {
  const r = await call(fn);
  if (r.kind === "liteServer.error") throw new Error(`liteServer.error ${r.code}: ${r.message}`);
  return r;
}

const pendingBlocks = async (filter: { wc: number; shard: bigint } | null = null): Promise<any[]> =>
  (await ok({ kind: "liteServer.nonfinal.getPendingShardBlocks", mode: filter ? 1 : 0, ...filter })).signed_blocks;
const mcSeqno = async (): Promise<number> => (await ok({ kind: "liteServer.getMasterchainInfo" })).last.seqno;

/** Signs a transfer from the genesis v4r2 wallet and hands it to the liteserver. */
async function sendTransfer(seqno: number): Promise<void> {
  const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
  const to = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair(SEED, "to").publicKey }).address;
  const body = wallet.createTransfer({ seqno, secretKey: w.keyPair.secretKey, messages: [internal({ to, value: toNano(1), bounce: false })] });
  const msg = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  expect((await ok({ kind: "liteServer.sendMessage", body: msg.toBoc() })).status).toBe(1);
}

/** Polls until `probe` returns something, or fails after `ms`. */
async function until<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeAll(async () => {
  net = await Localnet.start({ seed: SEED, wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, pendingWindowMs: WINDOW_MS });
  const ls = net.liteservers[0]!;
  adnl = await AdnlClient.connect(ls.host, ls.port, ls.publicKey);
});

afterAll(async () => {
  adnl?.close();
  await net?.close();
});

describe("localnet pending shard blocks", () => {
  it("serves a transfer's shard block as signed but uncommitted, then commits that very block", async () => {
    const wallet = net.genesis.wallets.find((x) => x.version === "v4r2")!.address;
    const before = await mcSeqno();
    expect(await pendingBlocks()).toEqual([]);
    await sendTransfer(0);
    const sealing = net.chain.seal();

    const [pending] = await until(async () => {
      const b = await pendingBlocks();
      return b.length ? b : undefined;
    }, 5_000);
    expect(pending.workchain).toBe(0);
    expect(BigInt.asUintN(64, pending.shard)).toBe(SHARD_FULL);
    // not committed yet: the masterchain head is the previous block
    expect(await mcSeqno()).toBe(before);
    // the filter: workchain 0 (this shard, or a shard id that contains it) lists it, the masterchain does not
    expect(await pendingBlocks({ wc: 0, shard: BigInt.asIntN(64, SHARD_FULL) })).toHaveLength(1);
    expect(await pendingBlocks({ wc: 0, shard: BigInt.asIntN(64, 0x4000000000000000n) })).toHaveLength(1);
    expect(await pendingBlocks({ wc: -1, shard: BigInt.asIntN(64, SHARD_FULL) })).toEqual([]);

    // getBlock answers its data: the wallet's transaction of the transfer is in it
    const data = await ok({ kind: "liteServer.getBlock", id: pending });
    const root = Cell.fromBoc(data.data)[0]!;
    expect(root.hash()).toEqual(pending.root_hash);
    const txs = blockTransactions(parseBlock(root).extra.accountBlocks).map((t) => loadTransaction(t.raw.beginParse()));
    const mine = txs.find((t) => t.inMessage?.info.type === "external-in");
    expect(mine?.address).toBe(BigInt("0x" + wallet.hash.toString("hex")));
    // the header too
    expect((await ok({ kind: "liteServer.getBlockHeader", id: pending, mode: 0 })).id.seqno).toBe(pending.seqno);

    const committed = await sealing;
    expect(await mcSeqno()).toBe(before + 1);
    expect(await pendingBlocks()).toEqual([]);
    // the masterchain block commits the same block: same seqno, root hash and file hash
    const shards = await ok({ kind: "liteServer.getAllShardsInfo", id: { kind: "tonNode.blockIdExt", workchain: -1, shard: BigInt.asIntN(64, SHARD_FULL), seqno: committed.id.seqno, root_hash: committed.id.rootHash, file_hash: committed.id.fileHash } });
    const top = shardHashesList(loadShardHashes(Cell.fromBoc(shards.data)[0]!.beginParse()))[0]!;
    expect(top.descr.seqNo).toBe(pending.seqno);
    expect(top.descr.rootHash).toEqual(pending.root_hash);
    expect(top.descr.fileHash).toEqual(pending.file_hash);
    // and getBlock still answers it, now from the store
    expect(Cell.fromBoc((await ok({ kind: "liteServer.getBlock", id: pending })).data)[0]!.hash()).toEqual(pending.root_hash);
  });

  it("with no window, nothing is ever pending", async () => {
    net.chain.pendingWindowMs = 0;
    await sendTransfer(1);
    const sealing = net.chain.seal();
    const seen: number[] = [];
    let done = false;
    void sealing.then(() => (done = true));
    while (!done) {
      seen.push((await pendingBlocks()).length);
      await new Promise((r) => setTimeout(r, 5));
    }
    await sealing;
    expect(seen.every((n) => n === 0)).toBe(true);
    expect(await ok({ kind: "liteServer.nonfinal.getPendingShardBlocks", mode: 0 })).toEqual({ kind: "liteServer.nonfinal.pendingShardBlocks", signed_blocks: [], candidates: [] });
  });

  it("a seal that fails after its window leaves nothing pending, and the next seal commits new blocks", async () => {
    net.chain.pendingWindowMs = 100;
    const head = net.chain.lastMasterchain!;
    const store = net.chain.store;
    const putBlock = store.putBlock.bind(store);
    // the masterchain block fails to be written, after the window (as a full disk would)
    store.putBlock = () => {
      throw new Error("disk full");
    };
    const sealing = net.chain.seal();
    const [pending] = await until(async () => {
      const b = await pendingBlocks();
      return b.length ? b : undefined;
    }, 5_000);
    await expect(sealing).rejects.toThrow("disk full");
    store.putBlock = putBlock;
    expect(await pendingBlocks()).toEqual([]);
    expect(await mcSeqno()).toBe(head.id.seqno);
    const failed = await call({ kind: "liteServer.getBlock", id: pending });
    expect(failed.kind).toBe("liteServer.error");
    const next = await net.chain.seal();
    expect(next.id.seqno).toBe(head.id.seqno + 1);
  });

  it("the window defaults to half the block interval and fits inside it", () => {
    expect(defaultPendingWindowMs(1000)).toBe(500);
    expect(defaultPendingWindowMs(0)).toBe(0);
    expect(checkPendingWindow(999, 1000)).toBe(999);
    expect(checkPendingWindow(5000, 0)).toBe(5000);
    expect(() => checkPendingWindow(1000, 1000)).toThrow(/shorter than the block interval/);
    expect(() => checkPendingWindow(-1, 0)).toThrow(/0 or more/);
    expect(() => (net.chain.pendingWindowMs = 1.5)).toThrow(/whole number/);
  });
});
