// indexRange: masterchain blocks from..to in order, each with the shard blocks it commits, into the
// store; the checkpoint moves after each masterchain block (or group of them) is fully stored. The
// next batches are fetched and parsed while the current ones are inserted.
import type { TraceAssembler } from "../rows/trace.js";
import type { ShardTopRow } from "../rows/shards.js";
import type { BlockRow, BlockRows, TraceRow } from "../rows/types.js";
import { getCheckpoint, setCheckpoint } from "@tongate/store";
import { insertBlockRows, type StoreRows } from "../store/insert.js";
import { AccountBocCache, completeAccountBocs } from "./account-bocs.js";
import { restoreTraceAssembler } from "../store/traces.js";
import type { IndexStore as Store } from "../store/index-store.js";
import { type FetchOptions, type McBatch, blockIdOf, masterchainTops, startMcBatch } from "./batch.js";
import { type LiteClient, masterchainHead } from "./lite.js";

/** Checkpoint name of the chain follower. */
export const FOLLOWER_CHECKPOINT = "follower";

export interface IndexProgress {
  mcSeqno: number;
  /** blocks (masterchain + shard) and transactions of this masterchain block */
  blocks: number;
  transactions: number;
  /** totals and rates since the call started */
  totalBlocks: number;
  totalTransactions: number;
  blocksPerSec: number;
  txPerSec: number;
  /** seconds between the block's gen_utime and now */
  lagSeconds: number;
  /** the range's last seqno */
  to: number;
}

/** A masterchain block whose rows, traces and checkpoint are stored (IndexRangeOptions.onStored). */
export interface StoredMcBlock {
  mcSeqno: number;
  genUtime: number;
  /** the masterchain block's row first, then the shard blocks it commits */
  blocks: readonly BlockRow[];
  transactions: number;
  /** the head as the caller knows it (indexRange: the range's last seqno) */
  headSeqno: number;
  progress: IndexProgress;
  /** rows inserted, by table (materialized views not counted) */
  rows: Record<string, number>;
  /** seconds the inserts and the checkpoint took */
  insertSeconds: number;
}

export interface IndexRangeOptions extends FetchOptions {
  /** first masterchain seqno (default: checkpoint + 1, or 1) */
  from?: number;
  /** last masterchain seqno (default: the liteserver's head) */
  to?: number;
  onProgress?: (p: IndexProgress) => void;
  signal?: AbortSignal;
  /** checkpoint name (default FOLLOWER_CHECKPOINT) */
  checkpoint?: string;
  /** trace state carried across calls (followChain passes one); otherwise rebuilt from the store as of from - 1 */
  traces?: TraceAssembler;
  /** called (and awaited) after each masterchain block is stored and the checkpoint moved past it */
  onStored?: (b: StoredMcBlock) => void | Promise<void>;
  /** the shard tops of masterchain block from-1 when the caller has them (saves a fetch) */
  prevTops?: readonly ShardTopRow[];
  /** fill pruned code/data BoCs from the store or the liteserver (default true) */
  accountBocs?: boolean;
  /** code/data BoCs seen so far (followChain passes one across calls); otherwise a new one */
  accountBocCache?: AccountBocCache;
  /** transactions per group of batches stored at once (default MAX_GROUP_TRANSACTIONS) */
  maxGroupTransactions?: number;
}

export interface IndexRangeResult {
  from: number;
  /** the last masterchain seqno stored (from - 1 when the range was empty or stopped before its first block) */
  last: number;
  blocks: number;
  transactions: number;
  /** the shard tops of `last` */
  tops: readonly ShardTopRow[];
  /** the trace state after `last`, to pass to the next call (undefined: the range was empty and none was given) */
  traces: TraceAssembler | undefined;
}

/** A masterchain batch being fetched and parsed; `ready` once it is. */
interface Ahead {
  batch: Promise<McBatch>;
  ready?: McBatch;
}

/**
 * Transactions stored by one group of inserts at most (a single batch may exceed it). While catching
 * up, the batches already fetched are stored together: each INSERT has a fixed cost (a part per
 * table and view), which at one masterchain block per insert was most of the ingest time.
 */
export const MAX_GROUP_TRANSACTIONS = 50_000;

/** Masterchain batches fetched and parsed ahead (catching up: also the most one group stores). */
export const DEFAULT_PREFETCH = 16;

const txCount = (b: McBatch): number => b.blocks.reduce((n, r) => n + r.transactions.length, 0);

function concatRows(rows: readonly StoreRows[]): StoreRows {
  if (rows.length === 1) return rows[0]!;
  return {
    blocks: rows.flatMap((r) => r.blocks),
    transactions: rows.flatMap((r) => r.transactions),
    messages: rows.flatMap((r) => r.messages),
    contents: rows.flatMap((r) => r.contents),
    accountStates: rows.flatMap((r) => r.accountStates),
    shardState: rows.flatMap((r) => r.shardState ?? []),
    rendered: rows.every((r) => r.rendered) ? rows.flatMap((r) => r.rendered!) : undefined,
  };
}

/** One row per trace: the last (a trace touched by several blocks of a group is stored as of the last). */
function latestTraceRows(rows: readonly TraceRow[]): TraceRow[] {
  return [...new Map(rows.map((r) => [r.trace_id, r])).values()];
}

function merge(batch: McBatch): StoreRows {
  const out: StoreRows = { blocks: [], transactions: [], messages: [], contents: [], accountStates: [], shardState: batch.tops };
  const rendered = batch.blocks.every((r) => r.rendered);
  for (const r of batch.blocks as BlockRows[]) {
    out.blocks.push(...r.blocks);
    out.transactions.push(...r.transactions);
    out.messages.push(...r.messages);
    out.contents.push(...r.contents);
    out.accountStates.push(...r.accountStates);
    // the key index's rendering of every block, or of none (then the store renders them)
    if (rendered) (out.rendered ??= []).push(...r.rendered!);
    if (r.partialBocs) (out.partialBocs ??= []).push(...r.partialBocs);
  }
  return out;
}

export async function indexRange(lite: LiteClient, store: Store, options: IndexRangeOptions = {}): Promise<IndexRangeResult> {
  const name = options.checkpoint ?? FOLLOWER_CHECKPOINT;
  const from = options.from ?? ((await getCheckpoint(store, name)) ?? 0) + 1;
  if (from < 1) throw new RangeError(`indexRange: from must be ≥ 1 (masterchain block 0 is the zero state), got ${from}`);
  const to = options.to ?? (await masterchainHead(lite, { timeoutMs: options.timeoutMs })).seqno;
  const result: IndexRangeResult = { from, last: from - 1, blocks: 0, transactions: 0, tops: options.prevTops ?? [], traces: options.traces };
  if (to < from || options.signal?.aborted) return result;
  const traces = (result.traces = options.traces ?? (await restoreTraceAssembler(store, from - 1)));
  if (options.prevTops === undefined) result.tops = await masterchainTops(lite, from - 1, options);

  const started = performance.now();
  const bocCache = options.accountBocCache ?? new AccountBocCache();
  const maxGroup = options.maxGroupTransactions ?? MAX_GROUP_TRANSACTIONS;
  // up to `prefetch` batches fetched and parsed ahead; each starts once the shard tops before it are known
  const ahead: Ahead[] = [];
  let nextSeqno = from;
  let lastTops: readonly ShardTopRow[] | Promise<readonly ShardTopRow[]> = result.tops;
  const prefetch = (): void => {
    while (ahead.length < Math.max(1, options.prefetch ?? DEFAULT_PREFETCH) && nextSeqno <= to && !options.signal?.aborted) {
      const b = startMcBatch(lite, nextSeqno++, lastTops, options);
      lastTops = b.tops;
      const entry: Ahead = { batch: b.batch };
      b.batch.then((v) => (entry.ready = v), () => undefined);
      ahead.push(entry);
    }
  };
  while (result.last < to) {
    prefetch();
    const first = ahead.shift();
    if (!first) break;
    // a group: this batch and those after it already fetched and parsed (catching up), stored at once
    const group = [await first.batch];
    let groupTx = txCount(group[0]!);
    while (ahead[0]?.ready && groupTx + txCount(ahead[0].ready) <= maxGroup && !options.signal?.aborted) {
      const b = ahead.shift()!.ready!;
      group.push(b);
      groupTx += txCount(b);
    }
    prefetch();
    const rows: StoreRows[] = [];
    const traceRows: TraceRow[] = [];
    for (const batch of group) {
      const r = merge(batch);
      // code/data BoCs the blocks' Merkle updates pruned (./account-bocs.ts)
      if (options.accountBocs !== false) await completeAccountBocs(lite, store, blockIdOf(r.blocks[0]!), r.accountStates, { ...options, cache: bocCache, partials: r.partialBocs });
      traceRows.push(...traces.add({ mcSeqno: batch.mcSeqno, transactions: r.transactions, messages: r.messages }));
      rows.push(r);
    }
    const traceLatest = latestTraceRows(traceRows);
    const insertStarted = performance.now();
    // the traces in the same step as the rows (and the same LMDB transaction of the key index)
    await insertBlockRows(store, { ...concatRows(rows), traces: traceLatest });
    await setCheckpoint(store, name, group.at(-1)!.mcSeqno);
    const insertSeconds = (performance.now() - insertStarted) / 1000;
    for (const [i, batch] of group.entries()) {
      const r = rows[i]!;
      result.last = batch.mcSeqno;
      result.tops = batch.tops;
      result.blocks += r.blocks.length;
      result.transactions += r.transactions.length;
      if (!options.onProgress && !options.onStored) continue;
      const secs = Math.max((performance.now() - started) / 1000, 1e-3);
      const progress: IndexProgress = {
        mcSeqno: batch.mcSeqno,
        blocks: r.blocks.length,
        transactions: r.transactions.length,
        totalBlocks: result.blocks,
        totalTransactions: result.transactions,
        blocksPerSec: result.blocks / secs,
        txPerSec: result.transactions / secs,
        lagSeconds: Math.max(0, Date.now() / 1000 - batch.genUtime),
        to,
      };
      options.onProgress?.(progress);
      await options.onStored?.({
        mcSeqno: batch.mcSeqno,
        genUtime: batch.genUtime,
        blocks: r.blocks,
        transactions: r.transactions.length,
        headSeqno: to,
        progress,
        rows: {
          blocks: r.blocks.length,
          transactions: r.transactions.length,
          messages: r.messages.length,
          message_contents: r.contents.length,
          account_states: r.accountStates.length,
          shard_state: r.shardState?.length ?? 0,
          traces: i === group.length - 1 ? traceLatest.length : 0,
        },
        // the group's inserts, shared by its blocks
        insertSeconds: insertSeconds / group.length,
      });
    }
    if (options.signal?.aborted) break;
  }
  return result;
}
