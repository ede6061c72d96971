// Block, BlockInfo, ValueFlow, BlockExtra.
import {
  type Builder,
  type Cell,
  type CurrencyCollection,
  type Slice,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from "@ton/core";
import { type ShardAccountBlocks, loadShardAccountBlocks, storeShardAccountBlocks } from "./accountblocks.js";
import {
  type BlkMasterInfo,
  type BlkPrevInfo,
  type GlobalVersion,
  loadBlkMasterInfo,
  loadBlkPrevInfo,
  loadGlobalVersion,
  storeBits256,
  storeBlkMasterInfo,
  storeBlkPrevInfo,
  storeGlobalVersion,
} from "./blockid.js";
import { type McBlockExtra, loadMcBlockExtra, storeMcBlockExtra } from "./mcblock.js";
import { type MerkleUpdate, loadMerkleUpdate, merkleUpdateCell } from "./merkle.js";
import { type InMsgDescr, type OutMsgDescr, loadInMsgDescr, loadOutMsgDescr, storeInMsgDescr, storeOutMsgDescr } from "./messages.js";
import { type ShardIdent, loadShardIdent, storeShardIdent } from "./shard.js";

// ---------------------------------------------------------------------------------------------
// BlockInfo

/**
 * block_info#9bc7a987 (every field). The (## 1) flags not_master / after_merge / before_split /
 * after_split / vert_seqno_incr are booleans here. Optional parts follow the flags:
 * genSoftware iff flags & 1, masterRef iff notMaster, prevRef is prev_blks_info iff afterMerge,
 * prevVertRef iff vertSeqnoIncr.
 */
export interface BlockInfo {
  version: number;
  notMaster: boolean;
  afterMerge: boolean;
  beforeSplit: boolean;
  afterSplit: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  keyBlock: boolean;
  vertSeqnoIncr: boolean;
  flags: number;
  seqNo: number;
  vertSeqNo: number;
  shard: ShardIdent;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  genValidatorListHashShort: number;
  genCatchainSeqno: number;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  genSoftware?: GlobalVersion;
  masterRef?: BlkMasterInfo;
  prevRef: BlkPrevInfo;
  prevVertRef?: BlkPrevInfo;
}

export function loadBlockInfo(s: Slice): BlockInfo {
  const tag = s.loadUint(32);
  if (tag !== 0x9bc7a987) throw new Error(`BlockInfo: bad tag 0x${tag.toString(16)}`);
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const keyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  if (flags > 1) throw new Error(`BlockInfo: flags ${flags} > 1`);
  const seqNo = s.loadUint(32);
  const vertSeqNo = s.loadUint(32);
  if (vertSeqNo < (vertSeqnoIncr ? 1 : 0)) throw new Error("BlockInfo: vert_seq_no < vert_seqno_incr");
  if (seqNo < 1) throw new Error("BlockInfo: seq_no must be >= 1");
  const shard = loadShardIdent(s);
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const genValidatorListHashShort = s.loadUint(32);
  const genCatchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  const info: BlockInfo = {
    version,
    notMaster,
    afterMerge,
    beforeSplit,
    afterSplit,
    wantSplit,
    wantMerge,
    keyBlock,
    vertSeqnoIncr,
    flags,
    seqNo,
    vertSeqNo,
    shard,
    genUtime,
    startLt,
    endLt,
    genValidatorListHashShort,
    genCatchainSeqno,
    minRefMcSeqno,
    prevKeyBlockSeqno,
    prevRef: undefined as unknown as BlkPrevInfo,
  };
  if (flags & 1) info.genSoftware = loadGlobalVersion(s);
  if (notMaster) info.masterRef = loadBlkMasterInfo(s.loadRef().beginParse());
  info.prevRef = loadBlkPrevInfo(s.loadRef().beginParse(), afterMerge);
  if (vertSeqnoIncr) info.prevVertRef = loadBlkPrevInfo(s.loadRef().beginParse(), false);
  return info;
}

export function storeBlockInfo(src: BlockInfo) {
  return (b: Builder): void => {
    if (src.flags < 0 || src.flags > 1) throw new Error("BlockInfo: flags must be 0 or 1");
    if (((src.flags & 1) === 1) !== (src.genSoftware !== undefined)) throw new Error("BlockInfo: gen_software must be present iff flags & 1");
    if (src.notMaster !== (src.masterRef !== undefined)) throw new Error("BlockInfo: master_ref must be present iff not_master");
    if (src.afterMerge !== (src.prevRef.type === "prev_blks_info")) throw new Error("BlockInfo: prev_ref must be prev_blks_info iff after_merge");
    if (src.vertSeqnoIncr !== (src.prevVertRef !== undefined)) throw new Error("BlockInfo: prev_vert_ref must be present iff vert_seqno_incr");
    if (src.prevVertRef && src.prevVertRef.type !== "prev_blk_info") throw new Error("BlockInfo: prev_vert_ref is BlkPrevInfo 0");
    if (src.vertSeqNo < (src.vertSeqnoIncr ? 1 : 0)) throw new Error("BlockInfo: vert_seq_no < vert_seqno_incr");
    b.storeUint(0x9bc7a987, 32);
    b.storeUint(src.version, 32);
    b.storeBit(src.notMaster).storeBit(src.afterMerge).storeBit(src.beforeSplit).storeBit(src.afterSplit);
    b.storeBit(src.wantSplit).storeBit(src.wantMerge).storeBit(src.keyBlock).storeBit(src.vertSeqnoIncr);
    b.storeUint(src.flags, 8);
    b.storeUint(src.seqNo, 32).storeUint(src.vertSeqNo, 32);
    b.store(storeShardIdent(src.shard));
    b.storeUint(src.genUtime, 32);
    b.storeUint(src.startLt, 64).storeUint(src.endLt, 64);
    b.storeUint(src.genValidatorListHashShort, 32).storeUint(src.genCatchainSeqno, 32);
    b.storeUint(src.minRefMcSeqno, 32).storeUint(src.prevKeyBlockSeqno, 32);
    if (src.genSoftware) b.store(storeGlobalVersion(src.genSoftware));
    if (src.masterRef) b.storeRef(beginCell().store(storeBlkMasterInfo(src.masterRef)).endCell());
    b.storeRef(beginCell().store(storeBlkPrevInfo(src.prevRef)).endCell());
    if (src.prevVertRef) b.storeRef(beginCell().store(storeBlkPrevInfo(src.prevVertRef)).endCell());
  };
}

// ---------------------------------------------------------------------------------------------
// ValueFlow

/** value_flow#b8e48dfb, or value_flow_v2#3ebf98b7 when `burned` is present. */
export interface ValueFlow {
  fromPrevBlk: CurrencyCollection;
  toNextBlk: CurrencyCollection;
  imported: CurrencyCollection;
  exported: CurrencyCollection;
  feesCollected: CurrencyCollection;
  /** value_flow_v2 only. */
  burned?: CurrencyCollection;
  feesImported: CurrencyCollection;
  recovered: CurrencyCollection;
  created: CurrencyCollection;
  minted: CurrencyCollection;
}

export function loadValueFlow(s: Slice): ValueFlow {
  const tag = s.loadUint(32);
  if (tag !== 0xb8e48dfb && tag !== 0x3ebf98b7) throw new Error(`ValueFlow: bad tag 0x${tag.toString(16)}`);
  const r1 = s.loadRef().beginParse();
  const fromPrevBlk = loadCurrencyCollection(r1);
  const toNextBlk = loadCurrencyCollection(r1);
  const imported = loadCurrencyCollection(r1);
  const exported = loadCurrencyCollection(r1);
  r1.endParse();
  const feesCollected = loadCurrencyCollection(s);
  const burned = tag === 0x3ebf98b7 ? loadCurrencyCollection(s) : undefined;
  const r2 = s.loadRef().beginParse();
  const feesImported = loadCurrencyCollection(r2);
  const recovered = loadCurrencyCollection(r2);
  const created = loadCurrencyCollection(r2);
  const minted = loadCurrencyCollection(r2);
  r2.endParse();
  const vf: ValueFlow = { fromPrevBlk, toNextBlk, imported, exported, feesCollected, feesImported, recovered, created, minted };
  if (burned) vf.burned = burned;
  return vf;
}

export function storeValueFlow(src: ValueFlow) {
  return (b: Builder): void => {
    const cc = storeCurrencyCollection;
    b.storeUint(src.burned ? 0x3ebf98b7 : 0xb8e48dfb, 32);
    b.storeRef(beginCell().store(cc(src.fromPrevBlk)).store(cc(src.toNextBlk)).store(cc(src.imported)).store(cc(src.exported)).endCell());
    b.store(cc(src.feesCollected));
    if (src.burned) b.store(cc(src.burned));
    b.storeRef(beginCell().store(cc(src.feesImported)).store(cc(src.recovered)).store(cc(src.created)).store(cc(src.minted)).endCell());
  };
}

// ---------------------------------------------------------------------------------------------
// BlockExtra

/**
 * block_extra#4a33f6fd in_msg_descr:^InMsgDescr out_msg_descr:^OutMsgDescr
 *   account_blocks:^ShardAccountBlocks rand_seed:bits256 created_by:bits256
 *   custom:(Maybe ^McBlockExtra) = BlockExtra.
 */
export interface BlockExtra {
  inMsgDescr: InMsgDescr;
  outMsgDescr: OutMsgDescr;
  accountBlocks: ShardAccountBlocks;
  randSeed: Buffer;
  createdBy: Buffer;
  custom: McBlockExtra | null;
}

export function loadBlockExtra(s: Slice): BlockExtra {
  const tag = s.loadUint(32);
  if (tag !== 0x4a33f6fd) throw new Error(`BlockExtra: bad tag 0x${tag.toString(16)}`);
  const inMsgDescr = loadInMsgDescr(s.loadRef().beginParse());
  const outMsgDescr = loadOutMsgDescr(s.loadRef().beginParse());
  const accountBlocks = loadShardAccountBlocks(s.loadRef().beginParse());
  const randSeed = s.loadBuffer(32);
  const createdBy = s.loadBuffer(32);
  const c = s.loadMaybeRef();
  return { inMsgDescr, outMsgDescr, accountBlocks, randSeed, createdBy, custom: c ? loadMcBlockExtra(c.beginParse()) : null };
}

export function storeBlockExtra(src: BlockExtra) {
  return (b: Builder): void => {
    b.storeUint(0x4a33f6fd, 32);
    b.storeRef(beginCell().store(storeInMsgDescr(src.inMsgDescr)).endCell());
    b.storeRef(beginCell().store(storeOutMsgDescr(src.outMsgDescr)).endCell());
    b.storeRef(beginCell().store(storeShardAccountBlocks(src.accountBlocks)).endCell());
    storeBits256(b, src.randSeed, "BlockExtra.rand_seed");
    storeBits256(b, src.createdBy, "BlockExtra.created_by");
    b.storeMaybeRef(src.custom ? beginCell().store(storeMcBlockExtra(src.custom)).endCell() : null);
  };
}

// ---------------------------------------------------------------------------------------------
// Block

/**
 * block#11ef55aa global_id:int32 info:^BlockInfo value_flow:^ValueFlow
 *   state_update:^(MERKLE_UPDATE ShardState) extra:^BlockExtra = Block.
 */
export interface Block {
  globalId: number;
  info: BlockInfo;
  valueFlow: ValueFlow;
  stateUpdate: MerkleUpdate;
  extra: BlockExtra;
}

export function loadBlock(s: Slice): Block {
  const tag = s.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  const info = loadBlockInfo(s.loadRef().beginParse());
  const valueFlow = loadValueFlow(s.loadRef().beginParse());
  const stateUpdate = loadMerkleUpdate(s.loadRef());
  const extra = loadBlockExtra(s.loadRef().beginParse());
  return { globalId, info, valueFlow, stateUpdate, extra };
}

export function storeBlock(src: Block) {
  return (b: Builder): void => {
    b.storeUint(0x11ef55aa, 32);
    b.storeInt(src.globalId, 32);
    b.storeRef(beginCell().store(storeBlockInfo(src.info)).endCell());
    b.storeRef(beginCell().store(storeValueFlow(src.valueFlow)).endCell());
    b.storeRef(merkleUpdateCell(src.stateUpdate));
    b.storeRef(beginCell().store(storeBlockExtra(src.extra)).endCell());
  };
}

/** Block header only: global_id and BlockInfo (enough for a Merkle-proof'd block whose other refs are pruned). */
export interface BlockHeader {
  globalId: number;
  info: BlockInfo;
}

export function loadBlockHeader(s: Slice): BlockHeader {
  const tag = s.loadUint(32);
  if (tag !== 0x11ef55aa) throw new Error(`Block: bad tag 0x${tag.toString(16)}`);
  const globalId = s.loadInt(32);
  return { globalId, info: loadBlockInfo(s.loadRef().beginParse()) };
}

/** Convenience: parse a whole block from its root cell. */
export function parseBlock(root: Cell): Block {
  return loadBlock(root.beginParse());
}

/** Convenience: the block's root cell (its hash is the block's root_hash). */
export function blockCell(src: Block): Cell {
  return beginCell().store(storeBlock(src)).endCell();
}
