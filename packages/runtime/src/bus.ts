// The event bus: services publish events (protobuf bytes) on subjects and others subscribe, without
// knowing which bus they got (ARCHITECTURE.md, "Embedded default and distributed mode"):
// - in process (embedded default): `InProcessBus`, delivery to this process's subscribers only; no
//   history unless asked for some subjects (keepHistory: bounded by count, bytes and age), from which
//   a subscriber may start at a sequence number (a stream client that resumes);
// - NATS JetStream (distributed, `--nats-url`): `NatsBus` (./nats-bus.ts, loaded by openBus only
//   when asked for), a stream over `tongate.>`, so subscribers may also replay.
// Subjects are NATS subjects: tokens separated by '.', `*` matches one token and `>` the rest (in
// subscriptions only). Events are named `tongate.<network>.<event>` (e.g. tongate.mainnet.blocks.indexed).
import type { Logger } from "./log.js";
import { resourceKey, type DependencyHealth } from "./service.js";

export interface BusMessage {
  subject: string;
  data: Uint8Array;
  /** the bus's sequence number of the message (JetStream's stream sequence; in process a counter) */
  seq: number;
  /** when the bus took it (unix ms) */
  timeMs: number;
}

export interface PublishOptions {
  /**
   * The message's identity: publishing the same id again (e.g. after a crash) is dropped by a bus
   * that deduplicates (JetStream, within its duplicate window). The in-process bus ignores it.
   */
  id?: string;
}

export interface SubscribeOptions {
  /** "new" (default): messages published from now on; "all": the bus's history first (JetStream only) */
  deliver?: "new" | "all";
  /**
   * Start at this sequence number (inclusive) with what the bus still keeps, then go on live without
   * a gap; overrides `deliver`. The in-process bus keeps only the subjects given to keepHistory.
   */
  fromSeq?: number;
}

/** What a bus tells of a sequence number (the retention check of a stream client that resumes). */
export interface KeptMessage {
  /** the bus's newest sequence number (any subject): a larger one was never published on this bus */
  lastSeq: number;
  /** when the message `seq` was taken, if the bus still keeps it and its subject matches */
  timeMs?: number;
}

/** The in-process bus's history: what it keeps of the subjects asked for, the oldest dropped first past any bound. */
export interface HistoryLimits {
  /** subject patterns kept */
  subjects: readonly string[];
  maxMessages: number;
  maxBytes: number;
  maxAgeMs: number;
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the bus has taken the message (JetStream: stored in the stream). */
  publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void>;
  /** Messages on subjects matching `subject`, to `handler` one at a time in order. */
  subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options?: SubscribeOptions): Promise<Subscription>;
  /** The newest sequence number, and whether `seq` is still kept on `subject` and since when. */
  kept(subject: string, seq: number): Promise<KeptMessage>;
  /** Asks the bus to keep these subjects' messages for fromSeq, besides what others asked (NATS keeps every subject a week: nothing to do). */
  keepHistory?(limits: HistoryLimits): void;
  close(): Promise<void>;
  /** The broker's state for /healthz (NATS); the in-process bus has none. */
  health?(): DependencyHealth;
}

/** The event bus a host hands the services that need one (in process unless the command provides NATS). */
export const busKey = resourceKey<EventBus>("an event bus");

/** Whether a concrete subject matches a subscription pattern (`*` one token, `>` one or more). */
export function subjectMatches(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}

/** A subject token made of what a network name may hold (letters, digits, '-' and '_'). */
export function subjectToken(name: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(name)) throw new Error(`"${name}" cannot be a subject token (letters, digits, '-' and '_' only)`);
  return name;
}

interface InProcessSub {
  pattern: string;
  handler: (m: BusMessage) => void | Promise<void>;
  /** this subscriber's deliveries, chained so that it sees messages one at a time in order */
  tail: Promise<void>;
  active: boolean;
}

/** The kept messages of the subjects asked for, oldest first, within the bounds (a queue with a moving head). */
class History {
  private readonly messages: BusMessage[] = [];
  private head = 0;
  private bytes = 0;

  constructor(
    readonly limits: HistoryLimits,
    private readonly now: () => number,
  ) {}

  keeps(subject: string): boolean {
    return this.limits.subjects.some((p) => subjectMatches(p, subject));
  }

  add(m: BusMessage): void {
    this.messages.push(m);
    this.bytes += m.data.length;
    this.trim();
  }

  /** The kept messages from `seq` on (inclusive) on subjects matching `pattern`. */
  from(seq: number, pattern: string): BusMessage[] {
    this.trim();
    const out: BusMessage[] = [];
    for (let i = this.indexOf(seq); i < this.messages.length; i++) {
      const m = this.messages[i]!;
      if (subjectMatches(pattern, m.subject)) out.push(m);
    }
    return out;
  }

  find(seq: number): BusMessage | undefined {
    this.trim();
    const m = this.messages[this.indexOf(seq)];
    return m?.seq === seq ? m : undefined;
  }

  /** The first index whose seq is at least `seq` (seqs increase). */
  private indexOf(seq: number): number {
    let lo = this.head;
    let hi = this.messages.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.messages[mid]!.seq < seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private trim(): void {
    const oldest = this.now() - this.limits.maxAgeMs;
    const { maxMessages, maxBytes } = this.limits;
    while (this.head < this.messages.length) {
      const m = this.messages[this.head]!;
      if (this.messages.length - this.head <= maxMessages && this.bytes <= maxBytes && m.timeMs >= oldest) break;
      this.bytes -= m.data.length;
      this.head++;
    }
    // the dropped head is cut off once it is half the array: amortized O(1) per message
    if (this.head > 1024 && this.head * 2 > this.messages.length) {
      this.messages.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * The embedded bus. publish() resolves once every subscriber has been handed the message (not
 * once it has handled it); a handler's failure is reported to `onError` and does not stop the bus.
 */
export class InProcessBus implements EventBus {
  private readonly subs = new Set<InProcessSub>();
  private seq = 0;
  private closed = false;
  private history: History | undefined;

  constructor(
    private readonly onError: (e: unknown, m: BusMessage) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** Keeps the messages of `limits.subjects` too: with earlier calls, every subject asked for, within the largest bounds asked for. */
  keepHistory(limits: HistoryLimits): void {
    const previous = this.history;
    const p = previous?.limits;
    const merged: HistoryLimits = p
      ? {
          subjects: [...new Set([...p.subjects, ...limits.subjects])],
          maxMessages: Math.max(p.maxMessages, limits.maxMessages),
          maxBytes: Math.max(p.maxBytes, limits.maxBytes),
          maxAgeMs: Math.max(p.maxAgeMs, limits.maxAgeMs),
        }
      : limits;
    this.history = new History(merged, this.now);
    for (const m of previous?.from(0, ">") ?? []) this.history.add(m);
  }

  publish(subject: string, data: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the event bus is closed"));
    const m: BusMessage = { subject, data, seq: ++this.seq, timeMs: this.now() };
    if (this.history?.keeps(subject)) this.history.add(m);
    for (const sub of this.subs) if (subjectMatches(sub.pattern, subject)) this.deliver(sub, m);
    return Promise.resolve();
  }

  private deliver(sub: InProcessSub, m: BusMessage): void {
    sub.tail = sub.tail.then(async () => {
      if (!sub.active) return;
      try {
        await sub.handler(m);
      } catch (e) {
        this.onError(e, m);
      }
    });
  }

  subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options: SubscribeOptions = {}): Promise<Subscription> {
    if (options.fromSeq === undefined && options.deliver === "all") return Promise.reject(new Error("the in-process event bus keeps no history (deliver: all)"));
    const sub: InProcessSub = { pattern: subject, handler, tail: Promise.resolve(), active: true };
    // the kept messages are queued before the sub is added, both synchronously: the live ones follow without a gap or a repeat
    if (options.fromSeq !== undefined) for (const m of this.history?.from(options.fromSeq, subject) ?? []) this.deliver(sub, m);
    this.subs.add(sub);
    return Promise.resolve({
      unsubscribe: async () => {
        sub.active = false;
        this.subs.delete(sub);
        await sub.tail;
      },
    });
  }

  kept(subject: string, seq: number): Promise<KeptMessage> {
    const m = this.history?.find(seq);
    return Promise.resolve(m && subjectMatches(subject, m.subject) ? { lastSeq: this.seq, timeMs: m.timeMs } : { lastSeq: this.seq });
  }

  async close(): Promise<void> {
    this.closed = true;
    const subs = [...this.subs];
    this.subs.clear();
    await Promise.all(subs.map((s) => s.tail));
  }
}

export interface OpenBusOptions {
  /** NATS server(s), comma-separated: JetStream; absent: the in-process bus */
  natsUrl?: string;
  /** JetStream stream (default TONGATE_EVENTS over `tongate.>`) */
  stream?: string;
  /** connection name shown by the server */
  name?: string;
  /** where the connection's outages and returns are logged */
  log?: Logger;
  /** NATS unreachable at start: connect in the background (publish fails until then) instead of a ConfigError */
  startDown?: boolean;
}

/** The bus a deployment asked for: NATS JetStream with `natsUrl`, otherwise in process. */
export async function openBus(options: OpenBusOptions = {}): Promise<EventBus> {
  if (!options.natsUrl) return new InProcessBus();
  const { NatsBus } = await import("./nats-bus.js");
  return NatsBus.connect(options.natsUrl, options);
}

/**
 * A subscription that holds while the bus cannot take it yet (NATS down when a process starts with
 * --nats-url): asked again every `retryMs` until it is made, `onRetry` told each failure. A
 * subscriber that only ever learns of events this way would otherwise hear nothing for its life.
 */
export function subscribeWhenUp(
  bus: EventBus,
  subject: string,
  handler: (m: BusMessage) => void | Promise<void>,
  o: { retryMs?: number; onRetry?: (e: unknown) => void } = {},
): Subscription {
  let sub: Subscription | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = async (): Promise<void> => {
    try {
      const s = await bus.subscribe(subject, handler);
      if (stopped) await s.unsubscribe();
      else sub = s;
    } catch (e) {
      if (stopped) return;
      o.onRetry?.(e);
      timer = setTimeout(() => void attempt(), o.retryMs ?? 2000);
      timer.unref();
    }
  };
  const first = attempt();
  return {
    unsubscribe: async () => {
      stopped = true;
      clearTimeout(timer);
      await first;
      await sub?.unsubscribe();
    },
  };
}
