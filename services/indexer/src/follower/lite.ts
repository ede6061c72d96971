// The liteserver side of the follower: block ids, masterchain lookups and verified block downloads.
// It needs only `query` of @tongate/lite-proxy's LiteserverPool (or a PoolSession), so the indexer
// does not depend on lite-proxy.
import { createHash } from "node:crypto";
import type { TlObject } from "@tongate/tl";

export interface LiteQueryOptions {
  timeoutMs?: number;
  /** answer once the liteserver has this masterchain block (liteServer.waitMasterchainSeqno prefix) */
  awaitSeqno?: number;
}

/** What the follower needs of a liteserver pool. */
export interface LiteClient {
  query(fn: TlObject, options?: LiteQueryOptions): Promise<TlObject>;
}

/** tonNode.blockIdExt as lite_api decodes it (shard: signed int64). */
export interface BlockIdExt {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: Buffer;
  file_hash: Buffer;
}

export const MASTERCHAIN_SHARD = -(2n ** 63n);

export const tlBlockId = (id: BlockIdExt): TlObject => ({
  kind: "tonNode.blockIdExt",
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  root_hash: id.root_hash,
  file_hash: id.file_hash,
});

export const blockKey = (b: { workchain: number; shard: bigint | string; seqno: number }): string => `${b.workchain}:${String(b.shard)}:${b.seqno}`;

/** The last masterchain block the liteserver has. */
export async function masterchainHead(lite: LiteClient, options: LiteQueryOptions = {}): Promise<BlockIdExt> {
  const info = (await lite.query({ kind: "liteServer.getMasterchainInfo" }, options)) as unknown as { last: BlockIdExt };
  return info.last;
}

/** The masterchain block with this seqno (liteServer.lookupBlock mode 1). */
export async function lookupMasterchain(lite: LiteClient, seqno: number, options: LiteQueryOptions = {}): Promise<BlockIdExt> {
  const r = (await lite.query(
    { kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: MASTERCHAIN_SHARD, seqno }, lt: undefined, utime: undefined },
    options,
  )) as unknown as { id: BlockIdExt };
  if (r.id.workchain !== -1 || r.id.seqno !== seqno) {
    throw new Error(`lookupBlock: asked for masterchain block ${seqno}, got (${r.id.workchain},${r.id.seqno})`);
  }
  return r.id;
}

/** The block's BoC, checked against its file hash (sha256 of the BoC). The root hash is checked by the caller's parse. */
export async function fetchBlock(lite: LiteClient, id: BlockIdExt, options: LiteQueryOptions = {}): Promise<Buffer> {
  const r = (await lite.query({ kind: "liteServer.getBlock", id: tlBlockId(id) }, options)) as unknown as { data: Uint8Array };
  const data = Buffer.from(r.data);
  const fileHash = createHash("sha256").update(data).digest();
  if (!fileHash.equals(id.file_hash)) {
    throw new Error(`getBlock ${blockKey(id)}: file hash ${fileHash.toString("hex")} differs from the block id's ${id.file_hash.toString("hex")}`);
  }
  return data;
}
