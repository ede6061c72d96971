// streaming: toncenter's Streaming API v2 (tongate.streaming.v2.Streaming: SSE and WebSocket) on the
// bus's `stream.events`, which the indexer renders once for everyone; this service projects each
// event onto each subscription (./project.ts), fans it out by account (./hub.ts), lets a client
// resume from an event id within --stream-retention, and cuts off a client that does not read.
// Every gateway process hosts one (each subscribes to the bus itself), as does `serve --service streaming`.
import { streamEventsSubject } from "@tongate/proto/subjects.js";
import { Streaming } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import { busKey, defineService } from "@tongate/runtime";
import { Hub } from "./hub.js";
import { StreamingMetrics } from "./metrics.js";
import { streamingFlags, streamingOptionsOf } from "./options.js";
import { streamingMethods } from "./rpc.js";

export { Hub, parseEventId } from "./hub.js";
export { streamingFlags, streamingOptionsOf, DEFAULT_RETENTION_S } from "./options.js";

export const streamingService = defineService({
  name: "streaming",
  service: Streaming,
  flags: streamingFlags,
  options: streamingOptionsOf,
  needs: { bus: busKey },
  async start(ctx) {
    const metrics = new StreamingMetrics();
    const subject = streamEventsSubject(ctx.options.network);
    const hub = new Hub(ctx.needs.bus, subject, ctx.options, metrics, ctx.log);
    await hub.start();
    ctx.log.debug({ subject }, "streaming: subscribed");
    return {
      impl: streamingMethods(hub),
      metrics: metrics.registry,
      health: () => ({
        ok: true,
        ...(hub.subscribed ? {} : { degraded: true, reasons: [`streaming: not subscribed to ${subject} (the event bus is down): subscribers get no events`] }),
        detail: { subject, ...hub.counts },
      }),
      close: () => hub.stop(),
    };
  },
});
