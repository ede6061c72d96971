// The event bus on NATS JetStream (--nats-url). Every subject under `tongate.>` is kept in one
// stream (TONGATE_EVENTS: file storage, a week or 1 GiB of history, a 2-minute duplicate window);
// publish waits for the stream's ack and carries the message id as `Nats-Msg-Id`, so a message
// published again within the window (a block re-published after a crash) is stored once.
// A subscription is an ordered consumer (ephemeral, flow-controlled, resumes after reconnects).
// The connection is a NatsLink (issue 16): it reconnects with backoff by itself, recreates the
// stream when a restarted server has none (a fresh store), and while NATS is down publish fails at
// once (NatsDownError) instead of waiting for an ack that cannot come.
import { consumerOpts, RetentionPolicy, StorageType, type JetStreamClient, type NatsConnection } from "nats";
import { ConfigError } from "./config.js";
import { subjectMatches, type BusMessage, type EventBus, type KeptMessage, type OpenBusOptions, type PublishOptions, type SubscribeOptions, type Subscription } from "./bus.js";
import { createLogger } from "./log.js";
import { isJetStreamTimeout, NatsLink } from "./nats-link.js";
import type { DependencyHealth } from "./service.js";

export const EVENTS_STREAM = "TONGATE_EVENTS";
export const EVENTS_SUBJECTS = ["tongate.>"];
const NS_PER_MS = 1_000_000;
/** A publish whose ack does not come within this fails (the caller retries). */
const PUBLISH_TIMEOUT_MS = 2000;

/** Creates the stream unless the server has it. */
async function ensureStream(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await nc.jetstreamManager({ timeout: PUBLISH_TIMEOUT_MS });
  try {
    await jsm.streams.info(stream);
  } catch {
    await jsm.streams.add({
      name: stream,
      subjects: EVENTS_SUBJECTS,
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: 7 * 24 * 3600 * 1000 * NS_PER_MS,
      max_bytes: 1 << 30,
      duplicate_window: 120_000 * NS_PER_MS,
    });
  }
}

const jetstream = (nc: NatsConnection): JetStreamClient => nc.jetstream({ timeout: PUBLISH_TIMEOUT_MS });

export class NatsBus implements EventBus {
  private constructor(
    private readonly link: NatsLink,
    private readonly stream: string,
  ) {}

  static async connect(url: string, options: OpenBusOptions = {}): Promise<NatsBus> {
    const stream = options.stream ?? EVENTS_STREAM;
    const log = options.log ?? createLogger({ level: "silent" });
    const link = await NatsLink.connect(url, {
      name: options.name ?? "tongate",
      log,
      startDown: options.startDown,
      prepare: async (nc) => {
        try {
          await ensureStream(nc, stream);
        } catch (e) {
          if (isJetStreamTimeout(e)) throw new Error(`JetStream stream "${stream}" did not answer in time`, { cause: e });
          throw new ConfigError(`--nats-url ${url}: JetStream stream "${stream}": ${(e as Error).message} (is the server started with JetStream, -js?)`);
        }
      },
      onState: (state, previous) => {
        if (previous === "up") log.warn({ nats: url, state }, "NATS unreachable: events wait until it returns");
        else if (state === "up") log.info({ nats: url }, "NATS is back");
      },
    });
    return new NatsBus(link, stream);
  }

  /** Fails at once (NatsDownError) while NATS is down. */
  async publish(subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<void> {
    await this.link.run((nc) => jetstream(nc).publish(subject, data, options.id === undefined ? undefined : { msgID: options.id }));
  }

  /** NatsDownError while NATS is down: a subscriber subscribes once it is up. */
  async subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options: SubscribeOptions = {}): Promise<Subscription> {
    // A push-based ordered consumer: nats-server 2.9 (Debian's) does not serve the pull-based
    // ordered consumers of the newer `js.consumers` API.
    const opts = consumerOpts().orderedConsumer().bindStream(this.stream);
    if (options.fromSeq !== undefined) opts.startSequence(Math.max(1, options.fromSeq));
    else if (options.deliver === "all") opts.deliverAll();
    else opts.deliverNew();
    const sub = await jetstream(this.link.connection).subscribe(subject, opts);
    const done = (async () => {
      for await (const m of sub) await handler({ subject: m.subject, data: m.data, seq: m.seq, timeMs: Math.floor(m.info.timestampNanos / NS_PER_MS) });
    })();
    return {
      unsubscribe: async () => {
        sub.unsubscribe();
        await done;
      },
    };
  }

  /** NatsDownError while NATS is down. */
  async kept(subject: string, seq: number): Promise<KeptMessage> {
    return this.link.run(async (nc) => {
      const jsm = await nc.jetstreamManager({ timeout: PUBLISH_TIMEOUT_MS });
      const lastSeq = (await jsm.streams.info(this.stream)).state.last_seq;
      if (seq < 1 || seq > lastSeq) return { lastSeq };
      // a sequence the stream no longer has (past its limits, or deleted) is an error: not kept
      const m = await jsm.streams.getMessage(this.stream, { seq }).catch(() => undefined);
      return m && subjectMatches(subject, m.subject) ? { lastSeq, timeMs: m.time.getTime() } : { lastSeq };
    });
  }

  health(): DependencyHealth {
    const h = this.link.health();
    const reason = h.state === "up" ? {} : { reason: `nats: ${h.state} since ${h.since}` };
    return { name: "nats", ok: h.state === "up", ...reason, detail: { url: this.link.url, stream: this.stream, ...h } };
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}
