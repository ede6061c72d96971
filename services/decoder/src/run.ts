// The decoder's loop: every masterchain block the indexer has stored after the decoder's checkpoint,
// in order — read, decoded, written, checkpointed. `blocks.indexed` (in process or over NATS) only
// wakes it; it also looks on its own every few seconds, so a broker outage or a missed event costs
// nothing. Indexing never waits for it.
import { type DecodedKeys, DECODER_CHECKPOINT, getCheckpoint, setCheckpoint, type Store } from "@tongate/store";
import { subscribeWhenUp, type EventBus, type Logger, type Subscription } from "@tongate/runtime";
import { classifyBlock } from "./actions/classify-block.js";
import { decodeBlock } from "./decode-block.js";
import { indexedBlocksAfter } from "./inputs.js";
import type { ItemContents } from "./item-content.js";
import { keyRowsOf, lateTransfers } from "./keys.js";
import { confirmEvents, decidePending } from "./pending.js";
import type { StateReader } from "./read-state.js";
import type { Verdicts } from "./verdicts.js";
import type { DecodedRows } from "./rows.js";
import { TransientFailure } from "./transient.js";
import { insertActionsRows, insertDecodedRows } from "./write.js";

/** The indexer's checkpoint: the last masterchain block whose rows it has stored. */
export const INDEXER_CHECKPOINT = "follower";
/** Looks for new blocks this often without an event. */
const POLL_MS = 2000;
/** Blocks read per look. */
const BATCH = 100;
/** Attempts at a block that meets transient failures; the last one records them (transient.ts). */
const TRANSIENT_ATTEMPTS = 4;

export interface DecoderStatus {
  running: boolean;
  /** the last masterchain block decoded (0: none yet) */
  decodedSeqno: number;
  /** the last one the indexer stored */
  indexedSeqno: number;
  lagBlocks: number;
  blocksDecoded: number;
  accountsFailed: number;
  /** attempts of a block given up for a transient failure (the emulator busy or slow, the liteserver away) */
  transientRetries: number;
  /** traces classified when a block completed them, since start */
  tracesClassified: number;
  /** traces classified again for a wallet or item confirmed after them, since start */
  tracesReclassified: number;
  /** classifications that failed (one unknown action each), since start */
  tracesFailed: number;
  /** traces not classified (above toncenter's 4,000 transactions), since start */
  tracesBroken: number;
  /** time spent classifying and writing actions, since start */
  classifyMs: number;
  lastError?: string;
}

export interface DecoderRunOptions {
  store: Store;
  /** its key-index tables (when the store keeps a key index), made complete before the run starts */
  keys?: DecodedKeys;
  reader: StateReader;
  verdicts: Verdicts;
  /** items' full content (their collection's get_nft_content); without it an item's metadata is of its own content */
  itemContents?: ItemContents;
  bus?: EventBus;
  log: Logger;
  /** called after each block (metrics) */
  onBlock?: (mcSeqno: number, ms: number, rows: number) => void;
  /** called after each block's classifications (metrics): traces classified, failed, and the time taken */
  onClassified?: (c: { classified: number; reclassified: number; failed: number; broken: number; ms: number }) => void;
  /** called with a block's rows once it is checkpointed (the metadata worker takes its URIs) */
  onRows?: (rows: DecodedRows) => void;
  /** called once a block is checkpointed with the traces it classified and the jetton wallets it changed (blocks.decoded) */
  onDecoded?: (mcSeqno: number, traceIds: string[], jettonWallets: string[]) => Promise<void>;
}

export class DecoderRun {
  private stopped = false;
  private wake?: () => void;
  /** a blocks.indexed came while a round was running: the next round starts at once */
  private woken = false;
  private sub?: Subscription;
  private loop?: Promise<void>;
  private readonly s: DecoderStatus = { running: false, decodedSeqno: 0, indexedSeqno: 0, lagBlocks: 0, blocksDecoded: 0, accountsFailed: 0, transientRetries: 0, tracesClassified: 0, tracesReclassified: 0, tracesFailed: 0, tracesBroken: 0, classifyMs: 0 };
  /** the block being retried after a transient failure, and its attempts so far */
  private retrying = { mcSeqno: 0, attempts: 0 };

  constructor(private readonly o: DecoderRunOptions) {}

  async start(): Promise<void> {
    this.s.decodedSeqno = (await getCheckpoint(this.o.store, DECODER_CHECKPOINT)) ?? 0;
    this.subscribe();
    this.s.running = true;
    this.loop = this.run();
  }

  /**
   * blocks.indexed wakes the loop (it polls otherwise). A bus that cannot subscribe yet (NATS down
   * at start) is asked again every few seconds, so the decoder follows at the indexer's pace once it is up.
   */
  private subscribe(): void {
    if (!this.o.bus) return;
    this.sub = subscribeWhenUp(this.o.bus, "tongate.*.blocks.indexed", () => {
      this.woken = true;
      this.wake?.();
    });
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
      this.woken = false;
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
        if (e instanceof TransientFailure) this.o.log.warn({ mcSeqno: this.retrying.mcSeqno, attempt: this.retrying.attempts }, `decoder: ${e.message}; the block is decoded again`);
        else this.o.log.warn({ err: e }, "decoder: a block failed to decode; trying again");
      }
      if (this.woken) continue;
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
    if (this.retrying.mcSeqno !== mcSeqno) this.retrying = { mcSeqno, attempts: 0 };
    const policy = ++this.retrying.attempts < TRANSIENT_ATTEMPTS ? "retry" : "record";
    const { rows, failures } = await decodeBlock(this.o.store, this.o.reader, this.o.verdicts, mcSeqno, policy, this.o.itemContents).catch((e: unknown) => this.transient(e));
    const decided = await decidePending(this.o.store, this.o.verdicts, rows, mcSeqno, policy).catch((e: unknown) => this.transient(e));
    const refused = await insertDecodedRows(this.o.store, rows);
    for (const r of refused) this.o.log.warn({ table: r.table, mcSeqno, reason: r.reason }, "decoder: ClickHouse refused a row; the block goes on without it");
    await confirmEvents(this.o.store, decided, mcSeqno);
    // the traces the block completed, and those of what it confirmed late, with the facts as of it (its own rows included)
    const classifyStarted = performance.now();
    const classified = await classifyBlock(this.o.store, mcSeqno, decided, this.o.log);
    const refusedActions = await insertActionsRows(this.o.store, classified.rows);
    const classifyMs = performance.now() - classifyStarted;
    for (const r of refusedActions) this.o.log.warn({ table: r.table, mcSeqno, reason: r.reason }, "decoder: ClickHouse refused an action row; the block goes on without it");
    // the key tables' rows before the checkpoint (staged: readers see them once it is set)
    if (this.o.keys) {
      const late = decided.jettonWallets.length ? await lateTransfers(this.o.store, decided) : [];
      await this.o.keys.stage(mcSeqno, { ...keyRowsOf(rows, late, refused), traces: classified.keys });
    }
    await this.advance(mcSeqno);
    await this.o.onDecoded?.(
      mcSeqno,
      classified.rows.trace_classifications.map((c) => c.trace_id),
      rows.jetton_wallets.map((w) => w.address),
    );
    this.s.blocksDecoded++;
    this.s.accountsFailed += failures.length + refused.length;
    this.s.tracesClassified += classified.classified;
    this.s.tracesReclassified += classified.reclassified;
    this.s.tracesFailed += classified.failed;
    this.s.tracesBroken += classified.broken;
    this.s.classifyMs += Math.round(classifyMs);
    this.o.onClassified?.({ classified: classified.classified, reclassified: classified.reclassified, failed: classified.failed, broken: classified.broken, ms: classifyMs });
    for (const f of failures.slice(0, 3)) this.o.log.debug({ account: f.account, mcSeqno }, `decoder: state not read: ${f.reason}`);
    const count = Object.values(rows).reduce((n, r: unknown[]) => n + r.length, 0);
    const ms = performance.now() - started;
    this.o.log.debug({ mcSeqno, rows: count, ms: Math.round(ms) }, "decoded");
    this.o.onBlock?.(mcSeqno, ms, count);
    this.o.onRows?.(rows);
  }

  /** Counts a transient failure, and throws it on. */
  private transient(e: unknown): never {
    if (e instanceof TransientFailure) this.s.transientRetries++;
    throw e;
  }

  private async advance(mcSeqno: number): Promise<void> {
    await setCheckpoint(this.o.store, DECODER_CHECKPOINT, mcSeqno);
    // what the block staged goes to the readers, with the block's number, in one LMDB transaction
    await this.o.keys?.apply(mcSeqno);
    this.s.decodedSeqno = mcSeqno;
    // after each block, not only after a batch: catching up, a batch of blocks takes minutes while
    // the indexer goes on
    this.s.indexedSeqno = Math.max(this.s.indexedSeqno, (await getCheckpoint(this.o.store, INDEXER_CHECKPOINT)) ?? 0);
    this.s.lagBlocks = Math.max(0, this.s.indexedSeqno - mcSeqno);
  }
}
