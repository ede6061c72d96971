// The block id of the liteserver side, and the masterchain's shard as lite_api writes it.
import { SHARD_FULL, shardToSigned } from "@tongate/block";
import type { TonNodeBlockIdExt } from "@tongate/tl";

/**
 * A block id as lite_api carries it (tonNode.blockIdExt: shard a signed int64, hashes as Buffers). A decoded
 * answer's `id` is one; so is an object built without `kind`.
 */
export type BlockIdExt = Omit<TonNodeBlockIdExt, "kind">;

/** The masterchain's shard, 0x8000000000000000 (@tongate/block's SHARD_FULL), as lite_api's signed long. */
export const MASTERCHAIN_SHARD: bigint = shardToSigned(SHARD_FULL);

/** `b` as a decoded tonNode.blockIdExt (its five fields and `kind`). */
export const tlBlockId = (b: BlockIdExt): TonNodeBlockIdExt => ({
  kind: "tonNode.blockIdExt",
  workchain: b.workchain,
  shard: b.shard,
  seqno: b.seqno,
  root_hash: b.root_hash,
  file_hash: b.file_hash,
});
