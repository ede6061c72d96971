// The stream renderer: what the Streaming API serves (`tongate.<network>.stream.events`), rendered
// once, here, from what the services that know it publish — the send service's pending traces
// (pending.traces: pending, confirmed, invalidated), the decoder's decoded blocks (blocks.decoded:
// finalized traces with their actions, jetton wallets) and this indexer's stored blocks
// (blocks.indexed: blocks, finalized account states). Events are unfiltered; the streaming service
// projects each onto each subscription.
//
// One queue, one job at a time, in the order the inputs arrive: a trace's events go out in the
// order its finality grew. Finality only grows per trace (its normalized hash): a pending or
// confirmed trace, or an invalidation, that comes after the trace was published finalized is
// dropped (a bounded memory). The queue is bounded (the oldest job is dropped, counted): the
// renderer never grows without end and never holds indexing up. A trace that fails to render is
// logged and skipped. Message ids (`<stream subject>:<norm>:<finality>`, `<stream subject>:<input
// subject>:<seqno>:<k>`) let JetStream drop what a restarted renderer publishes again.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BlocksDecodedSchema } from "@tongate/proto/gen/tongate/decoder/v1/events_pb.js";
import { BlocksIndexedSchema } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";
import { Finality, PendingTraceChangedSchema } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type StreamEvent, StreamEventSchema, TraceInvalidatedSchema } from "@tongate/proto/gen/tongate/streaming/v1/events_pb.js";
import { blocksDecodedSubject, blocksIndexedSubject, pendingTracesSubject, streamEventsSubject } from "@tongate/proto/subjects.js";
import { type BusMessage, type EventBus, type Logger, LruMap, subscribeWhenUp, type Subscription } from "@tongate/runtime";
import { Counter, Histogram, type Registry } from "prom-client";
import type { Store } from "../api/sql.js";
import { b64, finalityName } from "../api/blockchain/pending.js";
import { blockEvents, finalizedTraceEvents, jettonEvents, pendingTraceEvents } from "./render.js";

/** Jobs waiting at most; past it the oldest is dropped. */
const MAX_QUEUED = 10_000;
/** Traces whose highest published finality is remembered. */
const FINALITY_KEPT = 65_536;
/** How long a trace's finality is remembered (a pending trace lives 60 s at most in the send service). */
const FINALITY_TTL_MS = 10 * 60_000;
/** Finalized traces rendered together (their transactions, actions and book read at once). */
const TRACES_PER_BATCH = 100;
const retryDelay = (attempt: number) => Math.min(2000, 100 * 2 ** Math.min(attempt, 5));

export interface StreamRendererOptions {
  bus: EventBus;
  store: Store;
  network: string;
  log: Logger;
  /** where its metrics go (the indexer module's registry) */
  registry?: Registry;
}

type Kind = "trace" | "accountState" | "jettons" | "invalidated" | "block";

interface Job {
  what: string;
  run: () => Promise<void>;
}

export class StreamRenderer {
  readonly subject: string;
  private readonly subs: Subscription[] = [];
  private readonly queue: Job[] = [];
  private running: Promise<void> | undefined;
  private stopped = false;
  private failing = false;
  /** per trace (norm, base64): the highest finality published, and until when it is remembered (an invalidated trace is forgotten) */
  private readonly finality = new LruMap<string, { finality: Finality; until: number }>(FINALITY_KEPT);
  private readonly published: Counter;
  private readonly failures: Counter;
  private readonly dropped: Counter;
  private readonly seconds: Histogram;

  constructor(private readonly o: StreamRendererOptions) {
    this.subject = streamEventsSubject(o.network);
    const registers = o.registry ? [o.registry] : [];
    this.published = new Counter({ name: "tongate_stream_events_published_total", help: "stream.events published, by kind (trace, accountState, jettons, invalidated, block)", labelNames: ["kind", "finality"], registers });
    this.failures = new Counter({ name: "tongate_stream_render_failures_total", help: "inputs the stream renderer could not render (skipped, logged), by input", labelNames: ["input"], registers });
    this.dropped = new Counter({ name: "tongate_stream_dropped_total", help: "stream inputs dropped: queue (past its bound), stale (a finality at or below one published for the trace)", labelNames: ["reason"], registers });
    this.seconds = new Histogram({ name: "tongate_stream_render_seconds", help: "time to render one input's stream events", labelNames: ["input"], buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1], registers });
  }

  /** Jobs waiting. */
  get depth(): number {
    return this.queue.length;
  }

  start(): Promise<void> {
    const { bus, network } = this.o;
    // a bus not up yet (NATS down at start) is asked again until it takes the subscriptions
    let told = false;
    const onRetry = (err: unknown) => {
      if (!told) this.o.log.warn({ err }, "stream: the bus cannot take the subscriptions yet; asking again until it can");
      told = true;
    };
    this.subs.push(subscribeWhenUp(bus, pendingTracesSubject(network), (m) => this.enqueue("pending.traces", () => this.onPending(m)), { onRetry }));
    this.subs.push(subscribeWhenUp(bus, blocksDecodedSubject(network), (m) => this.enqueue("blocks.decoded", () => this.onDecoded(m)), { onRetry }));
    this.subs.push(subscribeWhenUp(bus, blocksIndexedSubject(network), (m) => this.enqueue("blocks.indexed", () => this.onIndexed(m)), { onRetry }));
    return Promise.resolve();
  }

  async stop(): Promise<void> {
    for (const s of this.subs.splice(0)) await s.unsubscribe().catch(() => undefined);
    this.stopped = true;
    await this.running;
  }

  private enqueue(what: string, run: () => Promise<void>): void {
    if (this.stopped) return;
    this.queue.push({ what, run });
    while (this.queue.length > MAX_QUEUED) {
      this.queue.shift();
      this.dropped.inc({ reason: "queue" });
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
    while (this.queue.length > 0 && !this.stopped) {
      const job = this.queue.shift()!;
      const end = this.seconds.startTimer({ input: job.what });
      try {
        await job.run();
      } catch (err) {
        this.failures.inc({ input: job.what });
        this.o.log.warn({ err, input: job.what }, "stream: an input could not be rendered; its events are skipped");
      }
      end();
    }
  }

  /** Whether `finality` is above what was published for the trace (invalidated: below finalized). */
  private advances(norm: string, finality: Finality | "invalidated"): boolean {
    const seen = this.finality.get(norm);
    const known = seen && seen.until > Date.now() ? seen.finality : undefined;
    if (finality === "invalidated") return known !== Finality.FINALIZED;
    return known === undefined || finality > known;
  }

  private remember(norm: string, finality: Finality): void {
    this.finality.set(norm, { finality, until: Date.now() + FINALITY_TTL_MS });
  }

  private async onPending(m: BusMessage): Promise<void> {
    const e = fromBinary(PendingTraceChangedSchema, m.data);
    const norm = b64(e.externalHashNorm);
    if (e.invalidated) {
      if (!this.advances(norm, "invalidated")) return void this.dropped.inc({ reason: "stale" });
      // an invalidated trace may come again (sent again): it starts from nothing
      this.finality.delete(norm);
      await this.publish(create(StreamEventSchema, { event: { case: "invalidated", value: create(TraceInvalidatedSchema, { traceExternalHashNorm: norm }) }, renderedAtMs: BigInt(Date.now()) }), `${norm}:invalidated`);
      return;
    }
    const trace = e.trace;
    if (!trace) return;
    if (!this.advances(norm, trace.finality)) return void this.dropped.inc({ reason: "stale" });
    const events = await pendingTraceEvents(this.o.store, trace);
    this.remember(norm, trace.finality);
    await this.publishAll(events, `${norm}:${finalityName(trace.finality)}`);
  }

  private async onDecoded(m: BusMessage): Promise<void> {
    const e = fromBinary(BlocksDecodedSchema, m.data);
    const failed = (traceId: string, err: unknown) => {
      this.failures.inc({ input: "trace" });
      this.o.log.warn({ err, traceId, mcSeqno: e.mcSeqno }, "stream: a finalized trace could not be rendered; it is skipped");
    };
    for (let i = 0; i < e.traceIds.length; i += TRACES_PER_BATCH) {
      const batch = e.traceIds.slice(i, i + TRACES_PER_BATCH);
      let rendered: StreamEvent[];
      try {
        rendered = await finalizedTraceEvents(this.o.store, batch, e.mcSeqno, failed);
      } catch (err) {
        // one at a time, so that only the trace that does not render is skipped
        this.o.log.debug({ err, mcSeqno: e.mcSeqno }, "stream: a batch of finalized traces did not render; one at a time");
        rendered = [];
        for (const traceId of batch) rendered.push(...(await finalizedTraceEvents(this.o.store, [traceId], e.mcSeqno, failed).catch((err: unknown) => (failed(traceId, err), []))));
      }
      for (const r of rendered) {
        if (r.event.case !== "trace") continue;
        const norm = r.event.value.traceExternalHashNorm;
        this.remember(norm, Finality.FINALIZED);
        // with the block: a trace classified again in a later block goes out again
        await this.publish(r, `${norm}:finalized:${e.mcSeqno}`);
      }
    }
    await this.publishAll(await jettonEvents(this.o.store, e.jettonWallets, e.mcSeqno), `${m.subject}:${e.mcSeqno}`);
  }

  private async onIndexed(m: BusMessage): Promise<void> {
    const seqno = fromBinary(BlocksIndexedSchema, m.data).masterchain?.seqno;
    if (!seqno) return;
    await this.publishAll(await blockEvents(this.o.store, seqno), `${m.subject}:${seqno}`);
  }

  /** Events of one input: the first with `id`, the others `<id>:<k>`. */
  private async publishAll(events: StreamEvent[], id: string): Promise<void> {
    for (const [k, e] of events.entries()) await this.publish(e, k === 0 ? id : `${id}:${k}`);
  }

  /** Publishes, retrying while the bus fails (the queue behind waits, bounded). */
  private async publish(e: StreamEvent, id: string): Promise<void> {
    const data = toBinary(StreamEventSchema, e);
    for (let attempt = 0; !this.stopped; ) {
      try {
        // JetStream deduplicates ids across its one stream of every subject: the stream's own
        // subject first, so that a block's event is not taken for its blocks.indexed
        await this.o.bus.publish(this.subject, data, { id: `${this.subject}:${id}` });
        this.published.inc({ kind: kindOf(e), finality: finalityOf(e) });
        if (this.failing) {
          this.failing = false;
          this.o.log.info({ subject: this.subject }, "stream: publishing again");
        }
        return;
      } catch (err) {
        if (!this.failing) {
          this.failing = true;
          this.o.log.warn({ err, subject: this.subject }, "stream: the bus does not take events; they wait (bounded)");
        }
        await new Promise((r) => setTimeout(r, retryDelay(attempt++)));
      }
    }
  }
}

const kindOf = (e: StreamEvent): Kind | "none" => e.event.case ?? "none";

function finalityOf(e: StreamEvent): string {
  switch (e.event.case) {
    case "trace":
    case "accountState":
    case "jettons":
      return Finality[e.event.value.finality].toLowerCase();
    default:
      return "";
  }
}
