// The send service's events: `tongate.<network>.pending.traces` (tongate.send.v1.PendingTraceChanged)
// at each transition of a pending trace — emulated (pending), confirmed (its real transactions in
// signed shard blocks), invalidated — from the replica that made it. Pending traces live in memory
// (or JetStream KV), not in a store, so the outbox is in memory too: bounded (past it the oldest
// event is dropped and counted), sent in order by one loop that retries while the bus fails, never
// awaited by the send path. The message id `<norm hex>:<finality|invalidated>` lets JetStream drop
// a transition two replicas both saw.
import { create, toBinary } from "@bufbuild/protobuf";
import { Finality, type PendingTrace, type PendingTraceChanged, PendingTraceChangedSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { pendingTracesSubject } from "@tongate/proto/subjects.js";
import type { EventBus, Logger } from "@tongate/runtime";
import { hex } from "./pending-store.js";

/** Events waiting for the bus at most; past it the oldest is dropped (a pending trace is best effort). */
const MAX_QUEUED = 10_000;
/** Waits between attempts while the bus fails: doubling from 100 ms to 2 s. */
const retryDelay = (attempt: number) => Math.min(2000, 100 * 2 ** Math.min(attempt, 5));

/** What the pending engine and the finality tracker tell of a trace's transitions. */
export interface PendingTransitions {
  /** The trace as it is now (pending after its emulation, confirmed once every transaction is). */
  changed(trace: PendingTrace): void;
  invalidated(trace: PendingTrace, reason: string): void;
}

export const NO_TRANSITIONS: PendingTransitions = { changed: () => {}, invalidated: () => {} };

const FINALITY_TOKEN: Record<Finality, string> = {
  [Finality.UNSPECIFIED]: "unspecified",
  [Finality.PENDING]: "pending",
  [Finality.CONFIRMED]: "confirmed",
  [Finality.FINALIZED]: "finalized",
};

interface Queued {
  id: string;
  data: Uint8Array;
}

export interface PendingEventsMetrics {
  published(kind: "pending" | "confirmed" | "invalidated"): void;
  dropped(): void;
}

export class PendingEvents implements PendingTransitions {
  readonly subject: string;
  private readonly queue: Queued[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private failing = false;

  constructor(
    private readonly bus: EventBus,
    network: string,
    private readonly log: Logger,
    private readonly metrics?: PendingEventsMetrics,
  ) {
    this.subject = pendingTracesSubject(network);
  }

  /** Events not yet published. */
  get depth(): number {
    return this.queue.length;
  }

  changed(trace: PendingTrace): void {
    const norm = hex(trace.externalHashNorm);
    this.enqueue(`${norm}:${FINALITY_TOKEN[trace.finality]}`, create(PendingTraceChangedSchema, { trace, externalHashNorm: trace.externalHashNorm }));
  }

  invalidated(trace: PendingTrace, reason: string): void {
    const norm = hex(trace.externalHashNorm);
    this.enqueue(`${norm}:invalidated`, create(PendingTraceChangedSchema, { invalidated: true, externalHashNorm: trace.externalHashNorm, reason }));
  }

  /** Resolves once every event queued so far is published, or `signal` aborts. */
  async flush(signal?: AbortSignal): Promise<void> {
    while (this.queue.length > 0 && !this.stopped && !signal?.aborted) await new Promise((r) => setTimeout(r, 20));
  }

  /** Stops publishing (what is queued is lost: a pending trace is best effort). */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private enqueue(id: string, e: PendingTraceChanged): void {
    if (this.stopped) return;
    // the trace is encoded now: the engine goes on changing its entry in place
    this.queue.push({ id, data: toBinary(PendingTraceChangedSchema, e) });
    while (this.queue.length > MAX_QUEUED) {
      this.queue.shift();
      this.metrics?.dropped();
    }
    this.kick();
  }

  private kick(): void {
    // an event queued after the loop saw the queue empty, before it ended, starts it again
    this.running ??= this.drain().finally(() => {
      this.running = undefined;
      if (this.queue.length > 0 && !this.stopped) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let attempt = 0; this.queue.length > 0 && !this.stopped; ) {
      const next = this.queue[0]!;
      try {
        await this.bus.publish(this.subject, next.data, { id: next.id });
        if (this.queue[0] === next) this.queue.shift();
        attempt = 0;
        this.metrics?.published(kindOf(next.id));
        if (this.failing) {
          this.failing = false;
          this.log.info({ subject: this.subject, queued: this.queue.length }, "pending.traces: publishing again");
        }
      } catch (err) {
        if (!this.failing) {
          this.failing = true;
          this.log.warn({ err, subject: this.subject }, "pending.traces: the bus does not take events; they wait in memory (sends go on)");
        }
        await new Promise((r) => setTimeout(r, retryDelay(attempt++)));
      }
    }
  }
}

const kindOf = (id: string): "pending" | "confirmed" | "invalidated" => {
  const k = id.slice(id.lastIndexOf(":") + 1);
  return k === "confirmed" || k === "invalidated" ? k : "pending";
};
