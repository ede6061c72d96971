// tongate.streaming.v2.Streaming: Sse (one subscription for the connection's life) and Ws
// (subscribe, unsubscribe, ping over one bidirectional stream), on the hub's fan-out. Acks and
// errors are toncenter's: {"id","status"} and {"id","error"} (id left out when the request had
// none). The client a connection counts against is the gateway's x-tongate-client header (its
// rate limiter's identity: API key or IP); without it, one anonymous client.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { ConnectError } from "@connectrpc/connect";
import type { Notification, Streaming, WsRequest } from "@tongate/proto/gen/tongate/streaming/v2/streaming_pb.js";
import type { Hub } from "./hub.js";
import { notification, type Subscriber } from "./subscriber.js";
import { subscriptionOf, type SubscriptionSpec, withoutSome } from "./subscription.js";

export const CLIENT_HEADER = "x-tongate-client";
const ANONYMOUS = "anonymous";

const clientOf = (ctx: HandlerContext): string => ctx.requestHeader.get(CLIENT_HEADER) || ANONYMOUS;

const withId = (id: string | undefined, body: Record<string, string>): string => JSON.stringify(id === undefined ? body : { id, ...body });

/** A WebSocket before its first subscribe: watches nothing. */
const NOTHING: SubscriptionSpec = subscriptionOf({ types: ["blocks"], addresses: [], traceExternalHashNorms: [], actionTypes: [], supportedActionTypes: [] }, { sse: false });
const EMPTY: SubscriptionSpec = { ...NOTHING, types: new Set() };

function errorText(e: unknown): string {
  return e instanceof ConnectError ? e.rawMessage : e instanceof Error ? e.message : String(e);
}

export function streamingMethods(hub: Hub): Partial<ServiceImpl<typeof Streaming>> {
  return {
    async *sse(req, ctx): AsyncGenerator<Notification> {
      const spec = subscriptionOf(req, { sse: true });
      const sub = hub.open(clientOf(ctx), false, spec);
      try {
        sub.push(notification("connected", withId(req.id, { status: "subscribed" })));
        if (req.lastEventId) await hub.resume(sub, req.lastEventId);
        yield* sub.drain(ctx.signal);
      } finally {
        hub.close(sub);
      }
    },

    async *ws(requests, ctx): AsyncGenerator<Notification> {
      const header = ctx.requestHeader.get("x-actions-version");
      const defaultSupported = header ? header.split(",").map((s) => s.trim()).filter(Boolean) : undefined;
      const sub = hub.open(clientOf(ctx), true, EMPTY);
      // the client's frames are read beside the notifications written; their end (the socket
      // closed) ends the stream, and the stream's end (a slow consumer cut off) stops the reading
      void (async () => {
        for await (const r of requests) {
          if (sub.closed) return;
          await operation(hub, sub, r, defaultSupported);
        }
      })()
        .catch(() => undefined)
        .finally(() => sub.end());
      try {
        yield* sub.drain(ctx.signal);
      } finally {
        hub.close(sub);
      }
    },
  };
}

/** One WebSocket request: its ack, or its error, queued with the notifications. */
async function operation(hub: Hub, sub: Subscriber, r: WsRequest, defaultSupported: readonly string[] | undefined): Promise<void> {
  const reply = (body: Record<string, string>) => sub.push(notification("", withId(r.id, body)));
  try {
    switch (r.operation) {
      case "ping":
        reply({ status: "pong" });
        return;
      case "subscribe": {
        const spec = subscriptionOf(r, { sse: false, previous: sub.spec === EMPTY ? undefined : sub.spec, defaultSupported });
        hub.replace(sub, spec);
        reply({ status: "subscribed" });
        if (r.resumeFrom) await hub.resume(sub, r.resumeFrom);
        return;
      }
      case "unsubscribe":
        hub.replace(sub, withoutSome(sub.spec, r.addresses, r.traceExternalHashNorms));
        reply({ status: "unsubscribed" });
        return;
      default:
        reply({ error: `unknown operation: ${r.operation}` });
    }
  } catch (e) {
    reply({ error: errorText(e) });
  }
}
