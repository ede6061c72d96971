// The liteserver side of the follower: block ids, masterchain lookups and verified block downloads.
// It needs only `query` of @tongate/liteclient's LiteserverPool (or a PoolSession).
import { createHash } from "node:crypto";
import { MASTERCHAIN_SHARD, tlBlockId, type BlockIdExt, type LiteQuerier, type QueryOptions } from "@tongate/liteclient";

export { MASTERCHAIN_SHARD, tlBlockId, type BlockIdExt } from "@tongate/liteclient";

/** Options of a query: a deadline, and the masterchain block the liteserver must have (waitMasterchainSeqno). */
export type LiteQueryOptions = Pick<QueryOptions, "timeoutMs" | "awaitSeqno">;

/** What the follower needs of a liteserver pool: @tongate/liteclient's LiteserverPool or a PoolSession. */
export type LiteClient = LiteQuerier;

export const blockKey = (b: { workchain: number; shard: bigint | string; seqno: number }): string => `${b.workchain}:${String(b.shard)}:${b.seqno}`;

/** The last masterchain block the liteserver has. */
export async function masterchainHead(lite: LiteClient, options: LiteQueryOptions = {}): Promise<BlockIdExt> {
  const info = await lite.query({ kind: "liteServer.getMasterchainInfo" }, options);
  return info.last;
}

/** The masterchain block with this seqno (liteServer.lookupBlock mode 1). */
export async function lookupMasterchain(lite: LiteClient, seqno: number, options: LiteQueryOptions = {}): Promise<BlockIdExt> {
  const r = (await lite.query(
    { kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: MASTERCHAIN_SHARD, seqno }, lt: undefined, utime: undefined },
    options,
  ));
  if (r.id.workchain !== -1 || r.id.seqno !== seqno) {
    throw new Error(`lookupBlock: asked for masterchain block ${seqno}, got (${r.id.workchain},${r.id.seqno})`);
  }
  return r.id;
}

/** The block's BoC, checked against its file hash (sha256 of the BoC). The root hash is checked by the caller's parse. */
export async function fetchBlock(lite: LiteClient, id: BlockIdExt, options: LiteQueryOptions = {}): Promise<Buffer> {
  const r = await lite.query({ kind: "liteServer.getBlock", id: tlBlockId(id) }, options);
  const data = Buffer.from(r.data);
  const fileHash = createHash("sha256").update(data).digest();
  if (!fileHash.equals(id.file_hash)) {
    throw new Error(`getBlock ${blockKey(id)}: file hash ${fileHash.toString("hex")} differs from the block id's ${id.file_hash.toString("hex")}`);
  }
  return data;
}
