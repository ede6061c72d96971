// Prometheus metrics and health of the indexer (`tongate index --metrics-listen`): where it is
// (last stored masterchain seqno, the head, the lag in blocks and seconds) and how fast it goes
// (blocks, transactions and rows stored; insert duration per masterchain block).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { Health } from "@tongate/runtime";
import type { StoredMcBlock } from "./follower/index-range.js";

export class IndexerMetrics {
  readonly registry = new Registry();
  private readonly lastSeqno = this.gauge("tongate_indexer_last_mc_seqno", "Last masterchain seqno stored (rows and checkpoint)");
  private readonly headSeqno = this.gauge("tongate_indexer_head_mc_seqno", "The liteserver's masterchain head as last seen");
  private readonly lagBlocks = this.gauge("tongate_indexer_lag_blocks", "Masterchain blocks between the last stored one and the head");
  private readonly lagSeconds = this.gauge("tongate_indexer_lag_seconds", "Seconds between the last stored masterchain block's gen_utime and its storing");
  private readonly blocks = new Counter({ name: "tongate_indexer_blocks_total", help: "Blocks stored (masterchain and shard)", registers: [this.registry] });
  private readonly transactions = new Counter({ name: "tongate_indexer_transactions_total", help: "Transactions stored", registers: [this.registry] });
  private readonly rows = new Counter({ name: "tongate_indexer_rows_inserted_total", help: "Rows inserted, by table", labelNames: ["table"], registers: [this.registry] });
  private readonly insertDuration = new Histogram({
    name: "tongate_indexer_insert_duration_seconds",
    help: "Time to insert one masterchain block's rows and move the checkpoint",
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly outboxDepth = this.gauge("tongate_indexer_outbox_depth", "blocks.indexed events stored and not yet published (the bus is down or behind)");
  private readonly publishLag = this.gauge("tongate_indexer_publish_lag_seconds", "Seconds since the oldest unpublished blocks.indexed event was stored (0: none waits)");
  private readonly errors = new Counter({ name: "tongate_indexer_errors_total", help: "Failed indexing rounds (retried)", registers: [this.registry] });
  private last: { seqno: number; head: number; lagSeconds: number; at: number } | undefined;
  private lastError: { message: string; at: number } | undefined;
  private outboxNow = { depth: 0, lagSeconds: 0 };

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry, prefix: "tongate_" });
  }

  private gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.registry] });
  }

  /** For IndexRangeOptions/FollowOptions.onStored. */
  readonly stored = (b: StoredMcBlock): void => {
    const lagSeconds = b.progress.lagSeconds;
    this.lastSeqno.set(b.mcSeqno);
    this.setHead(b.headSeqno, b.mcSeqno);
    this.lagSeconds.set(lagSeconds);
    this.blocks.inc(b.blocks.length);
    this.transactions.inc(b.transactions);
    for (const [table, n] of Object.entries(b.rows)) if (n > 0) this.rows.inc({ table }, n);
    this.insertDuration.observe(b.insertSeconds);
    this.last = { seqno: b.mcSeqno, head: b.headSeqno, lagSeconds, at: Date.now() };
    this.lastError = undefined;
  };

  /** The head seen (e.g. at start, before anything is stored). */
  setHead(head: number, last = this.last?.seqno): void {
    this.headSeqno.set(head);
    if (last !== undefined) this.lagBlocks.set(Math.max(0, head - last));
  }

  /** The blocks.indexed outbox: events waiting, and for how long the oldest has. */
  outbox(depth: number, lagSeconds: number): void {
    this.outboxNow = { depth, lagSeconds };
    this.outboxDepth.set(depth);
    this.publishLag.set(lagSeconds);
  }

  failed(e: unknown): void {
    this.errors.inc();
    this.lastError = { message: e instanceof Error ? e.message : String(e), at: Date.now() };
  }

  /** /healthz: ok unless the last round failed and nothing was stored since. */
  health(): Health {
    const detail = {
      lastMcSeqno: this.last?.seqno ?? null,
      headMcSeqno: this.last?.head ?? null,
      lagBlocks: this.last ? Math.max(0, this.last.head - this.last.seqno) : null,
      lagSeconds: this.last ? Number(this.last.lagSeconds.toFixed(3)) : null,
      lastStoredAt: this.last ? new Date(this.last.at).toISOString() : null,
      outbox: { depth: this.outboxNow.depth, lagSeconds: Number(this.outboxNow.lagSeconds.toFixed(3)) },
      ...(this.lastError ? { error: this.lastError.message, errorAt: new Date(this.lastError.at).toISOString() } : {}),
    };
    return { ok: this.lastError === undefined, detail };
  }
}
