// The ratelimit service's own metrics: the state of its NATS link and the decisions taken by the
// outage policy while NATS is down (issue 16). The host that runs the service shows them on its
// /metrics (the gateway's, or `tongate serve --metrics-listen`).
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { NatsState } from "@tongate/runtime/nats";

const NATS_STATES: readonly NatsState[] = ["up", "preparing", "reconnecting", "closed"];

export class RateLimitMetrics {
  readonly registry = new Registry();
  private readonly outageDecisions = new Counter({
    name: "tongate_ratelimit_outage_decisions_total",
    help: "Rate-limit decisions taken without NATS (its KV keeps the shared buckets), by outage policy (local: this replica's buckets; deny: 503) and outcome",
    labelNames: ["policy", "outcome"],
    registers: [this.registry],
  });

  private readonly updates = new Histogram({
    name: "tongate_ratelimit_bucket_update_seconds",
    help: "Time from a bucket update's start to its decision with NATS (--nats-url), by who decided: shared (NATS KV) or outage (the outage policy, after any wait on NATS)",
    labelNames: ["decided"],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });

  /** One bucket update's time, ms, and who decided it. */
  bucketUpdate(decided: "shared" | "outage", ms: number): void {
    this.updates.observe({ decided }, ms / 1000);
  }

  /** Counts one decision taken by the outage policy. */
  outageDecision(policy: string, outcome: "allowed" | "limited" | "unavailable"): void {
    this.outageDecisions.inc({ policy, outcome });
  }

  /** Exports the NATS link's state (1 for the current one), read at scrape time. */
  watchNats(state: () => NatsState): void {
    new Gauge({
      name: "tongate_ratelimit_nats_state",
      help: "State of the ratelimit service's NATS connection: 1 for the current state (up, preparing, reconnecting, closed)",
      labelNames: ["state"],
      registers: [this.registry],
      collect() {
        const now = state();
        for (const s of NATS_STATES) this.set({ state: s }, s === now ? 1 : 0);
      },
    });
  }
}
