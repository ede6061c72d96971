// The outbox of a service that publishes one event per masterchain block it stored (the indexer's
// blocks.indexed, the decoder's blocks.decoded; docs/architecture.md, "A new event"): the event is
// rebuildable from the store, a cursor checkpoint holds the last one published, and a loop sends
// from the cursor in order with a message id, retrying while the bus fails. The service's work
// never awaits the bus.
import type { EventBus, Logger } from "@tongate/runtime";
import { getCheckpoint, setCheckpoint } from "./checkpoints.js";
import type { Store } from "./store.js";

/** Waits between attempts to publish while the bus fails: doubling from 100 ms to 2 s. */
const retryDelay = (attempt: number) => Math.min(2000, 100 * 2 ** Math.min(attempt, 5));
/** The published cursor is written at most this often while events flow (and whenever the outbox empties). */
const CURSOR_EVERY_MS = 200;
/** Events kept in memory for publishing; older unpublished ones are rebuilt from the store. */
const MAX_PENDING = 10_000;

export interface OutboxOptions {
  log?: Logger;
  metrics?: { outbox(depth: number, lagSeconds: number): void };
}

/** Rebuilds the event of block `seqno` from the store (null: the block has none); `stored`: the last one stored. */
export type RebuildEvent = (seqno: number, stored: number | undefined) => Promise<Uint8Array | null>;

/**
 * Publishes one event per masterchain block of a service on a bus, every block once and in order,
 * without ever holding the service's work up: an outbox. The store is the outbox — a block's event
 * is rebuilt from the rows stored with its checkpoint (`rebuild`) — and the checkpoint
 * `outbox:<subject>` is the last seqno published. `stored` only records that a block is stored
 * (with its event, when the caller has it at hand); a loop publishes what follows the cursor,
 * retrying with backoff while the bus fails (NATS down), each with the message id
 * `<subject>:<seqno>` so JetStream drops the re-publish of an event published just before a crash
 * (the cursor trails the publishes by at most CURSOR_EVERY_MS).
 */
export class CheckpointOutbox {
  readonly subject: string;
  /** the last seqno published (undefined: none yet, the first stored block is the first event) */
  private published: number | undefined;
  /** the last seqno stored */
  private lastStored: number | undefined;
  /** events of stored blocks not yet published, and when each block was stored */
  private readonly pending = new Map<number, Uint8Array>();
  private readonly storedAt = new Map<number, number>();
  private running: Promise<void> | undefined;
  private stopped = false;
  private cursorWrittenAt = 0;
  private cursorWritten: number | undefined;
  private failing = false;
  private readonly wake = new Set<() => void>();
  /** since when events have been waiting (undefined: none wait) */
  private behindSince: number | undefined;

  constructor(
    private readonly bus: EventBus,
    subject: string,
    private readonly store: Store,
    private readonly rebuild: RebuildEvent,
    private readonly o: OutboxOptions = {},
  ) {
    this.subject = subject;
  }

  /** The checkpoint holding the last seqno published. */
  get cursor(): string {
    return `outbox:${this.subject}`;
  }

  /** Events stored and not yet published. */
  get depth(): number {
    return this.lastStored === undefined || this.published === undefined ? 0 : Math.max(0, this.lastStored - this.published);
  }

  /** Records that block `seqno` is stored (with its event, or it is rebuilt); the event is published in the background. */
  stored(seqno: number, event?: Uint8Array): void {
    // a block stored again at or below the cursor is a deliberate re-index: its events go out again
    if (this.published === undefined || seqno <= this.published) this.published = seqno - 1;
    if (event && this.pending.size < MAX_PENDING) this.pending.set(seqno, event);
    if (this.storedAt.size < MAX_PENDING * 10) this.storedAt.set(seqno, Date.now());
    this.lastStored = Math.max(this.lastStored ?? 0, seqno);
    this.kick();
  }

  /**
   * Continues from the cursor up to the block under `checkpoint` (events a crash or an outage left
   * unpublished). Without a cursor (an index written before the outbox) the last checkpointed
   * block's event is published again, as before. Returns the checkpointed seqno, or null.
   */
  async resume(checkpoint: string): Promise<number | null> {
    const seqno = await getCheckpoint(this.store, checkpoint);
    if (seqno === null || seqno < 1) return null;
    const cursor = await getCheckpoint(this.store, this.cursor);
    this.published = cursor === null ? seqno - 1 : Math.min(cursor, seqno);
    this.cursorWritten = cursor ?? undefined;
    this.lastStored = Math.max(this.lastStored ?? 0, seqno);
    this.kick();
    return seqno;
  }

  /** Resolves once every event stored so far is published (it waits for the bus), or `signal` aborts. */
  async flush(signal?: AbortSignal): Promise<void> {
    while (this.depth > 0 && !this.stopped && !signal?.aborted) {
      await new Promise<void>((r) => {
        this.wake.add(r);
        setTimeout(r, 200).unref();
      });
    }
  }

  /** Stops publishing; the cursor is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.wake) w();
    await this.running;
    await this.writeCursor(true).catch((err: unknown) => this.o.log?.warn({ err }, `${this.subject}: the outbox cursor was not written`));
  }

  private kick(): void {
    this.report();
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.depth > 0 && !this.stopped) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let attempt = 0; this.depth > 0 && !this.stopped; ) {
      const seqno = this.published! + 1;
      try {
        const e = this.pending.get(seqno) ?? (await this.rebuild(seqno, this.lastStored));
        // a block not stored (a range that began above it) has no event
        if (e) await this.bus.publish(this.subject, e, { id: `${this.subject}:${seqno}` });
        this.published = seqno;
        this.pending.delete(seqno);
        this.storedAt.delete(seqno);
        attempt = 0;
        if (this.failing) {
          this.failing = false;
          this.o.log?.info({ subject: this.subject, seqno, pending: this.depth }, `${this.subject}: publishing again`);
        }
        await this.writeCursor(this.depth === 0);
        this.report();
      } catch (err) {
        if (!this.failing) {
          this.failing = true;
          this.o.log?.warn({ err, subject: this.subject, seqno }, `${this.subject}: the bus does not take events; they wait in the outbox (the service goes on)`);
        }
        this.report();
        await new Promise((r) => setTimeout(r, retryDelay(attempt++)));
      }
    }
    for (const w of this.wake) w();
    this.wake.clear();
  }

  private async writeCursor(now: boolean): Promise<void> {
    if (this.published === undefined || this.published === this.cursorWritten) return;
    if (!now && Date.now() - this.cursorWrittenAt < CURSOR_EVERY_MS) return;
    const seqno = this.published;
    this.cursorWrittenAt = Date.now();
    await setCheckpoint(this.store, this.cursor, seqno);
    this.cursorWritten = seqno;
  }

  private report(): void {
    const depth = this.depth;
    if (depth === 0) this.behindSince = undefined;
    else this.behindSince ??= Date.now();
    const oldest = (this.published === undefined ? undefined : this.storedAt.get(this.published + 1)) ?? this.behindSince;
    this.o.metrics?.outbox(depth, depth > 0 && oldest !== undefined ? (Date.now() - oldest) / 1000 : 0);
  }
}

