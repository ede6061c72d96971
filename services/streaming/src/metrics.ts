// The streaming service's metrics (its /metrics where it is hosted) and its /healthz counters.
import { Counter, Gauge, Registry } from "prom-client";

export class StreamingMetrics {
  readonly registry = new Registry();
  readonly subscribers = new Gauge({ name: "tongate_streaming_subscribers", help: "Connections subscribed to the Streaming API (SSE and WebSocket)", labelNames: ["transport"] as const, registers: [this.registry] });
  readonly notifications = new Counter({ name: "tongate_streaming_notifications_total", help: "Notifications queued for subscribers", registers: [this.registry] });
  readonly slow = new Counter({ name: "tongate_streaming_slow_consumers_total", help: "Subscribers cut off because their buffer filled", registers: [this.registry] });
  readonly resumes = new Counter({ name: "tongate_streaming_resumes_total", help: "Subscriptions resumed from an event id", registers: [this.registry] });
  readonly gaps = new Counter({ name: "tongate_streaming_resume_gaps_total", help: "Resumes refused (past the retention window, or an id this stream never gave): a resume_gap event", registers: [this.registry] });
  readonly events = new Counter({ name: "tongate_streaming_bus_events_total", help: "stream.events taken from the bus", registers: [this.registry] });
}
