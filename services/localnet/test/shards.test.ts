// Workchain 0 split into shards (--shards 4), split again to 8 and merged back to 4 while wallets in
// different shards pay each other. Every block parses and re-serializes, chains through the split and
// the merge (after_split: prev = the parent; after_merge: prev1/prev2 = the children), keeps lt
// growing, and its state_update applies to the state TON's validator starts from (the parent's whole
// state after a split, split_state of both after a merge); every masterchain block lists exactly the
// shards of its seal and is signed. Over ADNL, the shard answers and proofs verify with @tongate/proof.
import { createHash } from "node:crypto";
import { Address, beginCell, loadAccount, loadTransaction, type Cell } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { AdnlClient } from "@tongate/adnl";
import {
  applyMerkleUpdate,
  blockCell,
  configValidatorSet,
  emptyCryptoSignatures,
  loadMerkleUpdate,
  loadShardStateUnsplitHeader,
  parseBlock,
  SHARD_FULL,
  shardChildren,
  shardContainsAccount,
  shardHashesList,
  shardParent,
  shardPrefixLength,
  verifyBlockSignatures,
} from "@tongate/block";
import * as verify from "@tongate/proof";
import { liteApi, type TlObject } from "@tongate/tl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender } from "../../../tests/support/localnet-deploy.js";
import type { BlockRecord } from "../src/chain/chain.js";
import { buildShardState } from "../src/chain/state.js";
import { deriveKeyPair } from "../src/keys.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

const SEED = "shards";
const TON = 1_000_000_000n;

let net: Localnet;
let adnl: AdnlClient;
/** The shards of workchain 0 after each masterchain block (index = seqno). */
const layout: bigint[][] = [];
/** Cross-shard transfers: the sender's and the receiver's address and the value sent. */
const transfers: { from: Address; to: Address; value: bigint; sentAt: number }[] = [];

const hex16 = (s: bigint) => s.toString(16).padStart(16, "0");
const signed = (shard: bigint) => BigInt.asIntN(64, shard);
const tl = (r: BlockRecord): verify.TonNodeBlockIdExt => ({ workchain: r.id.workchain, shard: signed(r.id.shard), seqno: r.id.seqno, root_hash: r.id.rootHash, file_hash: r.id.fileHash });
const tlZero = (): verify.TonNodeBlockIdExt => ({ workchain: -1, shard: signed(SHARD_FULL), seqno: 0, root_hash: net.chain.mcZero.rootHash, file_hash: net.chain.mcZero.fileHash });

async function ok(fn: TlObject): Promise<any> {
  const r = liteApi.decode(await adnl.query(liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(fn) })));
  if (r.kind === "liteServer.error") throw new Error(`${fn.kind}: liteServer.error ${r.code}: ${r.message}`);
  return r;
}

const shardOf = (a: Address) => net.chain.shardTips.find((t) => shardContainsAccount(t.shard, a.hash))!.shard;

/** Notes the shards after the newest masterchain block. */
const record = () => (layout[net.chain.lastMasterchain!.id.seqno] = net.chain.shardTips.map((t) => t.shard));

async function seal(n = 1): Promise<void> {
  for (let i = 0; i < n; i++) {
    await net.chain.seal();
    record();
  }
}

/** A wallet transfer in a block of its own. */
async function send(from: LocalnetSender, to: Address, value: bigint, init?: WalletContractV4["init"]): Promise<void> {
  transfers.push({ from: from.address, to, value, sentAt: net.chain.lastMasterchain!.id.seqno + 1 });
  await from.send({ to, value, init, bounce: false });
  record();
}

/** A fresh v4r2 wallet (deployed by the first transfer to it) outside `shard`, in a shard of its own at depth 3 too. */
function freshOutside(from: Address, tag: string): WalletContractV4 {
  for (let i = 0; ; i++) {
    const w = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair(SEED, `${tag}/${i}`).publicKey });
    if (w.address.hash[0]! >> 6 !== from.hash[0]! >> 6) return w;
  }
}

beforeAll(async () => {
  net = await Localnet.start({ seed: SEED, wallets: 2, shards: 4, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 } });
  layout[1] = net.chain.shardTips.map((t) => t.shard);
  const ls = net.liteservers[0]!;
  adnl = await AdnlClient.connect(ls.host, ls.port, ls.publicKey);
  await seal(4); // masterchain blocks 2..5: 2 shards, then 4
  const a = new LocalnetSender(net, net.genesis.wallets[1]!);
  const b = new LocalnetSender(net, net.genesis.wallets[2]!);
  // 4 shards: a pays a fresh wallet in another shard (deploying it); the message crosses in the next seal
  const fresh = freshOutside(a.address, "fresh");
  expect(shardOf(fresh.address)).not.toBe(shardOf(a.address));
  await send(a, fresh.address, 5n * TON, fresh.init);
  await seal();
  // split to 8: before_split blocks, then two after_split children of each
  expect(net.chain.requestSplit()).toHaveLength(4);
  await seal(3);
  // 8 shards: b pays a, and the shards merge back to 4 while the message is on its way
  const toA = b.address.hash[0]! >> 5 !== a.address.hash[0]! >> 5;
  const dest = toA ? a.address : freshOutside(b.address, "fresh-b").address;
  await send(b, dest, 2n * TON);
  expect(net.chain.requestMerge()).toHaveLength(4);
  await seal(3);
}, 120_000);

afterAll(async () => {
  adnl?.close();
  await net?.close();
});

describe("shards on the localnet", () => {
  it("splits to 4 shards in the first seals, to 8 on request, and merges back to 4", () => {
    const depths = layout.slice(1).map((shards) => shards.length);
    expect(depths.slice(0, 4)).toEqual([1, 2, 2, 4]);
    expect(depths).toContain(8);
    expect(depths.at(-1)).toBe(4);
    const kinds = net.chain.shardchain.map((b) => (b.meta.beforeSplit ? "S" : b.meta.afterSplit ? "a" : b.meta.afterMerge ? "M" : b.block.info.wantMerge ? "w" : "."));
    for (const k of ["S", "a", "M", "w"]) expect(kinds).toContain(k);
    expect(net.chain.shardchain.filter((b) => b.meta.afterMerge)).toHaveLength(4);
    expect(net.chain.shardchain.filter((b) => b.meta.afterSplit)).toHaveLength(2 + 4 + 8);
  });

  it("every shard block parses, re-serializes, chains through splits and merges, and its state_update applies", () => {
    for (const b of net.chain.shardchain) {
      const name = `0:${hex16(b.id.shard)}:${b.id.seqno}`;
      expect(b.id.fileHash, name).toEqual(createHash("sha256").update(b.boc).digest());
      const parsed = parseBlock(b.root);
      expect(blockCell(parsed).hash(), name).toEqual(b.id.rootHash);
      const info = parsed.info;
      expect(info.afterSplit, name).toBe(b.meta.afterSplit);
      expect(info.afterMerge, name).toBe(b.meta.afterMerge);
      const su = loadMerkleUpdate(b.root.refs[2]!);
      let old: Cell;
      if (b.id.seqno === 1) {
        expect(info.prevRef.type).toBe("prev_blk_info");
        old = net.chain.shardZero.root;
      } else if (info.prevRef.type === "prev_blks_info") {
        // after a merge: prev1 is the left child's block, prev2 the right's; seqno = max + 1
        const [l, r] = shardChildren(b.id.shard);
        const left = net.chain.findBlock({ workchain: 0, shard: l, seqno: info.prevRef.prev1.seqNo, rootHash: info.prevRef.prev1.rootHash, fileHash: info.prevRef.prev1.fileHash });
        const right = net.chain.findBlock({ workchain: 0, shard: r, seqno: info.prevRef.prev2.seqNo, rootHash: info.prevRef.prev2.rootHash, fileHash: info.prevRef.prev2.fileHash });
        expect(left && right, name).toBeTruthy();
        expect(info.afterMerge).toBe(true);
        expect(b.id.seqno).toBe(Math.max(left!.id.seqno, right!.id.seqno) + 1);
        for (const p of [left!, right!]) {
          expect(p.block.info.wantMerge, name).toBe(true);
          expect(info.startLt, name).toBeGreaterThan(p.endLt);
        }
        old = beginCell().storeUint(0x5f327da5, 32).storeRef(left!.stateRoot).storeRef(right!.stateRoot).endCell();
        expect(parsed.valueFlow.fromPrevBlk.coins).toBe(left!.balanceAfter + right!.balanceAfter);
      } else {
        const shard = info.afterSplit ? shardParent(b.id.shard) : b.id.shard;
        const prev = net.chain.findBlock({ workchain: 0, shard, seqno: info.prevRef.prev.seqNo, rootHash: info.prevRef.prev.rootHash, fileHash: info.prevRef.prev.fileHash });
        expect(prev, name).toBeTruthy();
        expect(b.id.seqno).toBe(prev!.id.seqno + 1);
        expect(info.startLt, name).toBeGreaterThan(prev!.endLt);
        // a split follows a before_split block, whose state says so too
        expect(prev!.meta.beforeSplit, name).toBe(info.afterSplit);
        expect(loadShardStateUnsplitHeader(prev!.stateRoot.beginParse()).beforeSplit).toBe(prev!.meta.beforeSplit);
        // after a split both children start from the parent's whole state (TON's ShardStateQ::split)
        old = prev!.stateRoot;
      }
      expect(info.endLt, name).toBeGreaterThanOrEqual(info.startLt);
      expect(su.oldHash, name).toEqual(old.hash());
      expect(applyMerkleUpdate(old, su).hash(), name).toEqual(b.stateRoot.hash());
      const state = loadShardStateUnsplitHeader(b.stateRoot.beginParse());
      expect(state.seqNo).toBe(b.id.seqno);
      expect(state.shardId.shardPfxBits).toBe(shardPrefixLength(b.id.shard));
    }
  });

  it("an after_split pair starts from the halves of its parent's balance", () => {
    for (const b of net.chain.shardchain.filter((x) => x.meta.beforeSplit)) {
      const children = net.chain.shardchain.filter((c) => c.meta.afterSplit && c.meta.prev[0]!.seqno === b.id.seqno && shardParent(c.id.shard) === b.id.shard);
      expect(children.map((c) => c.id.shard)).toEqual(shardChildren(b.id.shard));
      const from = children.map((c) => c.block.valueFlow.fromPrevBlk.coins);
      expect(from[0]! + from[1]!).toBe(b.balanceAfter);
    }
  });

  it("every masterchain block lists exactly the shards of its seal, with their flags, and is signed", () => {
    const vset = configValidatorSet(parseBlock(net.chain.masterchain[0]!.root).extra.custom!.config!.config, 34)!;
    for (const mc of net.chain.masterchain) {
      const parsed = parseBlock(mc.root);
      expect(blockCell(parsed).hash()).toEqual(mc.id.rootHash);
      const listed = shardHashesList(parsed.extra.custom!.shardHashes);
      expect(listed.map((s) => s.shard)).toEqual(layout[mc.id.seqno]);
      expect(listed.map((s) => `${s.descr.seqNo}`)).toEqual(mc.meta.shards.map((k) => `${k.seqno}`));
      for (const s of listed) {
        const b = net.chain.block({ workchain: 0, shard: s.shard, seqno: s.descr.seqNo })!;
        expect(s.descr.rootHash).toEqual(b.id.rootHash);
        expect(s.descr.fileHash).toEqual(b.id.fileHash);
        expect(s.descr.beforeSplit).toBe(b.meta.beforeSplit);
        expect(s.descr.beforeMerge).toBe(b.block.info.wantMerge);
        expect(b.mcSeqno).toBe(mc.id.seqno);
      }
      const sigs = emptyCryptoSignatures();
      mc.signatures.forEach((s, i) => sigs.set(i, { nodeIdShort: s.nodeIdShort, sign: { type: "ed25519_signature", r: s.signature.subarray(0, 32), s: s.signature.subarray(32) } }));
      expect(verifyBlockSignatures({ rootHash: mc.id.rootHash, fileHash: mc.id.fileHash }, sigs, vset).errors).toEqual([]);
    }
  });

  it("transfers between wallets of different shards arrive in the next seal with the right balances (verified account states)", async () => {
    const head = tl(net.chain.lastMasterchain!);
    for (const t of transfers) {
      const sent = net.chain.transactionsFrom(0, t.from.hash, 2n ** 63n, 100).find((x) => x.mcSeqno === t.sentAt)!;
      expect(sent, "the sender's transaction").toBeTruthy();
      const received = net.chain.transactionsFrom(0, t.to.hash, 2n ** 63n, 100).filter((x) => x.mcSeqno > t.sentAt);
      const arrival = received.map((x) => ({ x, tx: loadTransaction(x.cell.beginParse()) })).find(({ tx }) => tx.inMessage?.info.type === "internal" && tx.inMessage.info.src.equals(t.from));
      expect(arrival, "the receiver's transaction").toBeTruthy();
      expect(arrival!.x.mcSeqno).toBe(t.sentAt + 1);
      expect(arrival!.x.block.shard).not.toBe(sent.block.shard);
      const info = arrival!.tx.inMessage!.info;
      expect(info.type === "internal" && info.value.coins).toBe(t.value);
      // the balance the liteserver proves: what the receiver had before, plus the value, minus its fees
      const before = arrival!.x.mcSeqno - 1;
      const balanceAt = async (seqno: number) => {
        const id = tl(net.chain.mcBlock(seqno)!);
        const r = verify.verifyAccountState(await ok({ kind: "liteServer.getAccountState", id, account: { kind: "liteServer.accountId", workchain: 0, id: t.to.hash } }), id, { workchain: 0, id: t.to.hash });
        const s = r.account?.beginParse();
        return s?.loadBit() ? loadAccount(s).storage.balance.coins : 0n;
      };
      expect(await balanceAt(arrival!.x.mcSeqno)).toBe((await balanceAt(before)) + t.value - arrival!.tx.totalFees.coins);
      verify.verifyAccountState(await ok({ kind: "liteServer.getAccountState", id: head, account: { kind: "liteServer.accountId", workchain: 0, id: t.to.hash } }), head, { workchain: 0, id: t.to.hash });
    }
  });
});

describe("the liteserver's shard answers verify", () => {
  it("getAllShardsInfo and getShardInfo of every masterchain block", async () => {
    for (const mc of net.chain.masterchain) {
      const id = tl(mc);
      const all = verify.verifyAllShardsInfo(await ok({ kind: "liteServer.getAllShardsInfo", id }), id);
      expect(all.shards.map((s) => s.shard)).toEqual(layout[mc.id.seqno]);
      for (const s of all.shards) {
        const one = verify.verifyShardInfo(await ok({ kind: "liteServer.getShardInfo", id, workchain: 0, shard: signed(s.shard), exact: true }), id, { workchain: 0, shard: s.shard, exact: true });
        expect(one.shardBlock).toEqual(s.blockId);
      }
      // a deeper shard than any is found in the leaf that contains it (exact: false), absent with exact
      const deep = 0x1800000000000000n;
      const containing = verify.verifyShardInfo(await ok({ kind: "liteServer.getShardInfo", id, workchain: 0, shard: signed(deep), exact: false }), id, { workchain: 0, shard: deep, exact: false });
      expect(shardContainsAccount(BigInt(containing.shardBlock!.shard) & ((1n << 64n) - 1n), Buffer.from("18".padEnd(64, "0"), "hex"))).toBe(true);
      const exact = verify.verifyShardInfo(await ok({ kind: "liteServer.getShardInfo", id, workchain: 0, shard: signed(deep), exact: true }), id, { workchain: 0, shard: deep, exact: true });
      expect(exact.shardBlock).toBeNull();
    }
  });

  it("getShardBlockProof and lookupBlockWithProof of every shard block, lookupBlock by seqno and lt", async () => {
    for (const b of net.chain.shardchain) {
      const id = tl(b);
      const proof = verify.verifyShardBlockProof(await ok({ kind: "liteServer.getShardBlockProof", id }), id);
      expect(proof.mcBlock.seqno).toBe(b.mcSeqno);
      const short = { kind: "tonNode.blockId", workchain: 0, shard: signed(b.id.shard), seqno: b.id.seqno };
      const mcId = tl(net.chain.mcBlock(b.mcSeqno)!);
      const r = await ok({ kind: "liteServer.lookupBlockWithProof", mode: 1, id: short, mc_block_id: mcId });
      expect(verify.sameBlockId(r.id, id)).toBe(true);
      verify.verifyShardBlockLinks(r.shard_links, r.mc_block_id, id);
      const found = await ok({ kind: "liteServer.lookupBlock", mode: 1, id: short });
      expect(verify.sameBlockId(found.id, id)).toBe(true);
      verify.verifyBlockHeader(found, id);
      // by lt, with the shard of an account of this shard at full depth
      const byLt = await ok({ kind: "liteServer.lookupBlock", mode: 2, id: { ...short, shard: signed(b.id.shard | 1n) }, lt: b.endLt });
      expect(verify.sameBlockId(byLt.id, id)).toBe(true);
    }
  });

  it("getBlockProof from the zero state to the head", async () => {
    const p = verify.verifyPartialBlockProof(await ok({ kind: "liteServer.getBlockProof", mode: 0, known_block: tlZero() }), tlZero());
    expect(p.complete).toBe(true);
    expect(verify.sameBlockId(p.to, tl(net.chain.lastMasterchain!))).toBe(true);
  });

  it("listBlockTransactions of every shard block lists the chain's transactions, proven", async () => {
    let total = 0;
    for (const b of net.chain.shardchain) {
      const id = tl(b);
      const r = verify.verifyBlockTransactions(await ok({ kind: "liteServer.listBlockTransactions", id, mode: 7 | 32, count: 256, want_proof: true }), id, {});
      expect(r.ids.map((t) => t.hash.toString("hex")).sort()).toEqual(b.transactions.map((t) => t.hash.toString("hex")).sort());
      total += b.transactions.length;
    }
    expect(total).toBeGreaterThanOrEqual(4);
  });
});
