// Block → rows in worker threads, ahead of the insert point: the follower fetches blocks on the main
// thread, the workers parse them (BoC bytes in, transferred; plain row objects out), and the main
// thread keeps the order (rows are inserted in masterchain order; traces are assembled there).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { workerExecArgv } from "@tongate/runtime";
import { blockRowsAndTops } from "../rows/index.js";
import type { ShardTopRow } from "../rows/shards.js";
import type { BlockRows } from "../rows/types.js";

/** What a parse needs besides the BoC: the committing masterchain seqno and the block's id. */
export interface ParseContext {
  mcSeqno: number;
  /** the verified block id: the BoC is checked against its file hash, the root hash taken from it */
  id?: { root_hash: Buffer; file_hash: Buffer };
}

export interface ParsedBlock {
  rows: BlockRows;
  /** a masterchain block's shard tops ([] for a shard block) */
  tops: ShardTopRow[];
}

/** Block BoC → rows (and shard tops), in this thread or a pool's. */
export type BlockParser = (boc: Buffer, ctx: ParseContext) => Promise<ParsedBlock>;

/** Parses on the calling thread. */
export const parseInline: BlockParser = (boc, ctx) => Promise.resolve(blockRowsAndTops(boc, ctx));

/** Messages between the pool and a worker (./parse-worker.ts). */
export interface ParseRequest {
  job: number;
  boc: Uint8Array;
  mcSeqno: number;
  id?: { root_hash: Uint8Array; file_hash: Uint8Array };
}
export type ParseReply = { job: number; parsed: ParsedBlock } | { job: number; error: string };

interface Job {
  resolve: (p: ParsedBlock) => void;
  reject: (e: Error) => void;
}

/** A fixed pool of parse workers; jobs go to the worker with the fewest in flight. */
export class ParsePool {
  private readonly jobs = new Map<number, Job>();
  private readonly load: number[];
  private readonly jobWorker = new Map<number, number>();
  private nextJob = 0;
  private failed: Error | null = null;

  private constructor(private readonly workers: Worker[]) {
    this.load = workers.map(() => 0);
    workers.forEach((w, i) => {
      w.on("message", (m: ParseReply) => this.settle(m));
      w.on("error", (e) => this.fail(e));
      w.on("exit", (code) => {
        if (code !== 0) this.fail(new Error(`parse worker ${i} exited with code ${code}`));
      });
      w.unref();
    });
  }

  /** `workers` threads (default: one per core but one, at least one). */
  static create(workers = Math.max(1, availableParallelism() - 1)): ParsePool {
    const entry = new URL("./parse-worker.mjs", import.meta.url);
    return new ParsePool(Array.from({ length: workers }, () => new Worker(entry, { execArgv: workerExecArgv() })));
  }

  get size(): number {
    return this.workers.length;
  }

  /** Parses `boc` in a worker. The bytes are copied once into a buffer the worker then owns. */
  readonly parse: BlockParser = (boc, ctx) => {
    if (this.failed) return Promise.reject(this.failed);
    const job = this.nextJob++;
    let w = 0;
    for (let i = 1; i < this.load.length; i++) if (this.load[i]! < this.load[w]!) w = i;
    // an idle worker does not keep the process alive; one with jobs does (their answers are awaited)
    if (this.load[w]!++ === 0) this.workers[w]!.ref();
    this.jobWorker.set(job, w);
    // a Buffer may be a view of a shared pool slab: never transfer that, transfer a copy of the bytes
    const own = new Uint8Array(boc);
    const msg: ParseRequest = { job, boc: own, mcSeqno: ctx.mcSeqno };
    if (ctx.id) msg.id = { root_hash: ctx.id.root_hash, file_hash: ctx.id.file_hash };
    return new Promise<ParsedBlock>((resolve, reject) => {
      this.jobs.set(job, { resolve, reject });
      this.workers[w]!.postMessage(msg, [own.buffer]);
    });
  };

  private settle(m: ParseReply): void {
    const job = this.jobs.get(m.job);
    if (!job) return;
    this.jobs.delete(m.job);
    const w = this.jobWorker.get(m.job)!;
    this.jobWorker.delete(m.job);
    if (--this.load[w]! === 0) this.workers[w]!.unref();
    if ("error" in m) job.reject(new Error(m.error));
    else job.resolve(m.parsed);
  }

  private fail(e: Error): void {
    this.failed ??= e;
    for (const job of this.jobs.values()) job.reject(e);
    this.jobs.clear();
  }

  async close(): Promise<void> {
    this.fail(new Error("parse pool closed"));
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
