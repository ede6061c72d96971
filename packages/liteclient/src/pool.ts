// The liteserver pool of lite-proxy: one connection per liteserver of a TON global config, a health probe
// every second, a consensus masterchain block, sticky sessions (all sub-requests of one HTTP call go to one
// liteserver), fail-over and archival retries, and the sendMessage fan-out. The rules follow toncenter's
// references (../shared/reference/v2-api.md §4.4–4.6); see consensus.ts and liteserver.ts.
import { EventEmitter } from "node:events";
import type { DependencyHealth } from "@tongate/runtime";
import { liteApi, type TlObject } from "@tongate/tl";
import type { LiteAnswer, LiteCall, LiteQueryName } from "./lite-api.js";
import { liteserversFromGlobalConfig, type LiteserverAddress } from "./config.js";
import { ALIVE_TOLERANCE, advanceConsensus, withinConsensus } from "./consensus.js";
import {
  type DownLiteserver,
  LiteServerError,
  LiteserverTimeoutError,
  LiteserverUnavailableError,
  NoAliveLiteserverError,
  PoolClosedError,
  PoolError,
} from "./errors.js";
import { decodeAnswer, Liteserver, messageOf, type LiteserverOptions } from "./liteserver.js";

export interface PoolOptions {
  /** Health probe period (toncenter: 1 s). */
  probeIntervalMs?: number;
  /** Deadline of one probe; a liteserver whose probe fails is not alive. Default 2000. */
  probeTimeoutMs?: number;
  /** TCP connect + ADNL handshake deadline. Default 3000. */
  connectTimeoutMs?: number;
  /** Reconnect backoff: base * 2^attempt with jitter, capped (toncenter CPP re-checks dead ones every 10 s). */
  reconnectBaseMs?: number;
  reconnectMaxMs?: number;
  /** Recycle a connection after this many consecutive failed probes. Default 3. */
  maxProbeFailures?: number;
  /** Alive when within this many blocks of consensus. Default 3 (toncenter CPP). */
  aliveTolerance?: number;
  /** Archival probe period (toncenter CPP: 120 s) and the masterchain block it asks for (CPP: 3). */
  archivalProbeIntervalMs?: number;
  archivalProbeSeqno?: number;
  /** Query deadline when a call gives none. Default 10000 (toncenter's request timeout). */
  defaultTimeoutMs?: number;
  /** Liteservers a broadcast goes to when the call does not say. Default 5 (toncenter CPP). */
  broadcastServers?: number;
  /**
   * The chain is judged halted on /healthz when the consensus masterchain block has not advanced for
   * this long (ms): choose it well above the chain's block interval. Absent or 0: never judged (a
   * chain that seals only on demand).
   */
  haltAfterMs?: number;
}

export interface QueryOptions {
  /** Deadline of the whole call, retries included. */
  timeoutMs?: number;
  /** Prefix liteServer.waitMasterchainSeqno: the liteserver answers once it has this masterchain block. */
  awaitSeqno?: number;
  /** Only an archival liteserver may answer (the session moves to one if it is not on one). */
  archival?: boolean;
}

export interface SessionOptions {
  /** Bind the session to an archival liteserver. */
  archival?: boolean;
}

export interface BroadcastOptions {
  /** Send to up to this many alive liteservers. Default 5. */
  maxServers?: number;
  timeoutMs?: number;
}

export interface LiteserverStatus {
  index: number;
  address: string;
  publicKey: string;
  connected: boolean;
  alive: boolean;
  /** null until the archival probe has answered. */
  archival: boolean | null;
  lastSeqno: number | null;
  /** Blocks behind consensus (negative when ahead); null without a seqno or consensus. */
  lag: number | null;
  latencyMs: number | null;
  /** ms since the epoch of the last successful probe. */
  lastProbeAt: number | null;
  inflight: number;
  /** Why it is not alive (connection, probe or lag); null when alive. */
  error: string | null;
  counters: { queries: number; failures: number; timeouts: number; reconnects: number; probeFailures: number };
}

export interface ConsensusBlock {
  seqno: number;
  /** Unix time (s, fractional) when the consensus last advanced, as toncenter's PY getConsensusBlock. */
  timestamp: number;
}

export interface PoolCounters {
  sessions: number;
  queries: number;
  /** Queries moved to another liteserver after theirs dropped mid-flight. */
  failoverRetries: number;
  /** Queries retried on an archival liteserver after "not in db". */
  archivalRetries: number;
  broadcasts: number;
  broadcastFailures: number;
  /** Calls refused with 542 (no alive liteserver). */
  noAlive: number;
  timeouts: number;
}

export interface PoolStatus {
  consensus: ConsensusBlock | null;
  alive: number;
  total: number;
  liteservers: LiteserverStatus[];
  counters: PoolCounters;
}

export interface RetryEvent {
  reason: "failover" | "archival";
  from: string;
  to: string;
  query: string;
  error: string;
}

export interface PoolEvents {
  /** A liteserver became alive. */
  alive: [LiteserverStatus];
  /** A liteserver stopped being alive (status.error says why). */
  dead: [LiteserverStatus];
  /** The consensus block advanced (or was reset, see consensus.ts). */
  consensus: [ConsensusBlock];
  retry: [RetryEvent];
}

/** Queries that change chain state: never sent twice by fail-over. */
const NOT_RETRYABLE = new Set(["liteServer.sendMessage"]);

const rank = (e: unknown): number =>
  e instanceof LiteServerError ? 3 : e instanceof LiteserverTimeoutError ? 2 : e instanceof LiteserverUnavailableError ? 1 : 0;

const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, Math.max(0, ms)).unref();
  });

interface PickOptions {
  archival: boolean;
  exclude?: Liteserver;
  /** Prefer liteservers that already have this masterchain block. */
  minSeqno?: number;
}

export class LiteserverPool extends EventEmitter<PoolEvents> {
  private readonly servers: Liteserver[];
  private readonly probeTimer: NodeJS.Timeout;
  /** Resolves once every liteserver has had its first connect and probe (bounded by their timeouts). */
  readonly started: Promise<void>;
  private isStarted = false;
  private closed = false;
  private rr = 0;
  private consensusBlock: ConsensusBlock | null = null;
  private aliveWaiters: (() => void)[] = [];
  private readonly tolerance: number;
  private readonly defaultTimeoutMs: number;
  private readonly broadcastServers: number;
  private readonly haltAfterMs: number;
  readonly counters: PoolCounters = { sessions: 0, queries: 0, failoverRetries: 0, archivalRetries: 0, broadcasts: 0, broadcastFailures: 0, noAlive: 0, timeouts: 0 };

  /** A pool over the liteservers of a TON global config (parsed JSON). */
  static fromGlobalConfig(config: unknown, options: PoolOptions = {}): LiteserverPool {
    return new LiteserverPool(liteserversFromGlobalConfig(config), options);
  }

  constructor(liteservers: readonly LiteserverAddress[], options: PoolOptions = {}) {
    super();
    if (liteservers.length === 0) throw new Error("liteserver pool: no liteservers");
    const probeIntervalMs = options.probeIntervalMs ?? 1000;
    const lsOptions: LiteserverOptions = {
      connectTimeoutMs: options.connectTimeoutMs ?? 3000,
      probeTimeoutMs: options.probeTimeoutMs ?? 2000,
      reconnectBaseMs: options.reconnectBaseMs ?? 250,
      reconnectMaxMs: options.reconnectMaxMs ?? 10_000,
      maxProbeFailures: options.maxProbeFailures ?? 3,
      archivalProbeIntervalMs: options.archivalProbeIntervalMs ?? 120_000,
      archivalProbeSeqno: options.archivalProbeSeqno ?? 3,
    };
    this.tolerance = options.aliveTolerance ?? ALIVE_TOLERANCE;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? 10_000;
    this.broadcastServers = options.broadcastServers ?? 5;
    this.haltAfterMs = options.haltAfterMs ?? 0;
    this.servers = liteservers.map((addr) => new Liteserver(addr, lsOptions, () => this.recompute()));
    // Calls that arrive before every liteserver has had its first connect + probe wait for it (bounded),
    // instead of failing with 542 while the pool is still starting.
    const startupBound = lsOptions.connectTimeoutMs + lsOptions.probeTimeoutMs;
    this.started = Promise.race([Promise.all(this.servers.map((s) => s.firstAttempt)).then(() => undefined), sleep(startupBound)]).then(() => {
      this.isStarted = true;
    });
    for (const s of this.servers) s.start();
    this.probeTimer = setInterval(() => {
      for (const s of this.servers) void s.probe();
    }, probeIntervalMs);
    this.probeTimer.unref();
  }

  /** The consensus masterchain block (getConsensusBlock), null before any liteserver answered. */
  get consensus(): ConsensusBlock | null {
    return this.consensusBlock;
  }

  /** A handle whose queries all go to one liteserver (chosen on its first query). */
  session(options: SessionOptions = {}): PoolSession {
    this.counters.sessions++;
    return new PoolSession(this, options.archival ?? false);
  }

  /** One query in a session of its own. */
  query<K extends LiteQueryName>(fn: LiteCall<K>, options: QueryOptions = {}): Promise<LiteAnswer<K>> {
    return this.session().query(fn, options);
  }

  /**
   * Sends `fn` (liteServer.sendMessage) to up to `maxServers` alive liteservers at once (toncenter CPP:
   * 5, PromiseSuccessAny). The first success wins; it fails only when every one failed, with the most
   * informative error (a liteServer.error over a timeout over a lost connection) and `attempts` listing all.
   */
  async broadcast<K extends LiteQueryName>(fn: LiteCall<K>, options: BroadcastOptions = {}): Promise<LiteAnswer<K>> {
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const expected = resultType(fn);
    const bytes = wrapQuery(fn);
    await this.whenStarted(deadline);
    this.counters.broadcasts++;
    const targets = shuffle(this.aliveServers(false)).slice(0, Math.max(1, options.maxServers ?? this.broadcastServers));
    if (targets.length === 0) throw this.noAlive(false);
    return new Promise<LiteAnswer<K>>((resolve, reject) => {
      let pending = targets.length;
      let settled = false;
      const failures: { server: Liteserver; error: unknown }[] = [];
      for (const server of targets) {
        this.exec<K>(server, bytes, expected, deadline - Date.now()).then(
          (answer) => {
            if (settled) return;
            settled = true;
            resolve(answer);
          },
          (error: unknown) => {
            failures.push({ server, error });
            if (--pending > 0 || settled) return;
            settled = true;
            this.counters.broadcastFailures++;
            let best = failures[0]!;
            for (const f of failures) if (rank(f.error) > rank(best.error)) best = f;
            const err = best.error;
            if (err instanceof PoolError) {
              err.attempts = failures.map((f) => ({ liteserver: f.server.address, error: messageOf(f.error) }));
            }
            reject(err);
          },
        );
      }
    });
  }

  /** Resolves when at least one liteserver is alive; rejects with NoAliveLiteserverError after timeoutMs. */
  async ready(timeoutMs = 10_000): Promise<void> {
    if (this.closed) throw new PoolClosedError();
    if (this.aliveServers(false).length > 0) return;
    let waiter!: () => void;
    const alive = new Promise<void>((resolve) => {
      waiter = resolve;
      this.aliveWaiters.push(resolve);
    });
    await Promise.race([alive, sleep(timeoutMs)]);
    this.aliveWaiters = this.aliveWaiters.filter((w) => w !== waiter);
    if (this.closed) throw new PoolClosedError();
    if (this.aliveServers(false).length === 0) throw this.noAlive(false);
  }

  /** Per-liteserver health for /healthz and metrics. */
  status(): PoolStatus {
    const liteservers = this.servers.map((s) => this.statusOf(s));
    return {
      consensus: this.consensusBlock && { ...this.consensusBlock },
      alive: liteservers.filter((s) => s.alive).length,
      total: liteservers.length,
      liteservers,
      counters: { ...this.counters },
    };
  }

  /** The liteservers (ok while one is alive) and the chain they serve (see chainHealth) as dependencies on /healthz. */
  health(): DependencyHealth[] {
    const s = this.status();
    const liteservers: DependencyHealth = {
      name: "liteservers",
      ok: s.alive > 0,
      ...(s.alive > 0 ? {} : { reason: `liteservers: none of ${s.total} is alive (${this.statusLine()})` }),
      detail: { alive: s.alive, total: s.total, line: this.statusLine(), consensusSeqno: s.consensus?.seqno ?? null },
    };
    return [liteservers, this.chainHealth(s)];
  }

  /**
   * Whether the chain advances: not ok once the consensus masterchain block is older than
   * `haltAfterMs`. Judged only while a liteserver is alive (without one nothing is known of the
   * chain, and the liteservers' own state says so).
   */
  chainHealth(s: PoolStatus = this.status()): DependencyHealth {
    const c = s.consensus;
    const idleMs = c ? Math.max(0, Date.now() - c.timestamp * 1000) : null;
    const detail = {
      lastSeqno: c?.seqno ?? null,
      lastAdvancedAt: c ? new Date(c.timestamp * 1000).toISOString() : null,
      idleSeconds: idleMs === null ? null : Math.round(idleMs / 1000),
      haltAfterSeconds: this.haltAfterMs > 0 ? this.haltAfterMs / 1000 : null,
    };
    if (this.haltAfterMs <= 0 || c === null || idleMs === null || s.alive === 0 || idleMs <= this.haltAfterMs) return { name: "chain", ok: true, detail };
    return { name: "chain", ok: false, reason: `chain: no new masterchain block for ${Math.round(idleMs / 1000)} s, last seqno ${c.seqno}`, detail };
  }

  /** toncenter CPP's one-line state: `[A0][a1][.]` (A archival alive, a alive, digit = lag, `.` down). */
  statusLine(): string {
    return this.servers
      .map((s) => {
        if (!s.connected || !s.probeOk) return "[.]";
        const lag = this.consensusBlock && s.lastSeqno !== null ? Math.max(0, this.consensusBlock.seqno - s.lastSeqno) : 0;
        return `[${s.alive ? (s.archival ? "A" : "a") : "-"}${lag > 9 ? "+" : lag}]`;
      })
      .join("");
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.probeTimer);
    for (const s of this.servers) s.close();
    for (const w of this.aliveWaiters) w();
    this.aliveWaiters = [];
  }

  // ----------------------------------------------------------------------------------------------------
  // internals used by PoolSession

  /** @internal */
  async whenStarted(deadline: number): Promise<void> {
    if (this.closed) throw new PoolClosedError();
    if (!this.isStarted) await Promise.race([this.started, sleep(deadline - Date.now())]);
    if (this.closed) throw new PoolClosedError();
  }

  /** @internal Alive liteservers; least in-flight queries first is left to pick(). */
  aliveServers(archival: boolean): Liteserver[] {
    return this.servers.filter((s) => s.alive && s.connected && (!archival || s.archival === true));
  }

  /** @internal Least-loaded alive liteserver (round robin among equals); null when none qualifies. */
  pick(o: PickOptions): Liteserver | null {
    let candidates = this.aliveServers(o.archival).filter((s) => s !== o.exclude);
    if (o.minSeqno !== undefined) {
      const caughtUp = candidates.filter((s) => (s.lastSeqno ?? -1) >= o.minSeqno!);
      if (caughtUp.length > 0) candidates = caughtUp;
    }
    if (candidates.length === 0) return null;
    const start = this.rr++ % candidates.length;
    let best: Liteserver | null = null;
    for (let i = 0; i < candidates.length; i++) {
      const c = candidates[(start + i) % candidates.length]!;
      if (best === null || c.inflight < best.inflight) best = c;
    }
    return best;
  }

  /** @internal The 542 error for the current state: every liteserver that cannot take the call and why. */
  noAlive(archival: boolean): NoAliveLiteserverError {
    this.counters.noAlive++;
    if (this.closed) return new NoAliveLiteserverError([{ liteserver: "*", reason: "pool closed" }], archival);
    const down: DownLiteserver[] = [];
    for (const s of this.servers) {
      const st = this.statusOf(s);
      if (!st.alive) down.push({ liteserver: s.address, reason: st.error ?? "not alive" });
      else if (archival && s.archival !== true) down.push({ liteserver: s.address, reason: s.archival === null ? "archival state not known yet" : "not archival" });
    }
    return new NoAliveLiteserverError(down, archival);
  }

  /** @internal One round trip to `server`, decoded; liteServer.error → LiteServerError. */
  async exec<K extends LiteQueryName>(server: Liteserver, bytes: Buffer, expected: string, timeoutMs: number): Promise<LiteAnswer<K>> {
    if (this.closed) throw new PoolClosedError();
    if (timeoutMs <= 0) {
      this.counters.timeouts++;
      throw new LiteserverTimeoutError(0, server.address);
    }
    this.counters.queries++;
    try {
      return decodeAnswer<K>(await server.query(bytes, timeoutMs), expected, server.address);
    } catch (e) {
      if (e instanceof LiteserverTimeoutError) this.counters.timeouts++;
      if (this.closed && e instanceof LiteserverUnavailableError) throw new PoolClosedError();
      throw e;
    }
  }

  /** @internal */
  get isClosed(): boolean {
    return this.closed;
  }

  /** @internal */
  get defaultTimeout(): number {
    return this.defaultTimeoutMs;
  }

  private statusOf(s: Liteserver): LiteserverStatus {
    const consensus = this.consensusBlock?.seqno ?? null;
    const lag = consensus !== null && s.lastSeqno !== null ? consensus - s.lastSeqno : null;
    let error: string | null = null;
    if (!s.alive) {
      if (!s.connected || !s.probeOk) error = s.lastError ?? "not connected";
      else if (lag !== null) error = `${lag} blocks behind consensus ${consensus} (tolerance ${this.tolerance})`;
      else error = "not probed yet";
    }
    return {
      index: s.addr.index,
      address: s.address,
      publicKey: s.addr.publicKey.toString("base64"),
      connected: s.connected,
      alive: s.alive,
      archival: s.archival,
      lastSeqno: s.lastSeqno,
      lag,
      latencyMs: s.latencyMs === null ? null : Math.round(s.latencyMs * 100) / 100,
      lastProbeAt: s.lastProbeAt,
      inflight: s.inflight,
      error,
      counters: { ...s.counters },
    };
  }

  /** Recomputes consensus and liveness after any change of a liteserver; emits the transitions. */
  private recompute(): void {
    if (this.closed) return;
    const responding = this.servers.filter((s) => s.connected && s.probeOk && s.lastSeqno !== null);
    const held = this.consensusBlock?.seqno ?? null;
    const next = advanceConsensus(held, responding.map((s) => s.lastSeqno!), this.tolerance);
    if (next !== null && next !== held) {
      this.consensusBlock = { seqno: next, timestamp: Date.now() / 1000 };
      this.emit("consensus", { ...this.consensusBlock });
    }
    for (const s of this.servers) {
      const alive = s.connected && s.probeOk && s.lastSeqno !== null && withinConsensus(s.lastSeqno, next, this.tolerance);
      if (alive === s.alive) continue;
      s.alive = alive;
      this.emit(alive ? "alive" : "dead", this.statusOf(s));
    }
    if (this.aliveWaiters.length > 0 && this.servers.some((s) => s.alive)) {
      for (const w of this.aliveWaiters) w();
      this.aliveWaiters = [];
    }
  }
}

/**
 * The liteserver of one HTTP call: every query goes to the same liteserver, so the answers are consistent
 * with each other (toncenter CPP's Session). It moves only when it must: its liteserver dropped mid-flight
 * (a read-only query is retried once on another alive one), it is no longer alive when the next query
 * starts, a query needs an archival liteserver, or a "not in db" answer is retried once on an archival one.
 */
export class PoolSession {
  private bound: Liteserver | null = null;

  constructor(
    private readonly pool: LiteserverPool,
    private readonly archival: boolean,
  ) {}

  /** `host:port` of the liteserver this session is on; null before its first query. */
  get liteserver(): string | null {
    return this.bound?.address ?? null;
  }

  /**
   * Sends `fn` (a lite_api function, e.g. `{kind: "liteServer.getAccountState", id, account}`) as
   * liteServer.query — behind liteServer.waitMasterchainSeqno when `awaitSeqno` is given — and decodes
   * the answer. Fails with LiteServerError (the liteserver's liteServer.error), LiteserverTimeoutError
   * (504), NoAliveLiteserverError (542), LiteserverUnavailableError (542) or PoolClosedError.
   */
  async query<K extends LiteQueryName>(fn: LiteCall<K>, options: QueryOptions = {}): Promise<LiteAnswer<K>> {
    const pool = this.pool;
    const timeoutMs = options.timeoutMs ?? pool.defaultTimeout;
    const deadline = Date.now() + timeoutMs;
    const expected = resultType(fn);
    const archival = this.archival || options.archival === true;
    const bytes = wrapQuery(fn, options.awaitSeqno, timeoutMs);
    await pool.whenStarted(deadline);

    // Stay on the session's liteserver unless it is gone (down, out of consensus) or not archival when needed.
    if (this.bound === null || !this.bound.alive || !this.bound.connected || (archival && this.bound.archival !== true)) {
      const next = pool.pick({ archival, minSeqno: options.awaitSeqno });
      if (next === null) throw pool.noAlive(archival);
      this.bound = next;
    }
    const first = this.bound;
    try {
      return await pool.exec<K>(first, bytes, expected, deadline - Date.now());
    } catch (e) {
      if (pool.isClosed) throw e instanceof PoolClosedError ? e : new PoolClosedError();
      let reason: RetryEvent["reason"];
      let next: Liteserver | null;
      if (e instanceof LiteserverUnavailableError && !NOT_RETRYABLE.has(fn.kind)) {
        // The liteserver dropped mid-flight: a read-only query is safe to send again elsewhere.
        reason = "failover";
        next = pool.pick({ archival, exclude: first, minSeqno: options.awaitSeqno });
        if (next === null) throw pool.noAlive(archival);
      } else if (e instanceof LiteServerError && e.notInDb && !NOT_RETRYABLE.has(fn.kind)) {
        // toncenter's retry_archival: once more on an archival liteserver; without one, the original error.
        reason = "archival";
        next = pool.pick({ archival: true, exclude: first, minSeqno: options.awaitSeqno });
        if (next === null) throw e;
      } else {
        throw e;
      }
      pool.counters[reason === "failover" ? "failoverRetries" : "archivalRetries"]++;
      pool.emit("retry", { reason, from: first.address, to: next.address, query: fn.kind, error: e.message });
      this.bound = next;
      return await pool.exec<K>(next, bytes, expected, deadline - Date.now());
    }
  }
}

function resultType(fn: { readonly kind: LiteQueryName }): string {
  const c = liteApi.byName(fn.kind);
  if (c === undefined || !c.isFunction) throw new TypeError(`${fn.kind} is not a lite_api function`);
  return c.type;
}

/** liteServer.query { data: [liteServer.waitMasterchainSeqno] fn }. */
function wrapQuery(fn: { readonly kind: LiteQueryName }, awaitSeqno?: number, timeoutMs = 0): Buffer {
  let data = liteApi.encode(fn as TlObject);
  if (awaitSeqno !== undefined) {
    // The liteserver gives up waiting a little before our deadline, so its liteServer.error (timeout)
    // arrives instead of a bare client-side timeout.
    const waitMs = Math.max(1, Math.floor(timeoutMs - Math.min(1000, timeoutMs / 5)));
    data = Buffer.concat([liteApi.encode({ kind: "liteServer.waitMasterchainSeqno", seqno: awaitSeqno, timeout_ms: waitMs }), data]);
  }
  return liteApi.encode({ kind: "liteServer.query", data });
}

function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}
