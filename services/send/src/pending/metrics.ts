// The pending engine's metrics, on the /metrics of the process that hosts the send service.
import { Counter, Gauge, Histogram, Registry } from "prom-client";

export class PendingMetrics {
  readonly registry = new Registry();
  readonly emulated = new Counter({ name: "tongate_send_pending_emulated_total", help: "external messages emulated into a pending trace and kept", registers: [this.registry] });
  readonly failures = new Counter({
    name: "tongate_send_pending_failures_total",
    help: "external messages whose emulation kept nothing, by reason: rejected (the contract refused it), depth/count/timeout (a bound), chain, emulator, broadcast (the liteservers refused it), busy (too many emulations at once)",
    labelNames: ["reason"],
    registers: [this.registry],
  });
  readonly seconds = new Histogram({
    name: "tongate_send_pending_emulation_seconds",
    help: "time to emulate and classify one external message's trace",
    buckets: [0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });
  readonly transitions = new Counter({
    name: "tongate_send_pending_transitions_total",
    help: "pending traces that became confirmed, finalized (and left the pending store), or invalidated (by reason: differs, expired, ttl)",
    labelNames: ["to", "reason"],
    registers: [this.registry],
  });

  private readonly published = new Counter({ name: "tongate_send_pending_events_published_total", help: "pending.traces events published, by kind (pending, confirmed, invalidated)", labelNames: ["kind"], registers: [this.registry] });
  private readonly dropped = new Counter({ name: "tongate_send_pending_events_dropped_total", help: "pending.traces events dropped while the bus did not take them (past the in-memory outbox's bound)", registers: [this.registry] });
  /** For PendingEvents. */
  readonly events = { published: (kind: string) => this.published.inc({ kind }), dropped: () => this.dropped.inc() };

  constructor(count: () => number) {
    new Gauge({
      name: "tongate_send_pending_traces",
      help: "pending traces kept now",
      registers: [this.registry],
      collect() {
        this.set(count());
      },
    });
  }
}
