// The request path, composed in one place:
//   HTTP request: [rate limit (API key and rate)] → limits → route (REST | /jsonRPC | SSE | WebSocket)
//   each call:    [cache] → call
// Stages in brackets are there when configured (--ratelimit, the answer cache). The request target is
// parsed once before them (target.ts); the rate-limit stage comes first so that every request counts,
// a malformed or over-long one too.
// Before them all, the site: the page at the root and its files (site.ts), answered without counting.
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import type { Logger, ServiceHealth } from "@tongate/runtime";
import type { AnswerCache } from "./cache.js";
import type { Delivery } from "./delivery.js";
import type { ApiDocs } from "./docs.js";
import type { GatewayMetrics } from "./metrics.js";
import type { RateLimiter } from "./ratelimit/limiter.js";
import type { RouteTable } from "./routes.js";
import { cacheStage } from "./stages/cache.js";
import { callService } from "./stages/call.js";
import { classifier } from "./stages/errors.js";
import { jsonRpcEndpoint } from "./stages/jsonrpc.js";
import { limitsStage } from "./stages/limits.js";
import { rateLimitStage } from "./stages/ratelimit.js";
import { siteStage, type SiteDocument } from "./stages/site.js";
import { restEndpoint } from "./stages/rest.js";
import { routeStage } from "./stages/route.js";
import { sseEndpoint } from "./stages/sse.js";
import type { WebSockets } from "./stages/websocket.js";
import { compose, type Answer, type Call, type Exchange, type Handler, type Reply, type Stage } from "./stages/stage.js";

export interface PipelineParts {
  log: Logger;
  /** The site document the page at the root reads. */
  site: () => SiteDocument;
  routes: RouteTable;
  docs: ApiDocs;
  metrics: GatewayMetrics;
  transports: Map<DescService, Transport>;
  cache: AnswerCache | undefined;
  limiter: RateLimiter | undefined;
  health?: () => Promise<ServiceHealth>;
  maxBody: number;
  maxUrl: number;
  timeoutMs: number;
  maxBatch: number;
  delivery: Delivery;
  /** Quiet time after which an event stream gets a keepalive comment, ms; 0: never. */
  keepaliveMs: number;
  webSockets: WebSockets;
}

export function pipeline(p: PipelineParts): Handler<Exchange, Reply | null> {
  const classify = classifier(p.log);
  const callStages: Stage<Call, Answer>[] = [];
  if (p.cache) callStages.push(cacheStage(p.cache, p.metrics));
  const call = compose(callStages, callService(p.transports, p.timeoutMs));

  const stages: Stage<Exchange, Reply | null>[] = [siteStage({ document: p.site })];
  if (p.limiter) stages.push(rateLimitStage({ limiter: p.limiter, docs: p.docs, metrics: p.metrics, classify }));
  stages.push(limitsStage({ maxUrl: p.maxUrl }));
  const route = routeStage({
    routes: p.routes,
    docs: p.docs,
    metrics: p.metrics,
    health: p.health,
    rest: restEndpoint({ call, classify, maxBody: p.maxBody }),
    stream: sseEndpoint({ transports: p.transports, classify, delivery: p.delivery, metrics: p.metrics, maxBody: p.maxBody, keepaliveMs: p.keepaliveMs }),
    websocket: p.webSockets.endpoint,
    jsonRpc: jsonRpcEndpoint({ routes: p.routes, call, classify, maxBody: p.maxBody, maxBatch: p.maxBatch }),
  });
  return compose(stages, route);
}
