// A NATS connection that knows whether the broker can be used now, so that callers never wait on a
// broker that is down (issue 16). The nats client reconnects by itself (forever, with backoff:
// RECONNECT_MIN_MS doubling up to RECONNECT_MAX_MS, from the first attempt again after each
// reconnect); the link watches its status events and is `up` only while connected and `prepare`
// (what the caller needs on the server: a KV bucket, a stream) has succeeded since the last
// (re)connection — a restarted server may have lost what lived in its memory or a fresh store.
// `run` rejects at once with NatsDownError while the link is down, and as soon as it goes down
// during an operation; a failing operation makes the link prepare again before it is up.
import { connect, Events, type NatsConnection } from "nats";
import { ConfigError } from "./config.js";
import type { Logger } from "./log.js";

export const RECONNECT_MIN_MS = 100;
export const RECONNECT_MAX_MS = 2000;

/** connected and prepared ("up"); connected, preparing; disconnected, reconnecting; closed. */
export type NatsState = "up" | "preparing" | "reconnecting" | "closed";

/** The broker cannot be used now; the caller answers without it. */
export class NatsDownError extends Error {
  constructor(readonly state: NatsState) {
    super(`NATS is ${state === "closed" ? "closed" : "unreachable"}`);
  }
}

export interface NatsLinkOptions {
  /** The connection's name on the server. */
  name: string;
  log: Logger;
  /** What must exist on the server before the link is up; run after every (re)connection, retried with backoff. */
  prepare?: (nc: NatsConnection) => Promise<void>;
  /** Told of every state change but closing (e.g. to log or count outages). */
  onState?: (state: NatsState, previous: NatsState) => void;
  /**
   * A server that cannot be reached at start: false (default) — a ConfigError (a wrong URL is said
   * at once); true — the link starts down and connects in the background (a process restarted
   * during an outage, e.g. the indexer, whose events wait in its outbox).
   */
  startDown?: boolean;
}

/** The delays of reconnection attempts: doubling from RECONNECT_MIN_MS to RECONNECT_MAX_MS, ±20 % jitter. */
export function backoff(attempt: number): number {
  const base = Math.min(RECONNECT_MAX_MS, RECONNECT_MIN_MS * 2 ** Math.min(attempt, 16));
  return Math.round(base * (0.8 + Math.random() * 0.4));
}

export class NatsLink {
  private current: NatsState = "preparing";
  private since = Date.now();
  private outages = 0;
  /** Rejected when the link goes down: in-flight operations race it. */
  private down!: Promise<never>;
  private fail!: (e: NatsDownError) => void;
  private preparing: Promise<void> | undefined;
  private nc: NatsConnection | undefined;
  /** the background connection of a link that started down */
  private connecting: Promise<void> | undefined;
  private attempt = 0;

  private constructor(
    readonly url: string,
    private readonly options: NatsLinkOptions,
  ) {
    this.arm();
  }

  private dial(waitOnFirstConnect: boolean): Promise<NatsConnection> {
    return connect({
      servers: this.url.split(",").map((s) => s.trim()),
      name: this.options.name,
      maxReconnectAttempts: -1,
      waitOnFirstConnect,
      reconnectDelayHandler: () => backoff(this.attempt++),
      // a partitioned (not closed) server is noticed after 2 missed pings of 5 s
      pingInterval: 5000,
      maxPingOut: 2,
    });
  }

  /** Connects and prepares; a server that cannot be reached is a ConfigError unless `startDown`. */
  static async connect(url: string, options: NatsLinkOptions): Promise<NatsLink> {
    const link = new NatsLink(url, options);
    let nc: NatsConnection;
    try {
      nc = await link.dial(false);
    } catch (e) {
      if (!options.startDown) throw new ConfigError(`--nats-url ${url}: ${(e as Error).message}`);
      options.log.warn({ nats: url, err: e }, "NATS unreachable at start; connecting in the background");
      link.current = "reconnecting";
      link.connecting = link.dial(true).then(
        (late) => {
          if (link.current === "closed") return void late.close();
          link.nc = late;
          void link.watch();
          link.set("preparing");
          link.prepareLoop();
        },
        (err: unknown) => options.log.error({ nats: url, err }, "NATS: gave up connecting"),
      );
      return link;
    }
    link.nc = nc;
    try {
      await options.prepare?.(nc);
    } catch (e) {
      await nc.close();
      throw e;
    }
    link.set("up");
    void link.watch();
    return link;
  }

  /** The connection, while it is up (NatsDownError otherwise). */
  get connection(): NatsConnection {
    if (this.current !== "up" || !this.nc) throw new NatsDownError(this.current);
    return this.nc;
  }

  get state(): NatsState {
    return this.current;
  }

  get up(): boolean {
    return this.current === "up";
  }

  /** For /healthz. */
  health(): { state: NatsState; since: string; outages: number } {
    return { state: this.current, since: new Date(this.since).toISOString(), outages: this.outages };
  }

  /** Runs `op` against the broker; NatsDownError at once while it is down or once it goes down meanwhile. */
  async run<T>(op: (nc: NatsConnection) => Promise<T>): Promise<T> {
    const nc = this.connection;
    try {
      return await Promise.race([op(nc), this.down]);
    } catch (e) {
      if (e instanceof NatsDownError) throw e;
      // The broker answered wrongly or not in time (e.g. the KV bucket is gone after a restart): prepare again.
      if (this.current === "up" && !nc.isClosed()) {
        this.options.log.warn({ err: e, nats: this.url }, "NATS operation failed; preparing the connection again");
        this.set("preparing");
        this.prepareLoop();
      }
      throw e;
    }
  }

  async close(): Promise<void> {
    this.set("closed");
    const nc = this.nc;
    if (nc && !nc.isClosed()) await nc.drain().catch(() => nc.close());
  }

  private arm(): void {
    this.down = new Promise<never>((_, reject) => (this.fail = reject));
    // nobody may be racing it when it fires
    this.down.catch(() => undefined);
  }

  private set(state: NatsState): void {
    const previous = this.current;
    if (previous === state || previous === "closed") return;
    this.current = state;
    this.since = Date.now();
    if (previous === "up") {
      this.outages++;
      this.fail(new NatsDownError(state));
      this.arm();
    }
    // closed is only ever our own doing (the client reconnects forever): nothing to tell
    if (state !== "closed") this.options.onState?.(state, previous);
  }

  private async watch(): Promise<void> {
    for await (const s of this.nc!.status()) {
      if (s.type === Events.Disconnect) {
        this.set("reconnecting");
      } else if (s.type === Events.Reconnect) {
        this.attempt = 0;
        this.set("preparing");
        this.prepareLoop();
      }
    }
    this.set("closed");
  }

  /** Prepares until it succeeds (then the link is up) or the connection is lost again. */
  private prepareLoop(): void {
    if (this.preparing) return;
    this.preparing = (async () => {
      for (let attempt = 0; this.current === "preparing"; attempt++) {
        try {
          await this.options.prepare?.(this.nc!);
          if (this.current === "preparing") this.set("up");
          return;
        } catch (e) {
          if (attempt === 0) this.options.log.warn({ err: e, nats: this.url }, "NATS reconnected but not ready; retrying");
          await new Promise((r) => setTimeout(r, backoff(attempt)));
        }
      }
    })().finally(() => (this.preparing = undefined));
  }
}
