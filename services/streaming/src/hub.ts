// The fan-out of `stream.events` to this process's subscribers. One bus subscription feeds them
// all: each event is decoded once and offered only to the subscribers of the accounts and traces it
// concerns (maps of address → subscribers, trace → subscribers), so many subscribers cost nothing
// per event beyond the matching ones. A subscriber that resumes from an event id replays from the
// bus's history on a consumer of its own, projected by its current subscription, until it reaches
// what the shared subscription has delivered; then it joins the live fan-out. Every subscriber
// remembers the last bus sequence number projected onto it, so the switch neither skips nor repeats
// an event.
import { apiError, type BusMessage, type EventBus, type Logger, type Subscription } from "@tongate/runtime";
import { BusEvent } from "./event.js";
import type { StreamingMetrics } from "./metrics.js";
import { project } from "./project.js";
import { notification, type BufferLimits, Subscriber } from "./subscriber.js";
import { FINALIZED, type SubscriptionSpec } from "./subscription.js";

/** What the in-process bus keeps of the stream at most, besides the retention window (NATS keeps its stream's week). */
const HISTORY_MESSAGES = 200_000;
const HISTORY_BYTES = 256 << 20;
/** Traces whose last event was non-final, remembered for resumes at most (the oldest forgotten first). */
const RECENT_NON_FINAL = 20_000;
/** Between attempts to subscribe while the bus is down. */
const RETRY_MS = 2000;

export interface HubOptions {
  /** how far back a client may resume (the bus keeps at least this much) */
  retentionMs: number;
  buffer: BufferLimits;
  /** connections per client (API key or IP) at most */
  maxConnections: number;
  /** addresses per connection at most */
  maxAddresses: number;
  now?: () => number;
}

/** What /healthz shows of the stream. */
export interface HubCounts {
  subscribers: number;
  notifications: number;
  slowConsumers: number;
  resumes: number;
  resumeGaps: number;
  lastSeq: number;
}

/** "<seq>" or "<seq>.<k>" (the k-th notification one bus event gave); undefined for anything else. */
export function parseEventId(id: string): { seq: number; k: number } | undefined {
  const m = /^(\d{1,15})(?:\.(\d{1,6}))?$/.exec(id.trim());
  if (!m || Number(m[1]) < 1) return undefined;
  return { seq: Number(m[1]), k: m[2] === undefined ? Infinity : Number(m[2]) };
}

const addTo = <K, V>(index: Map<K, Set<V>>, key: K, v: V): void => {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(v);
};

const removeFrom = <K, V>(index: Map<K, Set<V>>, key: K, v: V): void => {
  const set = index.get(key);
  if (!set) return;
  set.delete(v);
  if (set.size === 0) index.delete(key);
};

export class Hub {
  private readonly byAddress = new Map<string, Set<Subscriber>>();
  private readonly byTrace = new Map<string, Set<Subscriber>>();
  /** the subscribers sent non-final data of a trace (its invalidation goes to them) */
  private readonly byNonFinal = new Map<string, Set<Subscriber>>();
  private readonly blockWatchers = new Set<Subscriber>();
  private readonly subscribers = new Set<Subscriber>();
  private readonly connections = new Map<string, number>();
  /**
   * The traces whose last event was non-final (not finalized, not invalidated yet): the accounts it
   * touched and its bus sequence number. A resumed client was sent what came before its id on
   * another connection: these say which invalidations are its business.
   */
  private readonly recentNonFinal = new Map<string, { accounts: readonly string[]; seq: number }>();
  private live: Subscription | undefined;
  private retry: NodeJS.Timeout | undefined;
  private stopped = false;
  /** the newest sequence number the shared subscription has fanned out (at start: the bus's newest) */
  private liveSeq = 0;
  private readonly now: () => number;
  readonly counts: HubCounts = { subscribers: 0, notifications: 0, slowConsumers: 0, resumes: 0, resumeGaps: 0, lastSeq: 0 };

  constructor(
    private readonly bus: EventBus,
    private readonly subject: string,
    private readonly options: HubOptions,
    private readonly metrics: StreamingMetrics,
    private readonly log: Logger,
  ) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Subscribes to the bus from the message after its newest (so that a resume's replay knows where
   * live begins). A bus that is down (NATS at start) is retried in the background: the service
   * answers meanwhile, its subscribers get events once it is up (`subscribed` says whether it is).
   */
  async start(): Promise<void> {
    this.bus.keepHistory?.({ subjects: [this.subject], maxMessages: HISTORY_MESSAGES, maxBytes: HISTORY_BYTES, maxAgeMs: this.options.retentionMs });
    try {
      const { lastSeq } = await this.bus.kept(this.subject, 0);
      this.liveSeq = Math.max(this.liveSeq, lastSeq);
      this.live = await this.bus.subscribe(this.subject, (m) => this.onLive(m), { fromSeq: lastSeq + 1 });
    } catch (err) {
      if (this.stopped) return;
      this.log.warn({ err }, "streaming: not subscribed to the bus yet; retrying");
      this.retry = setTimeout(() => void this.start(), RETRY_MS);
      this.retry.unref();
    }
  }

  get subscribed(): boolean {
    return this.live !== undefined;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    for (const s of [...this.subscribers]) s.end();
    await this.live?.unsubscribe();
  }

  /** A new connection of `client` (429 past its connections); `sse` picks the address limit's wording. */
  open(client: string, ws: boolean, spec: SubscriptionSpec): Subscriber {
    const n = this.connections.get(client) ?? 0;
    if (n >= this.options.maxConnections) throw apiError(429, `connection limit reached: ${n} active connections`);
    this.checkAddresses(spec, !ws);
    this.connections.set(client, n + 1);
    const sub = new Subscriber(
      client,
      ws,
      this.options.buffer,
      spec,
      (s, norm, added) => (added ? addTo(this.byNonFinal, norm, s) : removeFrom(this.byNonFinal, norm, s)),
      () => {
        this.counts.slowConsumers++;
        this.metrics.slow.inc();
      },
    );
    sub.lastSeq = this.liveSeq;
    this.subscribers.add(sub);
    this.index(sub);
    this.counts.subscribers = this.subscribers.size;
    this.metrics.subscribers.inc({ transport: ws ? "ws" : "sse" });
    return sub;
  }

  close(sub: Subscriber): void {
    if (!this.subscribers.delete(sub)) return;
    sub.end();
    this.unindex(sub);
    sub.nonFinal.clear();
    const n = (this.connections.get(sub.client) ?? 1) - 1;
    if (n > 0) this.connections.set(sub.client, n);
    else this.connections.delete(sub.client);
    this.counts.subscribers = this.subscribers.size;
    this.metrics.subscribers.dec({ transport: sub.ws ? "ws" : "sse" });
  }

  /** Replaces a subscriber's subscription (a WebSocket subscribe or unsubscribe); a 400 past the address limit. */
  replace(sub: Subscriber, spec: SubscriptionSpec): void {
    this.checkAddresses(spec, !sub.ws);
    this.unindex(sub);
    sub.spec = spec;
    sub.addresses = new Set(spec.addresses);
    this.index(sub);
  }

  private checkAddresses(spec: SubscriptionSpec, sse: boolean): void {
    const n = spec.addresses.length;
    const max = this.options.maxAddresses;
    if (n <= max) return;
    throw apiError(400, sse ? `too many addresses: ${n} > max ${max}` : `address limit exceeded: current 0 + new ${n} > max ${max}`);
  }

  private index(sub: Subscriber): void {
    for (const a of sub.spec.addresses) addTo(this.byAddress, a, sub);
    for (const t of sub.spec.traces) addTo(this.byTrace, t, sub);
    if (sub.spec.types.has("blocks")) this.blockWatchers.add(sub);
  }

  private unindex(sub: Subscriber): void {
    for (const a of sub.spec.addresses) removeFrom(this.byAddress, a, sub);
    for (const t of sub.spec.traces) removeFrom(this.byTrace, t, sub);
    this.blockWatchers.delete(sub);
  }

  private decode(m: BusMessage): BusEvent | undefined {
    try {
      return BusEvent.decode(m.seq, m.data);
    } catch (err) {
      this.log.warn({ err, seq: m.seq }, "streaming: a stream event that does not decode is skipped");
      return undefined;
    }
  }

  private onLive(m: BusMessage): void {
    this.liveSeq = Math.max(this.liveSeq, m.seq);
    this.counts.lastSeq = this.liveSeq;
    this.metrics.events.inc();
    const ev = this.decode(m);
    if (!ev) return;
    this.rememberNonFinal(ev);
    if (this.subscribers.size === 0) return;
    const candidates = new Set<Subscriber>();
    const add = (set: Set<Subscriber> | undefined) => set?.forEach((s) => candidates.add(s));
    for (const a of ev.accounts()) add(this.byAddress.get(a));
    const e = ev.event.event;
    if (e.case === "trace") add(this.byTrace.get(e.value.traceExternalHashNorm));
    else if (e.case === "invalidated") add(this.byNonFinal.get(e.value.traceExternalHashNorm));
    else if (e.case === "block") add(this.blockWatchers);
    for (const s of candidates) if (!s.replaying && !s.closed && m.seq > s.lastSeq) this.deliver(s, ev);
  }

  private rememberNonFinal(ev: BusEvent): void {
    const e = ev.event.event;
    if (e.case === "invalidated") this.recentNonFinal.delete(e.value.traceExternalHashNorm);
    if (e.case !== "trace") return;
    const norm = e.value.traceExternalHashNorm;
    this.recentNonFinal.delete(norm);
    if (e.value.finality >= FINALIZED) return;
    this.recentNonFinal.set(norm, { accounts: ev.accounts(), seq: ev.seq });
    if (this.recentNonFinal.size > RECENT_NON_FINAL) this.recentNonFinal.delete(this.recentNonFinal.keys().next().value!);
  }

  /** The non-final traces a client resuming after `seq` may have been sent (on its earlier connection). */
  private restoreNonFinal(sub: Subscriber, seq: number): void {
    const s = sub.spec;
    if (s.minFinality >= FINALIZED) return;
    const byAccount = s.types.has("transactions") || s.types.has("actions");
    const byTrace = s.types.has("trace");
    for (const [norm, t] of this.recentNonFinal) {
      if (t.seq > seq) continue;
      if ((byTrace && s.traces.includes(norm)) || (byAccount && t.accounts.some((a) => sub.addresses.has(a)))) sub.nonFinal.add(norm);
    }
  }

  /** Projects `ev` onto `sub` and queues its notifications, but for the first `skipThrough` (a resume inside an event). */
  private deliver(sub: Subscriber, ev: BusEvent, skipThrough = 0): void {
    sub.lastSeq = ev.seq;
    let jsons: string[];
    try {
      jsons = project(ev, sub, (a) => sub.addresses.has(a));
    } catch (err) {
      this.log.warn({ err, seq: ev.seq }, "streaming: a stream event that cannot be projected is skipped");
      return;
    }
    for (let i = 0; i < jsons.length; i++) {
      if (i + 1 <= skipThrough) continue;
      const id = jsons.length === 1 ? String(ev.seq) : `${ev.seq}.${i + 1}`;
      if (!sub.pushEvent(id, jsons[i]!)) {
        this.close(sub);
        return;
      }
      this.counts.notifications++;
      this.metrics.notifications.inc();
    }
  }

  private gap(sub: Subscriber, id: string, error: string): void {
    this.counts.resumeGaps++;
    this.metrics.gaps.inc();
    sub.lastSeq = this.liveSeq;
    sub.replaying = false;
    sub.push(notification("resume_gap", JSON.stringify({ type: "resume_gap", error, last_event_id: id })));
  }

  /**
   * Delivers what followed event `id` from the bus's history, projected by the subscriber's current
   * subscription, then live events; past the retention window, or an id this stream never gave, one
   * resume_gap notification and live events.
   */
  async resume(sub: Subscriber, id: string): Promise<void> {
    this.counts.resumes++;
    this.metrics.resumes.inc();
    sub.stopReplay?.();
    const at = parseEventId(id);
    if (!at) return this.gap(sub, id, `"${id}" is not an event id of this stream (<number> or <number>.<number>)`);
    // from here the live fan-out skips it: the replay delivers everything after `id`
    sub.replaying = true;
    let kept;
    try {
      kept = await this.bus.kept(this.subject, at.seq);
    } catch (err) {
      this.log.warn({ err }, "streaming: the bus cannot tell what it keeps; a resume is answered with a gap");
      return this.gap(sub, id, `the event bus is unreachable: events after ${id} cannot be replayed`);
    }
    const retentionS = Math.round(this.options.retentionMs / 1000);
    if (at.seq > kept.lastSeq) return this.gap(sub, id, `event ${id} was never given by this stream (its newest is ${kept.lastSeq}); events may have been missed: re-read them from API v3`);
    const missed = "events after it may have been missed: re-read them from API v3";
    if (kept.timeMs === undefined) return this.gap(sub, id, `event ${id} is no longer kept (the stream keeps ${retentionS} s), or is not one of this stream's; ${missed}`);
    if (kept.timeMs < this.now() - this.options.retentionMs) return this.gap(sub, id, `event ${id} is past the ${retentionS} s retention window; ${missed}`);
    if (sub.closed) return;
    this.restoreNonFinal(sub, at.seq);
    sub.lastSeq = at.seq - 1;
    // the replay's subscription, once the bus gave it (its handler may finish before)
    const replay: { sub?: Subscription } = {};
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      sub.replaying = false;
      sub.stopReplay = undefined;
      if (replay.sub) void replay.sub.unsubscribe().catch(() => undefined);
    };
    sub.stopReplay = finish;
    replay.sub = await this.bus.subscribe(
      this.subject,
      async (m) => {
        // paced by the client's reading (the bus holds the rest), never past its buffer
        await sub.room();
        if (done || sub.closed) return;
        if (m.seq > sub.lastSeq) {
          const ev = this.decode(m);
          if (ev) this.deliver(sub, ev, m.seq === at.seq ? at.k : 0);
          else sub.lastSeq = m.seq;
        }
        // caught up with the shared subscription: what comes next, it delivers
        if (m.seq >= this.liveSeq) finish();
      },
      { fromSeq: at.seq },
    );
    if (done) void replay.sub.unsubscribe().catch(() => undefined);
  }
}
