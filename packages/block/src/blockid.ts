// Block references: ExtBlkRef, BlockIdExt, BlkMasterInfo, BlkPrevInfo, GlobalVersion.
import { type Builder, type Slice, beginCell } from "@ton/core";
import { type ShardIdent, loadShardIdent, shardIdOf, shardIdToString, storeShardIdent } from "./shard.js";

function loadBits256(s: Slice): Buffer {
  return s.loadBuffer(32);
}

export function storeBits256(b: Builder, v: Buffer, what: string): void {
  if (v.length !== 32) throw new Error(`${what}: expected 32 bytes, got ${v.length}`);
  b.storeBuffer(v);
}

/** ext_blk_ref$_ end_lt:uint64 seq_no:uint32 root_hash:bits256 file_hash:bits256 = ExtBlkRef. */
export interface ExtBlkRef {
  endLt: bigint;
  seqNo: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function loadExtBlkRef(slice: Slice): ExtBlkRef {
  const endLt = slice.loadUintBig(64);
  const seqNo = slice.loadUint(32);
  const rootHash = loadBits256(slice);
  const fileHash = loadBits256(slice);
  return { endLt, seqNo, rootHash, fileHash };
}

export function storeExtBlkRef(src: ExtBlkRef) {
  return (b: Builder): void => {
    b.storeUint(src.endLt, 64);
    b.storeUint(src.seqNo, 32);
    storeBits256(b, src.rootHash, "ExtBlkRef.root_hash");
    storeBits256(b, src.fileHash, "ExtBlkRef.file_hash");
  };
}

/** block_id_ext$_ shard_id:ShardIdent seq_no:uint32 root_hash:bits256 file_hash:bits256 = BlockIdExt. */
export interface BlockIdExt {
  shardId: ShardIdent;
  seqNo: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export function loadBlockIdExt(slice: Slice): BlockIdExt {
  const shardId = loadShardIdent(slice);
  const seqNo = slice.loadUint(32);
  const rootHash = loadBits256(slice);
  const fileHash = loadBits256(slice);
  return { shardId, seqNo, rootHash, fileHash };
}

export function storeBlockIdExt(src: BlockIdExt) {
  return (b: Builder): void => {
    b.store(storeShardIdent(src.shardId));
    b.storeUint(src.seqNo, 32);
    storeBits256(b, src.rootHash, "BlockIdExt.root_hash");
    storeBits256(b, src.fileHash, "BlockIdExt.file_hash");
  };
}

/** "(wc,shard,seqno):root:file" like the validator prints a BlockIdExt (hashes upper-case hex). */
export function blockIdExtToString(id: BlockIdExt): string {
  const [wc, shard] = shardIdToString(id.shardId.workchainId, shardIdOf(id.shardId)).split(":");
  return `(${wc},${shard},${id.seqNo}):${id.rootHash.toString("hex").toUpperCase()}:${id.fileHash.toString("hex").toUpperCase()}`;
}

/** master_info$_ master:ExtBlkRef = BlkMasterInfo. */
export interface BlkMasterInfo {
  master: ExtBlkRef;
}

export function loadBlkMasterInfo(slice: Slice): BlkMasterInfo {
  return { master: loadExtBlkRef(slice) };
}

export function storeBlkMasterInfo(src: BlkMasterInfo) {
  return (b: Builder): void => void b.store(storeExtBlkRef(src.master));
}

/**
 * prev_blk_info$_ prev:ExtBlkRef = BlkPrevInfo 0;
 * prev_blks_info$_ prev1:^ExtBlkRef prev2:^ExtBlkRef = BlkPrevInfo 1 (after a merge).
 */
export type BlkPrevInfo = { type: "prev_blk_info"; prev: ExtBlkRef } | { type: "prev_blks_info"; prev1: ExtBlkRef; prev2: ExtBlkRef };

export function loadBlkPrevInfo(slice: Slice, afterMerge: boolean): BlkPrevInfo {
  if (!afterMerge) return { type: "prev_blk_info", prev: loadExtBlkRef(slice) };
  const prev1 = loadExtBlkRef(slice.loadRef().beginParse());
  const prev2 = loadExtBlkRef(slice.loadRef().beginParse());
  return { type: "prev_blks_info", prev1, prev2 };
}

export function storeBlkPrevInfo(src: BlkPrevInfo) {
  return (b: Builder): void => {
    if (src.type === "prev_blk_info") {
      b.store(storeExtBlkRef(src.prev));
    } else {
      b.storeRef(beginCell().store(storeExtBlkRef(src.prev1)));
      b.storeRef(beginCell().store(storeExtBlkRef(src.prev2)));
    }
  };
}

/** capabilities#c4 version:uint32 capabilities:uint64 = GlobalVersion. */
export interface GlobalVersion {
  version: number;
  capabilities: bigint;
}

export function loadGlobalVersion(slice: Slice): GlobalVersion {
  const tag = slice.loadUint(8);
  if (tag !== 0xc4) throw new Error(`GlobalVersion: bad tag 0x${tag.toString(16)}`);
  return { version: slice.loadUint(32), capabilities: slice.loadUintBig(64) };
}

export function storeGlobalVersion(src: GlobalVersion) {
  return (b: Builder): void => {
    b.storeUint(0xc4, 8);
    b.storeUint(src.version, 32);
    b.storeUint(src.capabilities, 64);
  };
}
