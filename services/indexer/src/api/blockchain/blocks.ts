// /masterchainInfo, /blocks, /masterchainBlockShards, /masterchainBlockShardState.
import { create } from "@bufbuild/protobuf";
import type {
  BlocksResponse,
  GetBlocksRequest,
  MasterchainBlockShardStateRequest,
  MasterchainBlockShardsRequest,
  MasterchainInfoResponse,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { BlocksResponseSchema, MasterchainInfoResponseSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { apiError } from "@tongate/runtime";
import type { BlockRow } from "../../rows/types.js";
import { b64Hash, DEFAULT_LIMIT, isAsc, nextCursor, pageOf, signedShardOf } from "../params.js";
import { select, type Store, Where } from "../sql.js";
import { blockOf } from "./models.js";

export async function masterchainInfo(store: Store): Promise<MasterchainInfoResponse> {
  const [last, first] = await Promise.all(
    ["DESC", "ASC"].map((dir) => select<BlockRow>(store, `SELECT * FROM blocks FINAL WHERE workchain = -1 ORDER BY seqno ${dir} LIMIT 1`, {})),
  );
  if (!last![0] || !first![0]) throw apiError(404, "no masterchain block is indexed yet");
  return create(MasterchainInfoResponseSchema, { last: blockOf(last![0]), first: blockOf(first![0]) });
}

/**
 * Blocks by filters, ordered by (gen_utime, workchain, shard, seqno) — toncenter orders only when
 * `sort` is given and then by gen_utime alone; here the order is always defined and unique.
 */
export async function blocks(store: Store, req: GetBlocksRequest): Promise<BlocksResponse> {
  const asc = isAsc(req.sort);
  const page = pageOf("blocks", asc, req, ["number", "number", "string", "number"]);
  const w = new Where();
  if (req.workchain !== undefined) w.add("workchain = {}", ["Int32", req.workchain]);
  if (req.shard !== undefined) w.add("shard = {}", ["Int64", signedShardOf("shard", req.shard)]);
  if (req.seqno !== undefined) w.add("seqno = {}", ["UInt32", req.seqno]);
  if (req.rootHash !== undefined) w.add("root_hash = {}", ["String", b64Hash(req.rootHash)]);
  if (req.fileHash !== undefined) w.add("file_hash = {}", ["String", b64Hash(req.fileHash)]);
  if (req.mcSeqno !== undefined) {
    w.add("(workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM masterchain_block_shards FINAL WHERE mc_seqno = {})", ["UInt32", req.mcSeqno]);
  }
  if (req.startUtime !== undefined) w.add("gen_utime >= {}", ["UInt32", req.startUtime]);
  if (req.endUtime !== undefined) w.add("gen_utime <= {}", ["UInt32", req.endUtime]);
  if (req.startLt !== undefined) w.add("start_lt >= {}", ["UInt64", String(req.startLt)]);
  if (req.endLt !== undefined) w.add("start_lt <= {}", ["UInt64", String(req.endLt)]);
  if (page.after) {
    const [utime, wc, shard, seqno] = page.after;
    w.add(`(gen_utime, workchain, shard, seqno) ${asc ? ">" : "<"} ({}, {}, {}, {})`, ["UInt32", utime], ["Int32", wc], ["Int64", shard], ["UInt32", seqno]);
  }
  const dir = asc ? "ASC" : "DESC";
  const rows = await select<BlockRow>(
    store,
    `SELECT * FROM blocks FINAL ${w.sql} ORDER BY gen_utime ${dir}, workchain ${dir}, shard ${dir}, seqno ${dir}
     LIMIT ${w.param("UInt32", page.limit)} OFFSET ${w.param("UInt32", page.offset)}`,
    w.params,
  );
  return create(BlocksResponseSchema, {
    blocks: rows.map(blockOf),
    nextCursor: nextCursor("blocks", asc, page, rows, (r) => [r.gen_utime, r.workchain, r.shard, r.seqno]),
  });
}

/** Every block a masterchain block commits (itself first, then its new shard blocks); 404 if none. */
export async function masterchainBlockShards(store: Store, req: MasterchainBlockShardsRequest): Promise<BlocksResponse> {
  const rows = await select<BlockRow>(
    store,
    `SELECT * FROM blocks FINAL
     WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM masterchain_block_shards FINAL WHERE mc_seqno = {mc:UInt32})
     ORDER BY workchain, shard, seqno LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { mc: req.seqno, limit: req.limit ?? DEFAULT_LIMIT, offset: req.offset ?? 0 },
  );
  if (!rows.length && !req.offset) throw apiError(404, `masterchain block ${req.seqno} is not indexed`);
  return create(BlocksResponseSchema, { blocks: rows.map(blockOf) });
}

/** The shard tops a masterchain block names (API v2's /shards from the index); 404 if not indexed. */
export async function masterchainBlockShardState(store: Store, req: MasterchainBlockShardStateRequest): Promise<BlocksResponse> {
  const rows = await select<BlockRow>(
    store,
    `SELECT * FROM blocks FINAL
     WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM shard_state FINAL WHERE mc_seqno = {mc:UInt32})
     ORDER BY workchain, shard, seqno`,
    { mc: req.seqno },
  );
  if (!rows.length) throw apiError(404, `masterchain block ${req.seqno} is not indexed`);
  return create(BlocksResponseSchema, { blocks: rows.map(blockOf) });
}
