// One liteserver of the pool: its ADNL connection (reconnected with exponential backoff when it drops),
// its health probe (liteServer.getMasterchainInfo: last seqno, latency) and its archival probe.
import { AdnlClient, AdnlClientError } from "@tongate/adnl";
import { liteApi, type TlObject } from "@tongate/tl";
import { MASTERCHAIN_SHARD } from "./block-id.js";
import type { LiteserverAddress } from "./config.js";
import { LiteServerError, LiteserverTimeoutError, LiteserverUnavailableError } from "./errors.js";
import type { LiteAnswer, LiteQueryName } from "./lite-api.js";

export interface LiteserverOptions {
  connectTimeoutMs: number;
  probeTimeoutMs: number;
  reconnectBaseMs: number;
  reconnectMaxMs: number;
  /** Consecutive failed probes (with the connection still open) after which the connection is recycled. */
  maxProbeFailures: number;
  archivalProbeIntervalMs: number;
  archivalProbeSeqno: number;
}

const wrap = (fn: TlObject): Buffer => liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(fn) });

const MASTERCHAIN_INFO_QUERY = wrap({ kind: "liteServer.getMasterchainInfo" });

export const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/**
 * Decodes a liteserver answer to `expected`, the result type of K in lite_api.tl (which LiteAnswer<K> is generated
 * from), throwing liteServer.error as LiteServerError.
 */
export function decodeAnswer<K extends LiteQueryName>(answer: Buffer, expected: string, address: string): LiteAnswer<K> {
  let obj: TlObject;
  try {
    obj = liteApi.decode(answer, [expected, "liteServer.Error"]);
  } catch (e) {
    throw new LiteserverUnavailableError("protocol", `cannot decode the answer as ${expected}: ${messageOf(e)}`, address);
  }
  if (obj.kind === "liteServer.error") throw new LiteServerError(obj.code as number, obj.message as string, address);
  return obj as LiteAnswer<K>;
}

export class Liteserver {
  private client: AdnlClient | null = null;
  private connecting = false;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectAttempts = 0;
  private probing = false;
  private archivalProbing = false;
  private archivalCheckedAt = 0;
  private consecutiveProbeFailures = 0;
  private closed = false;
  private resolveFirstAttempt!: () => void;

  /** Resolves once the first connection attempt (and, when it connected, the first probe) has finished. */
  readonly firstAttempt: Promise<void>;
  /** Masterchain seqno of the last successful probe. */
  lastSeqno: number | null = null;
  /** Round trip of the last successful probe, ms. */
  latencyMs: number | null = null;
  /** When the last probe succeeded (ms since the epoch). */
  lastProbeAt: number | null = null;
  /** The last probe succeeded (and the connection it ran on is still up). */
  probeOk = false;
  /** null until the archival probe has answered. */
  archival: boolean | null = null;
  /** Why this liteserver cannot be used (connection or probe), null when nothing is wrong. */
  lastError: string | null = "connecting";
  /** Set by the pool from the consensus rule. */
  alive = false;
  inflight = 0;
  readonly counters = { queries: 0, failures: 0, timeouts: 0, reconnects: 0, probeFailures: 0 };

  constructor(
    readonly addr: LiteserverAddress,
    private readonly options: LiteserverOptions,
    /** Called whenever connection or probe state changes. */
    private readonly onChange: () => void,
  ) {
    this.firstAttempt = new Promise((resolve) => (this.resolveFirstAttempt = resolve));
  }

  get address(): string {
    return this.addr.address;
  }

  get connected(): boolean {
    return this.client !== null && !this.closed;
  }

  start(): void {
    this.connect();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    this.client?.close();
    this.client = null;
    this.probeOk = false;
    this.alive = false;
    this.resolveFirstAttempt();
  }

  /** Sends one already wrapped liteServer.query; maps transport failures to the pool's typed errors. */
  async query(bytes: Buffer, timeoutMs: number): Promise<Buffer> {
    const client = this.client;
    if (client === null) throw new LiteserverUnavailableError("not-connected", this.lastError ?? "not connected", this.address);
    this.inflight++;
    this.counters.queries++;
    try {
      return await client.query(bytes, timeoutMs);
    } catch (e) {
      this.counters.failures++;
      if (e instanceof AdnlClientError) {
        if (e.code === "timeout") {
          this.counters.timeouts++;
          throw new LiteserverTimeoutError(timeoutMs, this.address);
        }
        throw new LiteserverUnavailableError(e.code === "protocol" ? "protocol" : "closed", e.message, this.address);
      }
      throw e;
    } finally {
      this.inflight--;
    }
  }

  /** One health probe (skipped while the previous one is still running). */
  async probe(): Promise<void> {
    const client = this.client;
    if (client === null || this.probing || this.closed) return;
    this.probing = true;
    const started = performance.now();
    try {
      const info = decodeAnswer<"liteServer.getMasterchainInfo">(await client.query(MASTERCHAIN_INFO_QUERY, this.options.probeTimeoutMs), "liteServer.MasterchainInfo", this.address);
      if (client !== this.client) return;
      this.lastSeqno = info.last.seqno;
      this.latencyMs = performance.now() - started;
      this.lastProbeAt = Date.now();
      this.probeOk = true;
      this.lastError = null;
      this.consecutiveProbeFailures = 0;
      this.reconnectAttempts = 0;
      // The first archival answer is awaited, so calls that wait for the pool to start can already route by it.
      if (this.archival === null) await this.maybeProbeArchival(client);
      else void this.maybeProbeArchival(client);
    } catch (e) {
      if (client !== this.client) return; // the connection went away; onClosed() has recorded why
      this.probeOk = false;
      this.counters.probeFailures++;
      this.consecutiveProbeFailures++;
      this.lastError = `probe failed: ${messageOf(e)}`;
      if (this.consecutiveProbeFailures >= this.options.maxProbeFailures) {
        this.lastError += ` (${this.consecutiveProbeFailures} in a row; reconnecting)`;
        client.close();
      }
    } finally {
      this.probing = false;
      this.resolveFirstAttempt();
      this.onChange();
    }
  }

  private connect(): void {
    if (this.closed || this.client !== null || this.connecting) return;
    this.connecting = true;
    const { host, port, publicKey } = this.addr;
    AdnlClient.connect(host, port, publicKey, { connectTimeoutMs: this.options.connectTimeoutMs }).then(
      (client) => {
        this.connecting = false;
        if (this.closed) {
          client.close();
          return;
        }
        this.client = client;
        this.lastError = "connected, not probed yet";
        this.archivalCheckedAt = 0; // another node may answer at this address now
        void client.closed.then((err) => this.onClosed(client, err));
        this.onChange();
        void this.probe();
      },
      (err: unknown) => {
        this.connecting = false;
        if (this.closed) return;
        this.lastError = `connect failed: ${messageOf(err)}`;
        this.resolveFirstAttempt();
        this.onChange();
        this.scheduleReconnect();
      },
    );
  }

  private onClosed(client: AdnlClient, err: AdnlClientError): void {
    if (client !== this.client) return;
    this.client = null;
    this.probeOk = false;
    if (this.closed) return;
    this.lastError = `connection lost: ${err.message}`;
    this.onChange();
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.closed) return;
    const { reconnectBaseMs, reconnectMaxMs } = this.options;
    const ceiling = Math.min(reconnectMaxMs, reconnectBaseMs * 2 ** Math.min(this.reconnectAttempts, 20));
    const delay = ceiling * (0.5 + Math.random() * 0.5);
    this.reconnectAttempts++;
    this.counters.reconnects++;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = setTimeout(() => this.connect(), delay);
    this.reconnectTimer.unref();
  }

  /**
   * Archival detection as toncenter's CPP does it (`check_archival`, v2-api.md §4.5): liteServer.lookupBlock
   * of masterchain block 3; an answer means the liteserver keeps old blocks, a liteServer.error ("not in db")
   * means it does not. Runs after the first successful probe and then every archivalProbeIntervalMs. On a
   * chain younger than that block the probe asks for the oldest block the liteserver has shown, not a future one.
   */
  private async maybeProbeArchival(client: AdnlClient): Promise<void> {
    if (this.archivalProbing || this.lastSeqno === null) return;
    if (this.archivalCheckedAt !== 0 && Date.now() - this.archivalCheckedAt < this.options.archivalProbeIntervalMs) return;
    this.archivalProbing = true;
    const seqno = Math.min(this.options.archivalProbeSeqno, this.lastSeqno);
    const query = wrap({ kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: MASTERCHAIN_SHARD, seqno } });
    await client
      .query(query, this.options.probeTimeoutMs)
      .then(
        (answer) => {
          decodeAnswer(answer, "liteServer.BlockHeader", this.address);
          return true;
        },
        (e: unknown) => {
          throw new LiteserverUnavailableError("closed", messageOf(e), this.address);
        },
      )
      .then(
        (archival) => this.setArchival(client, archival),
        (e: unknown) => {
          // A liteServer.error is the liteserver saying it has no such block; anything else says nothing.
          if (e instanceof LiteServerError) this.setArchival(client, false);
        },
      )
      .finally(() => {
        this.archivalProbing = false;
      });
  }

  private setArchival(client: AdnlClient, archival: boolean): void {
    if (client !== this.client) return;
    this.archival = archival;
    this.archivalCheckedAt = Date.now();
    this.onChange();
  }
}
