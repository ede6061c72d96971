// A NATS connection that knows whether the broker can be used now, so that callers never wait on a
// broker that is down (issue 16). The nats client reconnects by itself (forever, with backoff:
// RECONNECT_MIN_MS doubling up to RECONNECT_MAX_MS, from the first attempt again after each
// reconnect); the link watches its status events and is `up` only while connected and `prepare`
// (what the caller needs on the server: a KV bucket, a stream) has succeeded since the last
// (re)connection — a restarted server may have lost what lived in its memory or a fresh store.
// `run` rejects at once with NatsDownError while the link is down, and as soon as it goes down
// during an operation; a failing operation makes the link prepare again before it is up (and the
// operations in flight fail at once). A caller that must not wait (ratelimit) gives `run` a
// deadline: an operation during which the server has sent nothing on the connection for that long
// (a server that is stopping answers nothing for a while before its sockets close; a hung one never)
// fails with NatsDeadlineError and counts as a failure, so the calls after it do not wait either.
// A server that cannot be reached at start does not stop the process: with `startDown` the link
// starts down and connects in the background (a malformed URL, refused credentials, a server without
// JetStream are still errors at start).
import { connect, Events, type NatsConnection } from "nats";
import { ConfigError } from "./config.js";
import type { Logger } from "./log.js";

export const RECONNECT_MIN_MS = 100;
export const RECONNECT_MAX_MS = 2000;

/** connected and prepared ("up"); connected, preparing; disconnected, reconnecting; closed. */
export type NatsState = "up" | "preparing" | "reconnecting" | "closed";

/** The broker cannot be used now; the caller answers without it. */
export class NatsDownError extends Error {
  constructor(
    readonly state: NatsState,
    message = `NATS is ${state === "closed" ? "closed" : "unreachable"}`,
  ) {
    super(message);
  }
}

/** The broker sent nothing for an operation's deadline while it waited: the caller answers without it, and the link prepares again. */
export class NatsDeadlineError extends NatsDownError {
  constructor(readonly deadlineMs: number) {
    super("preparing", `NATS sent nothing for ${deadlineMs} ms`);
  }
}

/** Whether a failed first connection means the server is not there now (retry in the background), not a wrong setting. */
export function isUnreachable(e: unknown): boolean {
  if (e instanceof TypeError) return false; // a malformed URL
  const code = errorCode(e);
  // nats.js's own codes for a server that is not there; system errors (ECONNRESET, ENOTFOUND while DNS has no record yet, …)
  return ["CONNECTION_REFUSED", "CONNECTION_TIMEOUT", "TIMEOUT", "DISCONNECT", "CONNECTION_CLOSED"].includes(code) || /^E[A-Z_]+$/.test(code);
}

/**
 * A JetStream request the server did not answer in time (a server slow to start JetStream, or a
 * loaded machine): worth trying again, unlike an error the server answered with.
 */
export function isJetStreamTimeout(e: unknown): boolean {
  return errorCode(e) === "TIMEOUT";
}

/** nats.js's error code of an error, or a system error's ("" when none). */
function errorCode(e: unknown): string {
  return typeof e === "object" && e !== null && "code" in e ? String(e.code) : "";
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
   * A server that cannot be reached at start: false (default) — a ConfigError; true — the link
   * starts down and connects in the background (a process started or restarted during an outage:
   * the indexer's events wait in its outbox, ratelimit answers by its outage policy). A malformed
   * URL or refused credentials are a ConfigError either way.
   */
  startDown?: boolean;
}

/** A PING answered by the server's PONG, within ROUND_TRIP_TIMEOUT_MS. */
const ROUND_TRIP_TIMEOUT_MS = 1000;
async function roundTrip(nc: NatsConnection): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([nc.flush(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`NATS did not answer a PING within ${ROUND_TRIP_TIMEOUT_MS} ms`)), ROUND_TRIP_TIMEOUT_MS)))]);
  } finally {
    clearTimeout(timer);
  }
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
  /** Whether the next check before the link is up must run `prepare` (after a (re)connection or an error), not just a round trip. */
  private full = true;
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
      if (!options.startDown || !isUnreachable(e)) throw new ConfigError(`--nats-url ${url}: ${(e as Error).message}`);
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
      if (e instanceof ConfigError) {
        await nc.close();
        throw e;
      }
      // connected, but the server did not answer the preparation in time: it goes on in the
      // background, as after a reconnection (degraded until it is ready)
      options.log.warn({ nats: url, err: e }, "NATS is connected but not ready at start; preparing in the background");
      link.set("preparing");
      void link.watch();
      link.prepareLoop();
      return link;
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

  /**
   * Runs `op` against the broker; NatsDownError at once while it is down or once it goes down
   * meanwhile; NatsDeadlineError once the server has sent nothing for `deadlineMs` while `op` waits
   * (`op` goes on, its result unused: `abandoned` is aborted then, so an op of several steps stops
   * before a write whose caller has already been answered otherwise).
   */
  async run<T>(op: (nc: NatsConnection, abandoned: AbortSignal) => Promise<T>, o: { deadlineMs?: number } = {}): Promise<T> {
    const nc = this.connection;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const abandon = new AbortController();
    const racers: Promise<T>[] = [op(nc, abandon.signal), this.down];
    if (o.deadlineMs !== undefined) {
      const ms = o.deadlineMs;
      racers.push(
        new Promise<never>((_, reject) => {
          // The deadline is silence: a server that answered anything on this connection within the
          // last `ms` is alive and the operation waits on (e.g. retries of a contended KV entry).
          let heard = nc.stats().inBytes;
          const check = () => {
            if (settled) return;
            const now = nc.stats().inBytes;
            if (now !== heard) {
              heard = now;
              timer = setTimeout(later, ms);
            } else {
              reject(new NatsDeadlineError(ms));
            }
          };
          // A timer that fires late because the event loop was busy must not beat an answer that
          // arrived meanwhile: it is read in this turn's poll phase, before setImmediate.
          const later = () => setImmediate(check);
          timer = setTimeout(later, ms);
        }),
      );
    }
    try {
      return await Promise.race(racers);
    } catch (e) {
      if (e instanceof NatsDownError && !(e instanceof NatsDeadlineError)) throw e;
      // The broker answered wrongly (e.g. the KV bucket is gone after a restart, or the server is
      // shutting down): prepare again; silent past a deadline (stopping, hung, or only slow on a
      // loaded machine): a round trip to it first. Calls meanwhile do not wait on it.
      if (this.current === "up" && !nc.isClosed()) {
        this.options.log.warn({ err: e, nats: this.url }, e instanceof NatsDeadlineError ? "NATS is silent; checking it before the next operation" : "NATS operation failed; preparing the connection again");
        this.set("preparing");
        this.prepareLoop(!(e instanceof NatsDeadlineError));
      }
      throw e;
    } finally {
      settled = true;
      clearTimeout(timer);
      abandon.abort();
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

  /**
   * Prepares until it succeeds (then the link is up) or the connection is lost again. `full` false:
   * the server was only silent for a while, a round trip (PING/PONG) shows it answers again.
   */
  private prepareLoop(full = true): void {
    this.full ||= full;
    if (this.preparing) return;
    this.preparing = (async () => {
      for (let attempt = 0; this.current === "preparing"; attempt++) {
        const prepare = this.full;
        this.full = false;
        try {
          if (prepare) await this.options.prepare?.(this.nc!);
          else await roundTrip(this.nc!);
          // a reconnection meanwhile asks for the whole preparation
          if (this.full) continue;
          if (this.current === "preparing") this.set("up");
          return;
        } catch (e) {
          this.full ||= prepare;
          if (attempt === 0) this.options.log.warn({ err: e, nats: this.url }, "NATS is connected but not ready; retrying");
          await new Promise((r) => setTimeout(r, backoff(attempt)));
        }
      }
    })().finally(() => {
      this.preparing = undefined;
      // lost and regained while this loop was ending: check again
      if (this.current === "preparing") this.prepareLoop(false);
    });
  }
}
