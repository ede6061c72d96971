// The ratelimit service's own metrics: the state of its NATS link and the decisions taken by the
// outage policy while NATS is down (issue 16). The host that runs the service shows them on its
// /metrics (the gateway's, or `tongate serve --metrics-listen`).
import { Counter, Gauge, Registry } from "prom-client";
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
