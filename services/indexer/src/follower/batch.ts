// One masterchain block's batch: the masterchain block and every shard block it commits that the
// previous masterchain block did not, found by walking `prev` links back from its shard tops.
import type { ShardTopRow } from "../rows/shards.js";
import type { BlockRows, PrevBlockRef } from "../rows/types.js";
import { type BlockIdExt, type LiteClient, blockKey, fetchBlock, lookupMasterchain } from "./lite.js";
import { type BlockParser, parseInline } from "./parse-pool.js";

export interface FetchOptions {
  /** shard blocks fetched at once (default 8) */
  concurrency?: number;
  /** a walk longer than this many shard blocks is an error (default 10,000): the stop set is wrong */
  maxShardBlocks?: number;
  timeoutMs?: number;
  /** block → rows (default: on this thread; a ParsePool's `parse` runs it in worker threads) */
  parse?: BlockParser;
  /** masterchain batches fetched and parsed ahead of the one being inserted (indexRange; default 16) */
  prefetch?: number;
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

/** The block id of a row naming a block (a block row, a shard top, a prev block ref). */
export function blockIdOf(r: { workchain: number; shard: string; seqno: number; root_hash: string; file_hash: string }): BlockIdExt {
  return { workchain: r.workchain, shard: BigInt(r.shard), seqno: r.seqno, root_hash: fromB64(r.root_hash), file_hash: fromB64(r.file_hash) };
}

/** The shard tops of masterchain block `seqno` ([] for the zero state). */
export async function masterchainTops(lite: LiteClient, seqno: number, options: FetchOptions = {}): Promise<ShardTopRow[]> {
  if (seqno <= 0) return [];
  const id = await lookupMasterchain(lite, seqno, { timeoutMs: options.timeoutMs });
  const data = await fetchBlock(lite, id, { timeoutMs: options.timeoutMs });
  return (await (options.parse ?? parseInline)(data, { mcSeqno: seqno, id })).tops;
}

/**
 * Fetches masterchain block `seqno` and the shard blocks it commits beyond `prevTops` (the previous
 * masterchain block's shard tops): from each top back along `prev` (one prev, or two after a merge;
 * a split's two children lead to the same parent, fetched once) until a block of `prevTops` or a
 * zero state (seqno 0). Each level of the walk is fetched in parallel. Blocks are parsed with
 * `options.parse`, each checked against its id's file hash (fetchBlock) and given the id's root hash.
 *
 * `tops` (this block's shard tops, the next batch's stop set) resolves once the masterchain block
 * is parsed, before the walk: the next batch can start while this one is still fetched.
 */
export function startMcBatch(
  lite: LiteClient,
  seqno: number,
  prevTops: readonly ShardTopRow[] | Promise<readonly ShardTopRow[]>,
  options: FetchOptions = {},
): { tops: Promise<ShardTopRow[]>; batch: Promise<McBatch> } {
  const parse = options.parse ?? parseInline;
  const mc = (async () => {
    const id = await lookupMasterchain(lite, seqno, { timeoutMs: options.timeoutMs });
    const data = await fetchBlock(lite, id, { timeoutMs: options.timeoutMs });
    return parse(data, { mcSeqno: seqno, id });
  })();
  const tops = mc.then((m) => m.tops);
  const batch = (async (): Promise<McBatch> => {
    const { rows: mcRows, tops: mcTops } = await mc;
    const shardRows = await walkShardBlocks(lite, seqno, mcTops, await prevTops, options);
    return { mcSeqno: seqno, genUtime: mcRows.blocks[0]!.gen_utime, tops: mcTops, blocks: [mcRows, ...shardRows] };
  })();
  // awaited by the caller; a stop before that must not leave an unhandled rejection
  tops.catch(() => undefined);
  batch.catch(() => undefined);
  return { tops, batch };
}

export function fetchMcBatch(lite: LiteClient, seqno: number, prevTops: readonly ShardTopRow[], options: FetchOptions = {}): Promise<McBatch> {
  return startMcBatch(lite, seqno, prevTops, options).batch;
}

/** The shard blocks of masterchain block `seqno` (shard tops `tops`) not committed before (`prevTops`), in chain order. */
async function walkShardBlocks(lite: LiteClient, seqno: number, tops: readonly ShardTopRow[], prevTops: readonly ShardTopRow[], options: FetchOptions): Promise<BlockRows[]> {
  const concurrency = options.concurrency ?? 8;
  const maxShardBlocks = options.maxShardBlocks ?? 10_000;
  const parse = options.parse ?? parseInline;
  const rowsOf = async (id: BlockIdExt): Promise<BlockRows> => (await parse(await fetchBlock(lite, id, { timeoutMs: options.timeoutMs }), { mcSeqno: seqno, id })).rows;
  const stop = new Set(prevTops.map((t) => blockKey(t)));
  const seen = new Set<string>();
  const shardRows: BlockRows[] = [];
  const admit = (r: { workchain: number; shard: string; seqno: number }): boolean => {
    const key = blockKey(r);
    if (r.seqno === 0 || stop.has(key) || seen.has(key)) return false;
    seen.add(key);
    return true;
  };
  let frontier: BlockIdExt[] = tops.filter(admit).map(blockIdOf);
  while (frontier.length > 0) {
    const next: BlockIdExt[] = [];
    for (let i = 0; i < frontier.length; i += concurrency) {
      const level = await Promise.all(frontier.slice(i, i + concurrency).map(rowsOf));
      for (const rows of level) {
        shardRows.push(rows);
        for (const p of rows.blocks[0]!.prev_blocks as PrevBlockRef[]) if (admit(p)) next.push(blockIdOf(p));
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
  return shardRows;
}
