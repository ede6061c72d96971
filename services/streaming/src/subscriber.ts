// One connection's side of the stream: its subscription, the notifications waiting for the
// transport (a bounded queue: past --stream-buffer notifications or bytes the subscriber is a slow
// consumer, told so with the id to resume from, and its stream ends, so that a client that does
// not read never grows the server), and the traces it was sent non-final data of.
import { create } from "@bufbuild/protobuf";
import { type Notification, NotificationSchema } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import type { NonFinalTraces, Watcher } from "./project.js";
import type { SubscriptionSpec } from "./subscription.js";

export interface BufferLimits {
  maxNotifications: number;
  maxBytes: number;
}

/** Non-final traces remembered per subscriber at most (one that never lands nor is invalidated is forgotten, the oldest first). */
const MAX_NON_FINAL = 10_000;

class BoundedSet implements NonFinalTraces {
  private readonly set = new Set<string>();
  constructor(
    private readonly max: number,
    private readonly onChange: (norm: string, added: boolean) => void,
  ) {}
  has(norm: string): boolean {
    return this.set.has(norm);
  }
  add(norm: string): void {
    if (this.set.has(norm)) return;
    if (this.set.size >= this.max) {
      const oldest = this.set.values().next().value!;
      this.delete(oldest);
    }
    this.set.add(norm);
    this.onChange(norm, true);
  }
  delete(norm: string): void {
    if (this.set.delete(norm)) this.onChange(norm, false);
  }
  clear(): void {
    for (const n of [...this.set]) this.delete(n);
  }
}

export const notification = (event: string, data: string, id = ""): Notification => create(NotificationSchema, { id, event, data });

export class Subscriber implements Watcher {
  spec: SubscriptionSpec;
  /** spec.addresses as a set (the projections ask for each account) */
  addresses: ReadonlySet<string>;
  readonly nonFinal: BoundedSet;
  /** the last bus sequence number projected onto it: nothing at or before it is projected again */
  lastSeq = 0;
  /** the last event id the transport took (what a slow consumer resumes from) */
  lastId: string | undefined;
  /** replaying from the bus's history on a consumer of its own: the shared live fan-out skips it */
  replaying = false;
  /** stops its replay consumer */
  stopReplay: (() => void) | undefined;
  private readonly queue: Notification[] = [];
  private bytes = 0;
  private ended = false;
  private wake: (() => void) | undefined;
  private roomWaiters: (() => void)[] = [];

  constructor(
    /** the client it counts against (API key or IP, from the gateway) */
    readonly client: string,
    /** WebSocket notifications carry "event_id" in their JSON */
    readonly ws: boolean,
    private readonly limits: BufferLimits,
    spec: SubscriptionSpec,
    onNonFinal: (sub: Subscriber, norm: string, added: boolean) => void,
    /** a slow consumer is cut off: the hub forgets it */
    private readonly onSlow: (sub: Subscriber) => void,
  ) {
    this.spec = spec;
    this.addresses = new Set(spec.addresses);
    this.nonFinal = new BoundedSet(MAX_NON_FINAL, (norm, added) => onNonFinal(this, norm, added));
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Queues one notification of event `id`; false when the subscriber was cut off (slow, or closed). */
  pushEvent(id: string, json: string): boolean {
    const data = this.ws ? `{"event_id":${JSON.stringify(id)},${json.slice(1)}` : json;
    return this.push(notification("event", data, id));
  }

  /** Queues an acknowledgement, an error or another notification without an id. */
  push(n: Notification): boolean {
    if (this.ended) return false;
    const size = n.data.length + n.id.length;
    if (this.queue.length >= this.limits.maxNotifications || this.bytes + size > this.limits.maxBytes) {
      this.cutOff();
      return false;
    }
    this.queue.push(n);
    this.bytes += size;
    this.wake?.();
    return true;
  }

  private cutOff(): void {
    const waiting = this.queue.length;
    this.queue.length = 0;
    this.bytes = 0;
    const resume = this.lastId === undefined ? "reconnect (no event was taken yet)" : `resume from ${this.lastId}`;
    const error = `slow consumer: ${waiting} notifications waiting (at most ${this.limits.maxNotifications} or ${this.limits.maxBytes} bytes); ${resume}`;
    this.queue.push(notification("error", JSON.stringify({ type: "error", error, ...(this.lastId === undefined ? {} : { last_event_id: this.lastId }) })));
    this.end();
    this.onSlow(this);
  }

  /**
   * Resolves once the queue is at most half full (or the subscriber ended): a replay from the bus's
   * history waits on it, so that a client catching up is paced by its own reading, never cut off.
   */
  room(): Promise<void> {
    if (this.ended || this.hasRoom()) return Promise.resolve();
    return new Promise((r) => this.roomWaiters.push(r));
  }

  private hasRoom(): boolean {
    return this.queue.length * 2 <= this.limits.maxNotifications && this.bytes * 2 <= this.limits.maxBytes;
  }

  private wakeRoom(): void {
    if (this.roomWaiters.length === 0 || !(this.ended || this.hasRoom())) return;
    for (const r of this.roomWaiters.splice(0)) r();
  }

  /** No more notifications: the stream ends once what is queued is taken. */
  end(): void {
    this.ended = true;
    this.stopReplay?.();
    this.wake?.();
    this.wakeRoom();
  }

  /** The queued notifications as the transport takes them, until the end or `signal`. */
  async *drain(signal: AbortSignal): AsyncGenerator<Notification> {
    const onAbort = () => this.end();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const n = this.queue.shift();
        if (n) {
          this.bytes -= n.data.length + n.id.length;
          if (n.id) this.lastId = n.id;
          this.wakeRoom();
          yield n;
          continue;
        }
        if (this.ended || signal.aborted) return;
        await new Promise<void>((r) => (this.wake = r));
        this.wake = undefined;
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.end();
      this.nonFinal.clear();
    }
  }
}
