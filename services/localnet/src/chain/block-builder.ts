// Assembles a real TL-B Block (block.tlb) from a collation: BlockInfo, ValueFlow,
// the state_update MerkleUpdate, and BlockExtra with InMsgDescr, OutMsgDescr and
// ShardAccountBlocks (augmented dictionaries with their fee/value extras), plus
// McBlockExtra on the masterchain.
import { createHash } from "node:crypto";
import { Cell, type CurrencyCollection, type Transaction } from "@ton/core";
import {
  blockCell,
  diffMerkleUpdate,
  emptyInMsgDescr,
  emptyOutMsgDescr,
  emptyShardAccountBlocks,
  hashKey,
  inMsgImportFees,
  makeAccountBlock,
  accountBlockFees,
  outMsgExportValue,
  shardIdentOf,
  zeroCurrencyCollection,
  type Block,
  type BlockInfo,
  type ExtBlkRef,
  type GlobalVersion,
  type InMsg,
  type McBlockExtra,
  type MsgEnvelope,
  type OutMsg,
  type ValueFlow,
} from "@tongate/block";
import { inMessageCell, outMessageCells, queued, type CollatedTransaction } from "../collator.js";
import type { BlockIdExt } from "./block-record.js";

export type { BlockIdExt };

/** Split and merge flags of a shard block (BlockInfo). */
export interface SplitMergeFlags {
  beforeSplit: boolean;
  afterSplit: boolean;
  afterMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
}

export interface BlockParts {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  /** One previous block, or two after a merge (prev_blks_info). */
  prev: ExtBlkRef | [ExtBlkRef, ExtBlkRef];
  splitMerge?: SplitMergeFlags;
  /** The masterchain block a shard block refers to. */
  masterRef?: ExtBlkRef;
  genSoftware: GlobalVersion;
  minRefMcSeqno: number;
  prevKeyBlockSeqno: number;
  keyBlock: boolean;
  validatorListHashShort: number;
  catchainSeqno: number;
  oldState: Cell;
  newState: Cell;
  /** Total balance of the shard's accounts before and after the block. */
  balanceBefore: bigint;
  balanceAfter: bigint;
  transactions: CollatedTransaction[];
  randSeed: Buffer;
  createdBy: Buffer;
  mcExtra?: McBlockExtra;
}

export interface BuiltBlock {
  id: BlockIdExt;
  root: Cell;
  boc: Buffer;
  block: Block;
}

const coins = (c: bigint): CurrencyCollection => ({ coins: c });

const envelope = (msg: Cell, fwdFee: bigint): MsgEnvelope => ({
  type: "msg_envelope",
  curAddr: { type: "interm_addr_regular", useDestBits: 0 },
  nextAddr: { type: "interm_addr_regular", useDestBits: 96 },
  fwdFeeRemaining: fwdFee,
  msg,
});

function fwdFeeOf(msg: Cell): bigint {
  const info = queued(msg).message.info;
  return info.type === "internal" ? info.forwardFee : 0n;
}

export function buildBlock(p: BlockParts): BuiltBlock {
  const inMsgDescr = emptyInMsgDescr();
  const outMsgDescr = emptyOutMsgDescr();
  const accountBlocks = emptyShardAccountBlocks();

  // Which transaction consumed each message, to tell messages delivered inside this block.
  const consumer = new Map<string, CollatedTransaction>();
  for (const t of p.transactions) {
    const m = inMessageCell(t.cell);
    if (m) consumer.set(m.hash().toString("hex"), t);
  }
  const emittedHere = new Set<string>();
  for (const t of p.transactions) for (const m of outMessageCells(t.cell)) emittedHere.add(m.hash().toString("hex"));

  const inMsgFor = new Map<string, InMsg>();
  for (const t of p.transactions) {
    const m = inMessageCell(t.cell);
    if (!m) continue;
    const h = m.hash().toString("hex");
    const fwd = fwdFeeOf(m);
    const entry: InMsg =
      t.inMsg?.message.info.type === "external-in"
        ? { type: "msg_import_ext", msg: m, transaction: t.cell }
        : emittedHere.has(h)
          ? { type: "msg_import_imm", inMsg: envelope(m, fwd), transaction: t.cell, fwdFee: fwd }
          : { type: "msg_import_fin", inMsg: envelope(m, fwd), transaction: t.cell, fwdFee: fwd };
    inMsgFor.set(h, entry);
    inMsgDescr.set(hashKey(m.hash()), { extra: inMsgImportFees(entry), value: entry });
  }

  let exported = 0n;
  for (const t of p.transactions) {
    for (const m of outMessageCells(t.cell)) {
      const h = m.hash().toString("hex");
      const info = queued(m).message.info;
      let entry: OutMsg;
      if (info.type === "external-out") entry = { type: "msg_export_ext", msg: m, transaction: t.cell };
      else {
        const fwd = info.type === "internal" ? info.forwardFee : 0n;
        entry = consumer.has(h)
          ? { type: "msg_export_imm", outMsg: envelope(m, fwd), transaction: t.cell, reimport: inMsgFor.get(h)! }
          : { type: "msg_export_new", outMsg: envelope(m, fwd), transaction: t.cell };
      }
      const value = outMsgExportValue(entry);
      exported += value.coins;
      outMsgDescr.set(hashKey(m.hash()), { extra: value, value: entry });
    }
  }

  const byAccount = new Map<string, CollatedTransaction[]>();
  for (const t of p.transactions) {
    const k = t.account.hash.toString("hex");
    byAccount.set(k, [...(byAccount.get(k) ?? []), t]);
  }
  let fees = 0n;
  let imported = 0n;
  for (const [k, txs] of byAccount) {
    const list: Transaction[] = txs.map((t) => t.transaction).sort((a, b) => (a.lt < b.lt ? -1 : 1));
    const ab = makeAccountBlock(Buffer.from(k, "hex"), list, {
      oldHash: list[0]!.stateUpdate.oldHash,
      newHash: list[list.length - 1]!.stateUpdate.newHash,
    });
    const abFees = accountBlockFees(ab);
    fees += abFees.coins;
    accountBlocks.set(BigInt("0x" + k), { extra: abFees, value: ab });
  }
  for (const [, e] of inMsgDescr) if (e.value.type === "msg_import_fin") imported += e.extra.valueImported.coins;

  const valueFlow: ValueFlow = {
    fromPrevBlk: coins(p.balanceBefore),
    toNextBlk: coins(p.balanceAfter),
    imported: coins(imported),
    exported: coins(exported),
    feesCollected: coins(fees),
    burned: zeroCurrencyCollection(),
    feesImported: zeroCurrencyCollection(),
    recovered: zeroCurrencyCollection(),
    created: zeroCurrencyCollection(),
    minted: zeroCurrencyCollection(),
  };

  const info: BlockInfo = {
    version: 0,
    notMaster: p.workchain !== -1,
    afterMerge: p.splitMerge?.afterMerge ?? false,
    beforeSplit: p.splitMerge?.beforeSplit ?? false,
    afterSplit: p.splitMerge?.afterSplit ?? false,
    wantSplit: p.splitMerge?.wantSplit ?? false,
    wantMerge: p.splitMerge?.wantMerge ?? false,
    keyBlock: p.keyBlock,
    vertSeqnoIncr: false,
    flags: 1,
    seqNo: p.seqno,
    vertSeqNo: 0,
    shard: shardIdentOf(p.workchain, p.shard),
    genUtime: p.genUtime,
    startLt: p.startLt,
    endLt: p.endLt,
    genValidatorListHashShort: p.validatorListHashShort,
    genCatchainSeqno: p.catchainSeqno,
    minRefMcSeqno: p.minRefMcSeqno,
    prevKeyBlockSeqno: p.prevKeyBlockSeqno,
    genSoftware: p.genSoftware,
    masterRef: p.workchain !== -1 ? { master: p.masterRef! } : undefined,
    prevRef: Array.isArray(p.prev) ? { type: "prev_blks_info", prev1: p.prev[0], prev2: p.prev[1] } : { type: "prev_blk_info", prev: p.prev },
  };

  const block: Block = {
    globalId: p.globalId,
    info,
    valueFlow,
    stateUpdate: diffMerkleUpdate(p.oldState, p.newState),
    extra: { inMsgDescr, outMsgDescr, accountBlocks, randSeed: p.randSeed, createdBy: p.createdBy, custom: p.mcExtra ?? null },
  };
  const root = blockCell(block);
  const boc = root.toBoc({ idx: false, crc32: true });
  return {
    id: { workchain: p.workchain, shard: p.shard, seqno: p.seqno, rootHash: root.hash(), fileHash: createHash("sha256").update(boc).digest() },
    root,
    boc,
    block,
  };
}
