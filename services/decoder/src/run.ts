// The decoder's loop: every masterchain block the indexer has stored after the decoder's checkpoint,
// in order — read, decoded, written, checkpointed. `blocks.indexed` (in process or over NATS) only
// wakes it; it also looks on its own every few seconds, so a broker outage or a missed event costs
// nothing. Indexing never waits for it.
import { getCheckpoint, setCheckpoint, type Store } from "@tongate/store";
import type { EventBus, Logger, Subscription } from "@tongate/runtime";
import { decodeBlock } from "./decode-block.js";
import { indexedBlocksAfter } from "./inputs.js";
import { confirmEvents, decidePending } from "./pending.js";
import type { StateReader } from "./read-state.js";
import type { Verdicts } from "./verdicts.js";
import { DECODER_CHECKPOINT, insertDecodedRows } from "./write.js";

/** The indexer's checkpoint: the last masterchain block whose rows it has stored. */
export const INDEXER_CHECKPOINT = "follower";
/** Looks for new blocks this often without an event. */
const POLL_MS = 2000;
/** Blocks read per look. */
const BATCH = 100;

export interface DecoderStatus {
  running: boolean;
  /** the last masterchain block decoded (0: none yet) */
  decodedSeqno: number;
  /** the last one the indexer stored */
  indexedSeqno: number;
  lagBlocks: number;
  blocksDecoded: number;
  accountsFailed: number;
  lastError?: string;
}

export interface DecoderRunOptions {
  store: Store;
  reader: StateReader;
  verdicts: Verdicts;
  bus?: EventBus;
  log: Logger;
  /** called after each block (metrics) */
  onBlock?: (mcSeqno: number, ms: number, rows: number) => void;
}

export class DecoderRun {
  private stopped = false;
  private wake?: () => void;
  private sub?: Subscription;
  private loop?: Promise<void>;
  private readonly s: DecoderStatus = { running: false, decodedSeqno: 0, indexedSeqno: 0, lagBlocks: 0, blocksDecoded: 0, accountsFailed: 0 };

  constructor(private readonly o: DecoderRunOptions) {}

  async start(): Promise<void> {
    this.s.decodedSeqno = (await getCheckpoint(this.o.store, DECODER_CHECKPOINT)) ?? 0;
    this.sub = await this.o.bus?.subscribe("tongate.*.blocks.indexed", () => this.wake?.()).catch(() => undefined);
    this.s.running = true;
    this.loop = this.run();
  }

  status(): DecoderStatus {
    return { ...this.s };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.sub?.unsubscribe().catch(() => undefined);
    await this.loop;
    this.s.running = false;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        const indexed = (await getCheckpoint(this.o.store, INDEXER_CHECKPOINT)) ?? 0;
        this.s.indexedSeqno = indexed;
        const blocks = indexed > this.s.decodedSeqno ? await indexedBlocksAfter(this.o.store, this.s.decodedSeqno, indexed, BATCH) : [];
        for (const mc of blocks) {
          if (this.stopped) return;
          await this.decode(mc);
        }
        // a gap in the stored blocks (an index started at the head): the checkpoint moves past it
        if (blocks.length === 0 && indexed > this.s.decodedSeqno) await this.advance(indexed);
        this.s.lagBlocks = Math.max(0, indexed - this.s.decodedSeqno);
        if (blocks.length === BATCH) continue;
        this.s.lastError = undefined;
      } catch (e) {
        this.s.lastError = e instanceof Error ? e.message : String(e);
        this.o.log.warn({ err: e }, "decoder: a block failed to decode; trying again");
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  private async decode(mcSeqno: number): Promise<void> {
    const started = performance.now();
    const { rows, failures } = await decodeBlock(this.o.store, this.o.reader, this.o.verdicts, mcSeqno);
    const decided = await decidePending(this.o.store, this.o.verdicts, rows, mcSeqno);
    const refused = await insertDecodedRows(this.o.store, rows);
    for (const r of refused) this.o.log.warn({ table: r.table, mcSeqno, reason: r.reason }, "decoder: ClickHouse refused a row; the block goes on without it");
    await confirmEvents(this.o.store, decided, mcSeqno);
    await this.advance(mcSeqno);
    this.s.blocksDecoded++;
    this.s.accountsFailed += failures.length + refused.length;
    for (const f of failures.slice(0, 3)) this.o.log.debug({ account: f.account, mcSeqno }, `decoder: state not read: ${f.reason}`);
    const count = Object.values(rows).reduce((n, r: unknown[]) => n + r.length, 0);
    const ms = performance.now() - started;
    this.o.log.debug({ mcSeqno, rows: count, ms: Math.round(ms) }, "decoded");
    this.o.onBlock?.(mcSeqno, ms, count);
  }

  private async advance(mcSeqno: number): Promise<void> {
    await setCheckpoint(this.o.store, DECODER_CHECKPOINT, mcSeqno);
    this.s.decodedSeqno = mcSeqno;
    // after each block, not only after a batch: catching up, a batch of blocks takes minutes while
    // the indexer goes on
    this.s.indexedSeqno = Math.max(this.s.indexedSeqno, (await getCheckpoint(this.o.store, INDEXER_CHECKPOINT)) ?? 0);
    this.s.lagBlocks = Math.max(0, this.s.indexedSeqno - mcSeqno);
  }
}
