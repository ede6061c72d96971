// A masterchain block's shard tops (McBlockExtra.shard_hashes): the shard blocks it commits, for
// masterchainBlockShardState and as the follow-chain loop's targets (walk `prev` from each top back
// to the shard blocks already indexed).
import { type Block, shardHashesList } from "@tongate/block";
import { signedShard } from "./block.js";
import { b64 } from "./util.js";

export interface ShardTopRow {
  mc_seqno: number;
  workchain: number;
  /** signed int64, decimal string */
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
}

/** The shard tops a masterchain block commits, ordered by (workchain, shard); [] for a shard block. */
export function masterchainShards(block: Pick<Block, "info"> & { extra: Pick<Block["extra"], "custom"> }): ShardTopRow[] {
  const custom = block.extra.custom;
  if (block.info.notMaster || !custom) return [];
  return shardHashesList(custom.shardHashes).map((s) => ({
    mc_seqno: block.info.seqNo,
    workchain: s.workchainId,
    shard: signedShard(s.shard),
    seqno: s.descr.seqNo,
    root_hash: b64(s.descr.rootHash),
    file_hash: b64(s.descr.fileHash),
  }));
}
