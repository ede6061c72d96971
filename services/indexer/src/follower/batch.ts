// One masterchain block's batch: the masterchain block and every shard block it commits that the
// previous masterchain block did not, found by walking `prev` links back from its shard tops.
import { parseBlock } from "@tongate/block";
import { blockRows } from "../rows/index.js";
import { cellsFromBoc } from "../rows/boc.js";
import { masterchainShards, type ShardTopRow } from "../rows/shards.js";
import type { BlockRows, PrevBlockRef } from "../rows/types.js";
import { type BlockIdExt, type LiteClient, blockKey, fetchBlock, lookupMasterchain } from "./lite.js";

export interface FetchOptions {
  /** shard blocks fetched at once (default 8) */
  concurrency?: number;
  /** a walk longer than this many shard blocks is an error (default 10,000): the stop set is wrong */
  maxShardBlocks?: number;
  timeoutMs?: number;
}

export interface McBatch {
  mcSeqno: number;
  genUtime: number;
  /** the masterchain block's shard tops (the next batch's stop set) */
  tops: ShardTopRow[];
  /** rows of the masterchain block first, then its new shard blocks */
  blocks: BlockRows[];
}

const fromB64 = (s: string): Buffer => Buffer.from(s, "base64");

function idOf(r: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }): BlockIdExt {
  return { workchain: r.workchain, shard: BigInt(r.shard), seqno: r.seqno, root_hash: fromB64(r.root_hash), file_hash: fromB64(r.file_hash) };
}

/** The shard tops of masterchain block `seqno` ([] for the zero state). */
export async function masterchainTops(lite: LiteClient, seqno: number, options: FetchOptions = {}): Promise<ShardTopRow[]> {
  if (seqno <= 0) return [];
  const id = await lookupMasterchain(lite, seqno, { timeoutMs: options.timeoutMs });
  const data = await fetchBlock(lite, id, { timeoutMs: options.timeoutMs });
  return masterchainShards(parseBlock(cellsFromBoc(data)[0]!));
}

/** Rows of one block, checked against its id's root hash. */
async function rowsOf(lite: LiteClient, id: BlockIdExt, mcSeqno: number, options: FetchOptions): Promise<BlockRows> {
  const data = await fetchBlock(lite, id, { timeoutMs: options.timeoutMs });
  const rows = blockRows(data, { mcSeqno, fileHash: id.file_hash });
  const got = rows.blocks[0]!.root_hash;
  if (got !== id.root_hash.toString("base64")) throw new Error(`getBlock ${blockKey(id)}: root hash ${got} differs from the block id's`);
  return rows;
}

/**
 * Fetches masterchain block `seqno` and the shard blocks it commits beyond `prevTops` (the previous
 * masterchain block's shard tops): from each top back along `prev` (one prev, or two after a merge;
 * a split's two children lead to the same parent, fetched once) until a block of `prevTops` or a
 * zero state (seqno 0). Each level of the walk is fetched in parallel.
 */
export async function fetchMcBatch(lite: LiteClient, seqno: number, prevTops: readonly ShardTopRow[], options: FetchOptions = {}): Promise<McBatch> {
  const concurrency = options.concurrency ?? 8;
  const maxShardBlocks = options.maxShardBlocks ?? 10_000;
  const id = await lookupMasterchain(lite, seqno, { timeoutMs: options.timeoutMs });
  const data = await fetchBlock(lite, id, { timeoutMs: options.timeoutMs });
  const cells = cellsFromBoc(data);
  const root = cells[0]!;
  if (!root.hash().equals(id.root_hash)) throw new Error(`masterchain block ${seqno}: root hash differs from the block id's`);
  const block = parseBlock(root);
  const tops = masterchainShards(block);
  const mcRows = blockRows(data, { mcSeqno: seqno, fileHash: id.file_hash, parseBoc: () => cells });

  const stop = new Set(prevTops.map((t) => blockKey(t)));
  const seen = new Set<string>();
  const shardRows: BlockRows[] = [];
  const admit = (r: { workchain: number; shard: string; seqno: number }): boolean => {
    const key = blockKey(r);
    if (r.seqno === 0 || stop.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  let frontier: BlockIdExt[] = tops.filter(admit).map(idOf);
  while (frontier.length > 0) {
    const next: BlockIdExt[] = [];
    for (let i = 0; i < frontier.length; i += concurrency) {
      const level = await Promise.all(frontier.slice(i, i + concurrency).map((b) => rowsOf(lite, b, seqno, options)));
      for (const rows of level) {
        shardRows.push(rows);
        for (const p of rows.blocks[0]!.prev_blocks as PrevBlockRef[]) if (admit(p)) next.push(idOf(p));
      }
    }
    if (seen.size > maxShardBlocks) throw new Error(`masterchain block ${seqno}: more than ${maxShardBlocks} new shard blocks — the previous shard tops are not on their prev chains`);
    frontier = next;
  }
  // chain order inside the batch: by workchain, shard, seqno
  shardRows.sort((a, b) => {
    const x = a.blocks[0]!;
    const y = b.blocks[0]!;
    return x.workchain - y.workchain || (BigInt(x.shard) < BigInt(y.shard) ? -1 : BigInt(x.shard) > BigInt(y.shard) ? 1 : 0) || x.seqno - y.seqno;
  });
  return { mcSeqno: seqno, genUtime: block.info.genUtime, tops, blocks: [mcRows, ...shardRows] };
}
