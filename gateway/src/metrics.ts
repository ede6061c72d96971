// Prometheus metrics of the HTTP edge: requests and latency per route and status, answer cache use,
// rate-limit decisions, clients dropped for not reading, streams open and their messages; and the service
// calls' (the transports' interceptors).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { Decision_Outcome } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { callMetrics, processMetrics } from "@tongate/runtime";
import type { CacheStats } from "./cache.js";
import type { DropReason } from "./delivery.js";

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "tongate_http_requests_total",
    help: "HTTP requests answered, by route and status",
    labelNames: ["route", "method", "status"],
    registers: [this.registry],
  });
  private readonly latency = new Histogram({
    name: "tongate_http_request_duration_seconds",
    help: "Time from request start to the last byte of the answer, by route and status",
    labelNames: ["route", "status"],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  private readonly cacheLookups = new Counter({
    name: "tongate_cache_lookups_total",
    help: "Answer cache lookups of cacheable calls, by RPC and result (hit or miss)",
    labelNames: ["rpc", "result"],
    registers: [this.registry],
  });

  private readonly rateLimitDecisions = new Counter({
    name: "tongate_ratelimit_decisions_total",
    help: "Rate-limit decisions on counted requests, by outcome (allowed, unknown_key, forbidden, limited; error: the limiter did not answer)",
    labelNames: ["outcome"],
    registers: [this.registry],
  });
  private readonly decisionsByOutcome = new Map<string, { inc(): void }>();

  private readonly droppedClients = new Counter({
    name: "tongate_http_clients_dropped_total",
    help: "Connections closed because their client did not read its answers, by reason (send_timeout, unread_bytes)",
    labelNames: ["reason"],
    registers: [this.registry],
  });

  private readonly openStreams = new Gauge({
    name: "tongate_http_streams_open",
    help: "Event streams (SSE) and WebSockets open, by route",
    labelNames: ["route", "kind"],
    registers: [this.registry],
  });

  private readonly streamFrames = new Counter({
    name: "tongate_http_stream_frames_total",
    help: "Messages of event streams and WebSockets, by route and direction (in: WebSocket frames from clients; out: events and frames to them)",
    labelNames: ["route", "direction"],
    registers: [this.registry],
  });

  /** Counts one stream (`kind`: sse or websocket) open on `route`; the answer ends it. */
  streamOpened(route: string, kind: "sse" | "websocket"): { sent(): void; received(): void; closed(): void } {
    const open = this.openStreams.labels(route, kind);
    open.inc();
    const out = this.streamFrames.labels(route, "out");
    const inbound = this.streamFrames.labels(route, "in");
    let closed = false;
    return {
      sent: () => out.inc(),
      received: () => inbound.inc(),
      closed: () => {
        if (!closed) open.dec();
        closed = true;
      },
    };
  }

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: "tongate_" });
    // The service calls' metrics, which every transport's interceptors keep (tongate_rpc_*).
    for (const m of callMetrics) this.registry.registerMetric(m);
    // The process's own (uncaught errors the process served on).
    for (const m of processMetrics) this.registry.registerMetric(m);
  }

  /** Shows the metrics of `registries` (the services in this process) on this /metrics too. */
  include(registries: readonly Registry[]): void {
    for (const r of registries) {
      for (const { name } of r.getMetricsAsArray()) {
        const m = r.getSingleMetric(name);
        if (m) this.registry.registerMetric(m);
      }
    }
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    const s = String(status);
    this.requests.inc({ route, method, status: s });
    this.latency.observe({ route, status: s }, seconds);
  }

  /** `outcome` undefined: the limiter did not answer. */
  rateLimitDecision(outcome: Decision_Outcome | undefined): void {
    const known = outcome !== undefined && outcome !== Decision_Outcome.UNSPECIFIED;
    const label = known ? Decision_Outcome[outcome]!.toLowerCase() : "error";
    // A bound child per outcome keeps the label hashing off every request.
    let child = this.decisionsByOutcome.get(label);
    if (!child) this.decisionsByOutcome.set(label, (child = this.rateLimitDecisions.labels(label)));
    child.inc();
  }

  clientDropped(reason: DropReason): void {
    this.droppedClients.inc({ reason });
  }

  /** Exports the bytes of answers written and not yet taken by their clients (read at scrape time). */
  watchDelivery(unreadBytes: () => number): void {
    new Gauge({
      name: "tongate_http_unread_bytes",
      help: "Bytes of answers written and not yet taken by their clients",
      registers: [this.registry],
      collect() {
        this.set(unreadBytes());
      },
    });
  }

  cacheLookup(rpc: string, hit: boolean): void {
    this.cacheLookups.inc({ rpc, result: hit ? "hit" : "miss" });
  }

  /** Exports the answer cache's size (read at scrape time). */
  watchCache(stats: () => CacheStats): void {
    const gauge = (name: string, help: string, read: (s: CacheStats) => number) =>
      new Gauge({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.set(read(stats()));
        },
      });
    gauge("tongate_cache_entries", "Answers held by the answer cache", (s) => s.entries);
    gauge("tongate_cache_bytes", "Approximate memory of the answer cache's entries, bytes", (s) => s.bytes);
  }
}
