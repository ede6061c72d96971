// The event bus: services publish events (protobuf bytes) on subjects and others subscribe, without
// knowing which bus they got (ARCHITECTURE.md, "Embedded default and distributed mode"):
// - in process (embedded default): `InProcessBus`, delivery to this process's subscribers only, no
//   history — a subscriber sees what is published after it subscribed;
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
}

export interface Subscription {
  unsubscribe(): Promise<void>;
}

export interface EventBus {
  /** Resolves once the bus has taken the message (JetStream: stored in the stream). */
  publish(subject: string, data: Uint8Array, options?: PublishOptions): Promise<void>;
  /** Messages on subjects matching `subject`, to `handler` one at a time in order. */
  subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options?: SubscribeOptions): Promise<Subscription>;
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

/**
 * The embedded bus. publish() resolves once every subscriber has been handed the message (not
 * once it has handled it); a handler's failure is reported to `onError` and does not stop the bus.
 */
export class InProcessBus implements EventBus {
  private readonly subs = new Set<InProcessSub>();
  private seq = 0;
  private closed = false;

  constructor(private readonly onError: (e: unknown, m: BusMessage) => void = () => {}) {}

  publish(subject: string, data: Uint8Array): Promise<void> {
    if (this.closed) return Promise.reject(new Error("the event bus is closed"));
    const m: BusMessage = { subject, data, seq: ++this.seq };
    for (const sub of this.subs) {
      if (!subjectMatches(sub.pattern, subject)) continue;
      sub.tail = sub.tail.then(async () => {
        if (!sub.active) return;
        try {
          await sub.handler(m);
        } catch (e) {
          this.onError(e, m);
        }
      });
    }
    return Promise.resolve();
  }

  subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options: SubscribeOptions = {}): Promise<Subscription> {
    if (options.deliver === "all") return Promise.reject(new Error("the in-process event bus keeps no history (deliver: all)"));
    const sub: InProcessSub = { pattern: subject, handler, tail: Promise.resolve(), active: true };
    this.subs.add(sub);
    return Promise.resolve({
      unsubscribe: async () => {
        sub.active = false;
        this.subs.delete(sub);
        await sub.tail;
      },
    });
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
