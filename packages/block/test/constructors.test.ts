// Every constructor, including those absent from the fixtures: storeX then loadX gives the value
// back, and loadX then storeX gives the cell back.
import { type Builder, type Cell, type Slice, Address, Dictionary, beginCell, loadTransaction } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  type BinTree,
  type BlockCreateStats,
  type BlockInfo,
  type InMsg,
  type McStateExtra,
  type MsgEnvelope,
  type OutMsg,
  type ShardDescr,
  type ValidatorSet,
  KEY_256,
  KEY_U16,
  SHARD_FULL,
  binTreeFromShards,
  binTreeShards,
  emptyCryptoSignatures,
  emptyOldMcBlocksInfo,
  emptyShardHashes,
  entryCountAug,
  keyMaxLtAug,
  loadBlkPrevInfo,
  loadBlockCreateStats,
  loadBlockInfo,
  loadBlockSignatures,
  loadInMsg,
  loadMcStateExtra,
  loadMsgEnvelope,
  loadOutMsg,
  loadShardDescr,
  loadValidatorSet,
  loadValueFlow,
  makeMerkleUpdate,
  merkleUpdateCell,
  loadMerkleUpdate,
  shardIdentOf,
  storeBlkPrevInfo,
  storeBlockCreateStats,
  storeBlockInfo,
  storeBlockSignatures,
  storeInMsg,
  storeMcStateExtra,
  storeMsgEnvelope,
  storeOutMsg,
  storeShardDescr,
  storeValidatorSet,
  storeValueFlow,
  validatorDescrValue,
  loadBlock,
  emptyAugDict,
  creatorStatsValue,
} from "../src/index.js";
import { fixtureRoot } from "./fixtures.js";

/** Plain data for comparison: dictionaries as sorted entries, cells as hashes, addresses as raw strings. */
function plain(v: unknown): unknown {
  if (v instanceof Dictionary) {
    return [...v].map(([k, x]) => [String(k), plain(x)]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1));
  }
  if (v instanceof Address) return v.toRawString();
  if (Buffer.isBuffer(v)) return v.toString("hex");
  if (v && typeof v === "object" && "hash" in v && "bits" in v && "refs" in v) return "cell:" + (v as Cell).hash().toString("hex");
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, plain(x)]));
  return v;
}

function roundTrip<T>(value: T, store: (v: T) => (b: Builder) => void, load: (s: Slice) => T): Cell {
  const cell = beginCell().store(store(value)).endCell();
  const back = load(cell.beginParse());
  expect(plain(back)).toEqual(plain(value));
  expect(beginCell().store(store(back)).endCell().hash()).toEqual(cell.hash());
  return cell;
}

const h = (n: number) => Buffer.alloc(32, n);
const c = (n: number) => beginCell().storeUint(n, 32).endCell();
const ADDR = Address.parse("0:" + "ab".repeat(32));

const env1: MsgEnvelope = {
  type: "msg_envelope",
  curAddr: { type: "interm_addr_regular", useDestBits: 0 },
  nextAddr: { type: "interm_addr_regular", useDestBits: 96 },
  fwdFeeRemaining: 12345n,
  msg: c(1),
};
const env2: MsgEnvelope = {
  type: "msg_envelope_v2",
  curAddr: { type: "interm_addr_simple", workchainId: -1, addrPfx: 0x8000000000000000n },
  nextAddr: { type: "interm_addr_ext", workchainId: 7, addrPfx: 0x1234n },
  fwdFeeRemaining: 0n,
  msg: c(2),
  emittedLt: 777n,
  metadata: { depth: 3, initiatorAddr: ADDR, initiatorLt: 999n },
};
const env2bare: MsgEnvelope = { ...env2, emittedLt: null, metadata: null };

const IN_MSGS: InMsg[] = [
  { type: "msg_import_ext", msg: c(10), transaction: c(11) },
  { type: "msg_import_ihr", msg: c(10), transaction: c(11), ihrFee: 5n, proofCreated: c(12) },
  { type: "msg_import_imm", inMsg: env1, transaction: c(11), fwdFee: 6n },
  { type: "msg_import_fin", inMsg: env2, transaction: c(11), fwdFee: 7n },
  { type: "msg_import_tr", inMsg: env1, outMsg: env2bare, transitFee: 8n },
  { type: "msg_discard_fin", inMsg: env1, transactionId: 123n, fwdFee: 9n },
  { type: "msg_discard_tr", inMsg: env2, transactionId: 124n, fwdFee: 10n, proofDelivered: c(13) },
  { type: "msg_import_deferred_fin", inMsg: env2, transaction: c(11), fwdFee: 11n },
  { type: "msg_import_deferred_tr", inMsg: env2, outMsg: env2bare },
];

const OUT_MSGS: OutMsg[] = [
  { type: "msg_export_ext", msg: c(20), transaction: c(21) },
  { type: "msg_export_imm", outMsg: env1, transaction: c(21), reimport: IN_MSGS[2] },
  { type: "msg_export_new", outMsg: env2, transaction: c(21) },
  { type: "msg_export_tr", outMsg: env1, imported: IN_MSGS[4] },
  { type: "msg_export_deq", outMsg: env1, importBlockLt: (1n << 63n) - 1n },
  { type: "msg_export_deq_short", msgEnvHash: h(5), nextWorkchain: -1, nextAddrPfx: 0xfedcba9876543210n, importBlockLt: 42n },
  { type: "msg_export_tr_req", outMsg: env2, imported: IN_MSGS[4] },
  { type: "msg_export_deq_imm", outMsg: env1, reimport: IN_MSGS[3] },
  { type: "msg_export_new_defer", outMsg: env2, transaction: c(21) },
  { type: "msg_export_deferred_tr", outMsg: env2, imported: IN_MSGS[8] },
];

describe("InMsg / OutMsg / MsgEnvelope constructors", () => {
  it("MsgEnvelope v1 / v2", () => {
    for (const e of [env1, env2, env2bare]) roundTrip(e, storeMsgEnvelope, loadMsgEnvelope);
    expect(() => beginCell().store(storeMsgEnvelope({ ...env1, emittedLt: 1n }))).toThrow();
  });

  for (const m of IN_MSGS) it(`InMsg ${m.type}`, () => void roundTrip(m, storeInMsg, loadInMsg));
  for (const m of OUT_MSGS) it(`OutMsg ${m.type}`, () => void roundTrip(m, storeOutMsg, loadOutMsg));

  it("tags are the schema's", () => {
    const bitsOf = (cell: Cell, n: number) => cell.beginParse().loadUint(n).toString(2).padStart(n, "0");
    const inTag = (m: InMsg, n: number) => bitsOf(beginCell().store(storeInMsg(m)).endCell(), n);
    const outTag = (m: OutMsg, n: number) => bitsOf(beginCell().store(storeOutMsg(m)).endCell(), n);
    expect(inTag(IN_MSGS[7], 5)).toBe("00100");
    expect(inTag(IN_MSGS[8], 5)).toBe("00101");
    expect(inTag(IN_MSGS[6], 3)).toBe("111");
    expect(outTag(OUT_MSGS[4], 4)).toBe("1100");
    expect(outTag(OUT_MSGS[5], 4)).toBe("1101");
    expect(outTag(OUT_MSGS[8], 5)).toBe("10100");
    expect(outTag(OUT_MSGS[9], 5)).toBe("10101");
    expect(outTag(OUT_MSGS[7], 3)).toBe("100");
  });
});

describe("BlockInfo variants", () => {
  const base = loadBlock(fixtureRoot("blocks/mainnet_0_a000000000000000_54302208.boc").beginParse()).info;
  const ref = (seqNo: number) => ({ endLt: 1000n + BigInt(seqNo), seqNo, rootHash: h(seqNo & 0xff), fileHash: h((seqNo + 1) & 0xff) });

  it("after_merge (prev_blks_info), vert_seqno_incr (prev_vert_ref), before/after split, no gen_software", () => {
    const merged: BlockInfo = {
      ...base,
      afterMerge: true,
      prevRef: { type: "prev_blks_info", prev1: ref(10), prev2: ref(11) },
      vertSeqnoIncr: true,
      vertSeqNo: 2,
      prevVertRef: { type: "prev_blk_info", prev: ref(9) },
      beforeSplit: true,
      wantMerge: true,
      flags: 0,
      genSoftware: undefined,
    };
    delete merged.genSoftware;
    const cell = roundTrip(merged, storeBlockInfo, loadBlockInfo);
    expect(cell.refs.length).toBe(3); // master_ref, prev_ref, prev_vert_ref
    expect(cell.refs[1].refs.length).toBe(2); // prev_blks_info: two ^ExtBlkRef
  });

  it("masterchain info has no master_ref", () => {
    const mc: BlockInfo = { ...base, notMaster: false, shard: shardIdentOf(-1, SHARD_FULL) };
    delete mc.masterRef;
    const cell = roundTrip(mc, storeBlockInfo, loadBlockInfo);
    expect(cell.refs.length).toBe(1);
  });

  it("inconsistent flags are refused by the storer", () => {
    expect(() => beginCell().store(storeBlockInfo({ ...base, afterMerge: true }))).toThrow(/prev_blks_info/);
    expect(() => beginCell().store(storeBlockInfo({ ...base, flags: 0 }))).toThrow(/gen_software/);
    expect(() => beginCell().store(storeBlockInfo({ ...base, notMaster: false }))).toThrow(/master_ref/);
    expect(() => beginCell().store(storeBlockInfo({ ...base, vertSeqnoIncr: true }))).toThrow(/prev_vert_ref/);
  });

  it("BlkPrevInfo 0 / 1", () => {
    const p0 = { type: "prev_blk_info" as const, prev: ref(1) };
    const p1 = { type: "prev_blks_info" as const, prev1: ref(2), prev2: ref(3) };
    roundTrip(p0, storeBlkPrevInfo, (s) => loadBlkPrevInfo(s, false));
    roundTrip(p1, storeBlkPrevInfo, (s) => loadBlkPrevInfo(s, true));
  });

  it("ValueFlow v1 and v2", () => {
    const cc = (n: bigint) => ({ coins: n });
    const vf = { fromPrevBlk: cc(1n), toNextBlk: cc(2n), imported: cc(3n), exported: cc(4n), feesCollected: cc(5n), feesImported: cc(6n), recovered: cc(7n), created: cc(8n), minted: cc(9n) };
    expect(roundTrip(vf, storeValueFlow, loadValueFlow).beginParse().loadUint(32)).toBe(0xb8e48dfb);
    expect(roundTrip({ ...vf, burned: cc(10n) }, storeValueFlow, loadValueFlow).beginParse().loadUint(32)).toBe(0x3ebf98b7);
  });
});

describe("ShardDescr / BinTree / McStateExtra / validators", () => {
  const descr = (seqNo: number, type: ShardDescr["type"] = "shard_descr_new"): ShardDescr => ({
    type,
    seqNo,
    regMcSeqno: 5,
    startLt: 100n,
    endLt: 200n,
    rootHash: h(1),
    fileHash: h(2),
    beforeSplit: false,
    beforeMerge: true,
    wantSplit: false,
    wantMerge: true,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 77,
    nextValidatorShard: 0x8000000000000000n,
    minRefMcSeqno: 4,
    genUtime: 1700000000,
    splitMergeAt: { type: "fsm_none" },
    feesCollected: { coins: 1n },
    fundsCreated: { coins: 2n },
  });

  it("shard_descr (inline fees) and shard_descr_new (fees in a ref), every FutureSplitMerge", () => {
    roundTrip(descr(1, "shard_descr"), storeShardDescr, loadShardDescr);
    roundTrip({ ...descr(2), splitMergeAt: { type: "fsm_split", splitUtime: 10, interval: 20 } }, storeShardDescr, loadShardDescr);
    roundTrip({ ...descr(3, "shard_descr"), splitMergeAt: { type: "fsm_merge", mergeUtime: 30, interval: 40 } }, storeShardDescr, loadShardDescr);
    expect(beginCell().store(storeShardDescr(descr(1, "shard_descr"))).endCell().refs.length).toBe(0);
    expect(beginCell().store(storeShardDescr(descr(1))).endCell().refs.length).toBe(1);
  });

  it("BinTree from shard leaves and back", () => {
    const leaves = [
      { shard: 0x2000000000000000n, leaf: descr(1) },
      { shard: 0x6000000000000000n, leaf: descr(2) },
      { shard: 0xa000000000000000n, leaf: descr(3) },
      { shard: 0xd000000000000000n, leaf: descr(4) },
      { shard: 0xf000000000000000n, leaf: descr(5) },
    ];
    const tree: BinTree<ShardDescr> = binTreeFromShards(leaves);
    expect(binTreeShards(tree)).toEqual(leaves);
    expect(binTreeFromShards([{ shard: SHARD_FULL, leaf: 1 }])).toEqual({ type: "leaf", leaf: 1 });
    expect(() => binTreeFromShards([{ shard: 0x4000000000000000n, leaf: 1 }])).toThrow();
  });

  it("ValidatorSet validators#11 (inline Hashmap) and validators_ext#12", () => {
    const list = Dictionary.empty(KEY_U16, validatorDescrValue);
    list.set(0, { type: "validator", publicKey: h(1), weight: 10n });
    list.set(1, { type: "validator_addr", publicKey: h(2), weight: 20n, adnlAddr: h(3) });
    const v11: ValidatorSet = { type: "validators", utimeSince: 1, utimeUntil: 2, total: 2, main: 1, list };
    roundTrip(v11, storeValidatorSet, loadValidatorSet);
    const v12: ValidatorSet = { ...v11, type: "validators_ext", totalWeight: 30n };
    roundTrip(v12, storeValidatorSet, loadValidatorSet);
  });

  it("BlockSignatures ordinary / simplex", () => {
    const sigs = emptyCryptoSignatures();
    sigs.set(0, { nodeIdShort: h(9), sign: { type: "ed25519_signature", r: h(1), s: h(2) } });
    sigs.set(3, { nodeIdShort: h(8), sign: { type: "chained_signature", signedCert: c(5), tempKeySignature: { r: h(3), s: h(4) } } });
    const base = { validatorListHashShort: 1, catchainSeqno: 2, sigCount: 2, sigWeight: 3n, signatures: sigs };
    roundTrip({ type: "block_signatures_ordinary" as const, ...base }, storeBlockSignatures, loadBlockSignatures);
    roundTrip({ type: "block_signatures_simplex" as const, ...base, sessionId: h(7), slot: 5, candidateData: c(6) }, storeBlockSignatures, loadBlockSignatures);
  });

  it("McStateExtra with OldMcBlocksInfo (KeyMaxLt extras) and block_create_stats_ext (count extras)", () => {
    const prevBlocks = emptyOldMcBlocksInfo();
    for (let i = 1; i <= 9; i++) {
      prevBlocks.set(i * 3, {
        extra: { key: i % 4 === 0, maxEndLt: BigInt(i * 1000) },
        value: { key: i % 4 === 0, blkRef: { endLt: BigInt(i * 1000), seqNo: i * 3, rootHash: h(i), fileHash: h(i + 1) } },
      });
    }
    const counters = emptyAugDict(KEY_256, creatorStatsValue, entryCountAug);
    const cnt = { lastUpdated: 5, total: 6n, cnt2048: 7n, cnt65536: 8n };
    for (let i = 0; i < 5; i++) counters.set(BigInt(i) << 250n, { extra: 1, value: { mcBlocks: cnt, shardBlocks: { ...cnt, total: BigInt(i) } } });
    const stats: BlockCreateStats = { type: "block_create_stats_ext", counters };
    roundTrip(stats, storeBlockCreateStats, loadBlockCreateStats);
    const config = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
    config.set(-999, c(1));
    config.set(34, c(2));
    const shardHashes = emptyShardHashes();
    shardHashes.set(0, binTreeFromShards([{ shard: 0x4000000000000000n, leaf: descr(1) }, { shard: 0xc000000000000000n, leaf: descr(2) }]));
    const st: McStateExtra = {
      shardHashes,
      config: { configAddr: h(0x55), config },
      flags: 1,
      validatorInfo: { validatorListHashShort: 1, catchainSeqno: 2, nxCcUpdated: true },
      prevBlocks,
      afterKeyBlock: false,
      lastKeyBlock: { endLt: 1n, seqNo: 2, rootHash: h(3), fileHash: h(4) },
      blockCreateStats: stats,
      globalBalance: { coins: 5000000000n },
    };
    const cell = roundTrip(st, storeMcStateExtra, loadMcStateExtra);
    // root extra of prev_blocks: key = any key block, max_end_lt = max
    const r = cell.refs[cell.refs.length - 1].beginParse();
    r.skip(16 + 65);
    r.loadMaybeRef();
    expect(keyMaxLtAug.load(r)).toEqual({ key: true, maxEndLt: 9000n });
    const stats2 = loadBlockCreateStats(beginCell().store(storeBlockCreateStats(stats)).endCell().beginParse());
    expect(stats2.type).toBe("block_create_stats_ext");
  });

  it("MerkleUpdate built from two trees is a valid exotic cell", () => {
    const oldRoot = beginCell().storeUint(1, 8).storeRef(c(1)).endCell();
    const newRoot = beginCell().storeUint(2, 8).storeRef(c(2)).endCell();
    const mu = makeMerkleUpdate(oldRoot, newRoot);
    const cell = merkleUpdateCell(mu);
    expect(cell.isExotic).toBe(true);
    expect(loadMerkleUpdate(cell)).toEqual(mu);
    expect(() => merkleUpdateCell({ ...mu, oldHash: h(0) })).toThrow();
  });

  it("transactions are stored by their raw cell", () => {
    const tx = loadTransaction(fixtureRoot("transactions/wallet_v4r2_0_0116acf81149_lt76734069000020.tx.boc").beginParse());
    const ab = loadBlock(fixtureRoot("blocks/mainnet_0_8000000000000000_71398501.boc").beginParse()).extra.accountBlocks;
    const entry = ab.get(tx.address)!.value.transactions.get(tx.lt)!;
    expect(entry.value.raw.hash()).toEqual(tx.raw.hash());
  });
});
