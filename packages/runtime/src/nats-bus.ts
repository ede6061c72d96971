// The event bus on NATS JetStream (--nats-url). Every subject under `tongate.>` is kept in one
// stream (TONGATE_EVENTS: file storage, a week or 1 GiB of history, a 2-minute duplicate window);
// publish waits for the stream's ack and carries the message id as `Nats-Msg-Id`, so a message
// published again within the window (a block re-published after a crash) is stored once.
// A subscription is an ordered consumer (ephemeral, flow-controlled, resumes after reconnects).
import { connect, consumerOpts, RetentionPolicy, StorageType, type JetStreamClient, type NatsConnection } from "nats";
import { ConfigError } from "./config.js";
import type { BusMessage, EventBus, OpenBusOptions, PublishOptions, SubscribeOptions, Subscription } from "./bus.js";

export const EVENTS_STREAM = "TONGATE_EVENTS";
export const EVENTS_SUBJECTS = ["tongate.>"];
const NS_PER_MS = 1_000_000;

export class NatsBus implements EventBus {
  private readonly js: JetStreamClient;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
  ) {
    this.js = nc.jetstream();
  }

  static async connect(url: string, options: OpenBusOptions = {}): Promise<NatsBus> {
    const stream = options.stream ?? EVENTS_STREAM;
    let nc: NatsConnection;
    try {
      nc = await connect({ servers: url.split(",").map((s) => s.trim()), name: options.name ?? "tongate", maxReconnectAttempts: -1 });
    } catch (e) {
      throw new ConfigError(`--nats-url ${url}: ${(e as Error).message}`);
    }
    try {
      const jsm = await nc.jetstreamManager();
      const config = {
        name: stream,
        subjects: EVENTS_SUBJECTS,
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        max_age: 7 * 24 * 3600 * 1000 * NS_PER_MS,
        max_bytes: 1 << 30,
        duplicate_window: 120_000 * NS_PER_MS,
      };
      try {
        await jsm.streams.info(stream);
      } catch {
        await jsm.streams.add(config);
      }
    } catch (e) {
      await nc.close();
      throw new ConfigError(`--nats-url ${url}: JetStream stream "${stream}": ${(e as Error).message} (is the server started with JetStream, -js?)`);
    }
    return new NatsBus(nc, stream);
  }

  async publish(subject: string, data: Uint8Array, options: PublishOptions = {}): Promise<void> {
    await this.js.publish(subject, data, options.id === undefined ? undefined : { msgID: options.id });
  }

  async subscribe(subject: string, handler: (m: BusMessage) => void | Promise<void>, options: SubscribeOptions = {}): Promise<Subscription> {
    // A push-based ordered consumer: nats-server 2.9 (Debian's) does not serve the pull-based
    // ordered consumers of the newer `js.consumers` API.
    const opts = consumerOpts().orderedConsumer().bindStream(this.stream);
    if (options.deliver === "all") opts.deliverAll();
    else opts.deliverNew();
    const sub = await this.js.subscribe(subject, opts);
    const done = (async () => {
      for await (const m of sub) await handler({ subject: m.subject, data: m.data, seq: m.seq });
    })();
    return {
      unsubscribe: async () => {
        sub.unsubscribe();
        await done;
      },
    };
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}
