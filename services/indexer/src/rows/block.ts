// A parsed block → BlockRow.
import { type Block, type BlkPrevInfo, type ExtBlkRef, shardChild, shardIdOf, shardParent, shardToSigned } from "@tongate/block";
import type { BlockRow, PrevBlockRef } from "./types.js";
import { b64 } from "./util.js";

export interface BlockRowContext {
  /** masterchain seqno that commits the block (ignored for a masterchain block: its own seqno) */
  mcSeqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
  txCount: number;
}

export function signedShard(shard: bigint): string {
  return shardToSigned(shard).toString();
}

function prevRef(workchain: number, shard: bigint, r: ExtBlkRef): PrevBlockRef {
  return { workchain, shard: signedShard(shard), seqno: r.seqNo, root_hash: b64(r.rootHash), file_hash: b64(r.fileHash), end_lt: r.endLt.toString() };
}

/** The prev blocks with their shards: a merge has the two children, a split the parent, otherwise the same shard. */
export function prevBlocks(workchain: number, shard: bigint, prev: BlkPrevInfo, afterSplit: boolean): PrevBlockRef[] {
  if (prev.type === "prev_blks_info") return [prevRef(workchain, shardChild(shard, false), prev.prev1), prevRef(workchain, shardChild(shard, true), prev.prev2)];
  return [prevRef(workchain, afterSplit ? shardParent(shard) : shard, prev.prev)];
}

/** What blockRow reads of a block (a parsed Block, or ./block-view.ts's BlockView). */
export type BlockHeaderLike = Pick<Block, "globalId" | "info"> & { extra: Pick<Block["extra"], "randSeed" | "createdBy"> };

export function blockRow(block: BlockHeaderLike, ctx: BlockRowContext): BlockRow {
  const info = block.info;
  const workchain = info.shard.workchainId;
  const shard = shardIdOf(info.shard);
  return {
    workchain,
    shard: signedShard(shard),
    seqno: info.seqNo,
    root_hash: b64(ctx.rootHash),
    file_hash: b64(ctx.fileHash),
    mc_seqno: info.notMaster ? ctx.mcSeqno : info.seqNo,
    global_id: block.globalId,
    version: info.version,
    after_merge: info.afterMerge,
    before_split: info.beforeSplit,
    after_split: info.afterSplit,
    want_split: info.wantSplit,
    want_merge: info.wantMerge,
    key_block: info.keyBlock,
    vert_seqno_incr: info.vertSeqnoIncr,
    flags: info.flags,
    gen_utime: info.genUtime,
    start_lt: info.startLt.toString(),
    end_lt: info.endLt.toString(),
    validator_list_hash_short: info.genValidatorListHashShort,
    gen_catchain_seqno: info.genCatchainSeqno,
    min_ref_mc_seqno: info.minRefMcSeqno,
    prev_key_block_seqno: info.prevKeyBlockSeqno,
    vert_seqno: info.vertSeqNo,
    master_ref_seqno: info.masterRef ? info.masterRef.master.seqNo : null,
    prev_blocks: prevBlocks(workchain, shard, info.prevRef, info.afterSplit),
    tx_count: ctx.txCount,
    rand_seed: b64(block.extra.randSeed),
    created_by: b64(block.extra.createdBy),
  };
}
