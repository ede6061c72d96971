// Stage: route. The edge's own paths (/healthz, /metrics, the API docs), /jsonRPC, and the routes of
// the descriptors: a unary RPC as REST (rest.ts), a server-streaming one as Server-Sent Events (sse.ts),
// a bidirectional one as a WebSocket (websocket.ts). A WebSocket upgrade is taken by a WebSocket route only.
// The last HTTP stage: what it routes to makes the calls (through the call stages).
import { healthAnswer, type ServiceHealth } from "@tongate/runtime";
import type { ApiDocs } from "../docs.js";
import type { GatewayMetrics } from "../metrics.js";
import type { Route, RouteTable } from "../routes.js";
import { refusal } from "./errors.js";
import { JSON_RPC_PATH } from "./ratelimit.js";
import type { Exchange, Handler, Reply } from "./stage.js";

const isWebSocket = (x: Exchange) => x.req.headers.upgrade?.toLowerCase() === "websocket";

export type Endpoint = (x: Exchange, route: Route) => Promise<Reply | null>;

export interface RouteOptions {
  routes: RouteTable;
  docs: ApiDocs;
  metrics: GatewayMetrics;
  health?: () => Promise<ServiceHealth>;
  rest: Endpoint;
  stream: Endpoint;
  websocket: Endpoint;
  jsonRpc: Handler<Exchange, Reply>;
}

export function routeStage(o: RouteOptions): Handler<Exchange, Reply | null> {
  const health = async (): Promise<Reply> => {
    const { status, body } = healthAnswer(o.health ? await o.health() : { ok: true });
    return { status, body, route: "/healthz" };
  };
  return async (x) => {
    const path = x.path!;
    if (x.upgrade) {
      const route = o.routes.byPath.get(path)?.get(x.method);
      if (route?.websocket) return o.websocket(x, route);
      // Another protocol (curl --http2's h2c) may be declined and the request answered as it is (RFC 9110
      // §7.8) — unless it has a body, which node leaves unparsed on an upgrade.
      const body = x.req.headers["transfer-encoding"] !== undefined || Number(x.req.headers["content-length"] ?? 0) > 0;
      if (isWebSocket(x) || body) return refusal(x.flavour, 400, `${path.slice(0, 200)} does not take an upgrade to ${String(x.req.headers.upgrade).slice(0, 40)}: only the WebSocket routes take one`, "unmatched");
    }
    switch (path) {
      case "/healthz":
        return health();
      case "/metrics": {
        const text = await o.metrics.registry.metrics();
        x.res.writeHead(200, { "content-type": o.metrics.registry.contentType });
        x.res.end(text);
        return null;
      }
      case JSON_RPC_PATH:
        if (x.method !== "POST") return refusal("v2", 405, `method ${x.method} is not supported by ${JSON_RPC_PATH}; use POST`, "jsonRPC");
        return o.jsonRpc(x);
    }
    if (o.docs.serve(path, x.method, x.res)) return null;

    const methods = o.routes.byPath.get(path);
    if (!methods) return refusal(x.flavour, 404, `Not Found: ${path.slice(0, 200)} is not a method of this API`, "unmatched");
    const route = methods.get(x.method === "HEAD" ? "GET" : x.method);
    if (!route) return refusal(x.flavour, 405, `method ${x.method} is not supported by ${path}; use ${[...methods.keys()].join(" or ")}`, path);
    if (route.websocket) return o.websocket(x, route);
    return route.stream ? o.stream(x, route) : o.rest(x, route);
  };
}
