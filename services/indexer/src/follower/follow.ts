// followChain: index up to the head, then each new masterchain block as the liteserver gets it
// (liteServer.waitMasterchainSeqno through the pool's awaitSeqno), until the signal aborts.
import type { TraceAssembler } from "../rows/trace.js";
import type { IndexStore as Store } from "../store/index-store.js";
import { AccountBocCache } from "./account-bocs.js";
import { type IndexProgress, type IndexRangeOptions, indexRange } from "./index-range.js";
import { type LiteClient, masterchainHead } from "./lite.js";

export interface FollowProgress extends IndexProgress {
  headSeqno: number;
  /** masterchain blocks behind the head */
  lagBlocks: number;
}

export interface FollowOptions extends Omit<IndexRangeOptions, "to" | "onProgress" | "traces"> {
  // onStored (IndexRangeOptions) gets headSeqno: the head as last asked of the liteserver
  signal: AbortSignal;
  /** how long one wait for the next masterchain block lasts before asking again (default 10 s) */
  waitMs?: number;
  /** a failed round is retried after this long (default 1 s) */
  retryMs?: number;
  onProgress?: (p: FollowProgress) => void;
  onError?: (e: unknown) => void;
  /**
   * Progress log (default: none): every stored masterchain block at debug; at info, a summary of the
   * blocks since the last one at most every `logEveryMs` (default 30 s), and the first catch-up.
   */
  log?: (line: string, p: FollowProgress | FollowSummary, level: "debug" | "info") => void;
  logEveryMs?: number;
}

/** What the info summary of followChain's log counts since the previous one. */
export interface FollowSummary extends Pick<FollowProgress, "mcSeqno" | "headSeqno" | "lagBlocks"> {
  mcBlocks: number;
  periodBlocks: number;
  periodTransactions: number;
  periodSeconds: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done(): void {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

/** Resolves with `p`'s value, or with undefined once `signal` aborts (no timer or listener left behind). */
function untilAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  p.catch(() => undefined);
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = (): void => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => (signal.removeEventListener("abort", onAbort), resolve(v)),
      (e: unknown) => (signal.removeEventListener("abort", onAbort), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

export const formatSummary = (s: FollowSummary): string =>
  `indexed ${s.mcBlocks} masterchain blocks (${s.periodBlocks} blocks, ${s.periodTransactions} tx)${s.periodSeconds ? ` in ${s.periodSeconds} s` : ""}; at mc ${s.mcSeqno}/${s.headSeqno}, lag ${s.lagBlocks} blocks`;

export const formatProgress = (p: FollowProgress): string =>
  `mc ${p.mcSeqno}/${p.headSeqno} (lag ${p.lagBlocks} blocks, ${p.lagSeconds.toFixed(0)} s) ${p.blocksPerSec.toFixed(1)} blocks/s ${p.txPerSec.toFixed(1)} tx/s`;

/** Follows the chain until `signal` aborts; returns the last masterchain seqno stored. */
export async function followChain(lite: LiteClient, store: Store, options: FollowOptions): Promise<number> {
  const { signal } = options;
  const waitMs = options.waitMs ?? 10_000;
  // the trace state after the last stored block; undefined: indexRange rebuilds it from the store
  let traces: TraceAssembler | undefined;
  const accountBocCache = options.accountBocCache ?? new AccountBocCache();
  let from = options.from;
  let prevTops: IndexRangeOptions["prevTops"];
  let last = (from ?? 1) - 1;
  // set once a block is stored by this call: from then on `last` is the resume point, not the checkpoint
  let stored = false;
  let head = 0;
  let lastLog = 0;
  let caughtUp = false;
  const period = { mcBlocks: 0, blocks: 0, transactions: 0 };
  while (!signal.aborted) {
    try {
      const headId = await untilAbort(masterchainHead(lite, { timeoutMs: options.timeoutMs }), signal);
      if (headId === undefined) break;
      head = Math.max(head, headId.seqno);
      const r = await indexRange(lite, store, {
        ...options,
        from,
        to: head,
        traces,
        prevTops,
        accountBocCache,
        onStored: options.onStored && ((b) => options.onStored!({ ...b, headSeqno: Math.max(head, b.mcSeqno) })),
        onProgress: (p) => {
          last = p.mcSeqno;
          stored = true;
          const f: FollowProgress = { ...p, headSeqno: head, lagBlocks: head - p.mcSeqno };
          options.onProgress?.(f);
          if (!options.log) return;
          options.log(formatProgress(f), f, "debug");
          period.mcBlocks++;
          period.blocks += p.blocks;
          period.transactions += p.transactions;
          const now = Date.now();
          const first = f.lagBlocks === 0 && !caughtUp;
          if (first || now - lastLog >= (options.logEveryMs ?? 30_000)) {
            if (first) caughtUp = true;
            const s: FollowSummary = { mcSeqno: f.mcSeqno, headSeqno: f.headSeqno, lagBlocks: f.lagBlocks, mcBlocks: period.mcBlocks, periodBlocks: period.blocks, periodTransactions: period.transactions, periodSeconds: lastLog ? Math.round((now - lastLog) / 1000) : 0 };
            lastLog = now;
            period.mcBlocks = period.blocks = period.transactions = 0;
            options.log(first ? `caught up with the head: ${formatProgress(f)}` : formatSummary(s), s, "info");
          }
        },
      });
      traces = r.traces;
      if (r.last >= r.from) prevTops = r.tops;
      else if (!stored) last = r.from - 1;
      from = last + 1;
      if (signal.aborted) break;
      if (last >= head) {
        // wait for the next masterchain block; a timeout just asks again
        await untilAbort(
          lite.query({ kind: "liteServer.getMasterchainInfo" }, { awaitSeqno: last + 1, timeoutMs: waitMs }).catch(() => undefined),
          signal,
        );
      }
    } catch (e) {
      // resume after the last stored block (the trace state holds exactly the blocks up to it)
      if (stored) from = last + 1;
      prevTops = undefined;
      // the failed batch may have reached the trace assembler without being stored: rebuild the
      // trace state from the store, as a restart does
      traces = undefined;
      options.onError?.(e);
      await sleep(options.retryMs ?? 1000, signal);
    }
  }
  return last;
}
