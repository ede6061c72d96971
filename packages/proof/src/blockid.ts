// Block ids as lite_api carries them (tonNode.blockIdExt), compared and printed like the validator does.
import { type BlockIdExt, SHARD_FULL, shardIdOf, shardIdentOf } from "@tongate/block";
import type { TonNodeBlockIdExt } from "./tl.js";

export const MASTERCHAIN = -1;
/** ton::workchainInvalid: the liteserver's "no such block" id (invalidate() / invalidate_clear()). */
export const WORKCHAIN_INVALID = -0x80000000;

/** The unsigned 64-bit shard id. */
export function shardU64(id: { shard: bigint }): bigint {
  return BigInt.asUintN(64, id.shard);
}

/** "(wc,shard,seqno):ROOT:FILE" like the validator prints a BlockIdExt. */
export function blockIdToString(id: TonNodeBlockIdExt): string {
  return `(${id.workchain},${shardU64(id).toString(16).padStart(16, "0")},${id.seqno}):${id.root_hash.toString("hex").toUpperCase()}:${id.file_hash.toString("hex").toUpperCase()}`;
}

export function sameBlockId(a: TonNodeBlockIdExt, b: TonNodeBlockIdExt): boolean {
  return (
    a.workchain === b.workchain &&
    shardU64(a) === shardU64(b) &&
    a.seqno === b.seqno &&
    a.root_hash.equals(b.root_hash) &&
    a.file_hash.equals(b.file_hash)
  );
}

export function isInvalidBlockId(id: TonNodeBlockIdExt): boolean {
  return id.workchain === WORKCHAIN_INVALID;
}

export function isMasterchainId(id: TonNodeBlockIdExt): boolean {
  return id.workchain === MASTERCHAIN && shardU64(id) === SHARD_FULL;
}

/** A valid shard id: non-zero, at most 60 prefix bits. */
export function isValidShard(shard: bigint): boolean {
  const s = BigInt.asUintN(64, shard);
  if (s === 0n) return false;
  const low = s & -s;
  return low >= 1n << 3n;
}

/** Does shard `shard` (unsigned) contain the account id (its first 64 bits decide)? */
export function shardContainsAccount(shard: bigint, accountId: Buffer): boolean {
  const s = BigInt.asUintN(64, shard);
  const prefix = accountId.readBigUInt64BE(0);
  const low = s & -s;
  const mask = BigInt.asUintN(64, ~(low * 2n - 1n));
  return (prefix & mask) === (s & mask);
}

/** Is shard `inner` (unsigned) equal to or inside shard `outer`? */
export function shardContains(outer: bigint, inner: bigint): boolean {
  const o = BigInt.asUintN(64, outer);
  const i = BigInt.asUintN(64, inner);
  const lo = o & -o;
  const li = i & -i;
  if (li > lo) return false;
  const mask = BigInt.asUintN(64, ~(lo * 2n - 1n));
  return (o & mask) === (i & mask);
}

/** tonNode.blockIdExt from @tongate/block's BlockIdExt (TL-B BlockIdExt). */
export function tlBlockId(id: BlockIdExt): TonNodeBlockIdExt {
  return {
    workchain: id.shardId.workchainId,
    shard: BigInt.asIntN(64, shardIdOf(id.shardId)),
    seqno: id.seqNo,
    root_hash: id.rootHash,
    file_hash: id.fileHash,
  };
}

/** @tongate/block's BlockIdExt from a tonNode.blockIdExt. */
export function tlbBlockId(id: TonNodeBlockIdExt): BlockIdExt {
  return { shardId: shardIdentOf(id.workchain, shardU64(id)), seqNo: id.seqno, rootHash: id.root_hash, fileHash: id.file_hash };
}
