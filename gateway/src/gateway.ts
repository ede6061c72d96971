// The HTTP edge: transcodes toncenter's HTTP/JSON API to the services' RPCs.
// Generic: routes come from the descriptors, requests are parsed and checked by
// the codec, results rendered by toncenter's conventions and wrapped in the
// envelope each service declares. Also serves /jsonRPC, server-streaming RPCs as
// Server-Sent Events, /healthz, /metrics and the API docs. The request path is a
// pipeline of stages (pipeline.ts, stages/). With rate limiting on, every request
// counts except health, metrics, CORS preflights, the API docs and the admin API
// (ratelimit/exempt.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import type { Registry } from "prom-client";
import type { Logger, ServiceHealth } from "@tongate/runtime";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { AnswerCache, type AnswerCacheOptions } from "./cache.js";
import { ApiDocs } from "./docs.js";
import { GatewayMetrics } from "./metrics.js";
import { pipeline } from "./pipeline.js";
import { RateLimiter, type RateLimitOptions } from "./ratelimit/limiter.js";
import { buildRoutes, type RouteTable } from "./routes.js";
import { CORS } from "./stages/limits.js";
import type { Exchange, Handler, Reply } from "./stages/stage.js";
import { exchangeOf } from "./stages/target.js";

export { canonicalPath } from "./stages/target.js";

export interface Upstream {
  service: DescService;
  transport: Transport;
}

export interface GatewayOptions {
  upstreams: Upstream[];
  log: Logger;
  /** Largest request body accepted, bytes (toncenter: 1 MiB). */
  maxBodyBytes?: number;
  /** Largest request target (path and query), characters (toncenter: 8192). */
  maxUrlLength?: number;
  /** Deadline of one service call, ms. */
  callTimeoutMs?: number;
  /** Most calls in one JSON-RPC batch. */
  maxBatch?: number;
  /** The answer cache (RPCs with the cache option); off without it or with maxBytes 0. */
  cache?: AnswerCacheOptions;
  /** Answers /healthz: ok (200), degraded (200: answering without a dependency) or unavailable (503). */
  health?: () => Promise<ServiceHealth>;
  /** The metrics of the services in this process, shown on /metrics with the gateway's. */
  serviceMetrics?: readonly Registry[];
  /** Rate limits and API keys by the RateLimit upstream (which must be among `upstreams`); off without it. */
  rateLimit?: RateLimitOptions;
}

export class Gateway {
  readonly routes: RouteTable;
  readonly metrics = new GatewayMetrics();
  private readonly serve: Handler<Exchange, Reply | null>;

  constructor(private readonly opts: GatewayOptions) {
    const transports = new Map<DescService, Transport>();
    for (const u of opts.upstreams) transports.set(u.service, u.transport);
    this.routes = buildRoutes(opts.upstreams.map((u) => u.service));
    const timeoutMs = opts.callTimeoutMs ?? 10_000;
    this.metrics.include(opts.serviceMetrics ?? []);
    let cache: AnswerCache | undefined;
    if (opts.cache && opts.cache.maxBytes > 0) {
      const c = new AnswerCache(opts.upstreams.flatMap((u) => u.service.methods), opts.cache);
      this.metrics.watchCache(() => c.stats());
      cache = c;
    }
    let limiter: RateLimiter | undefined;
    if (opts.rateLimit) {
      const upstream = opts.upstreams.find((u) => u.service.typeName === RateLimit.typeName);
      if (!upstream) throw new Error("rate limiting needs the RateLimit service among the upstreams");
      limiter = new RateLimiter(upstream.transport, opts.rateLimit, timeoutMs);
    }
    this.serve = pipeline({
      log: opts.log,
      routes: this.routes,
      docs: new ApiDocs(this.routes),
      metrics: this.metrics,
      transports,
      cache,
      limiter,
      health: opts.health,
      maxBody: opts.maxBodyBytes ?? 1 << 20,
      maxUrl: opts.maxUrlLength ?? 8192,
      timeoutMs,
      maxBatch: opts.maxBatch ?? 100,
    });
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    this.serve(exchangeOf(req, res, this.routes)).then(
      (reply) => this.finish(req, res, reply, started),
      (err: unknown) => {
        this.opts.log.error({ err, url: req.url }, "unhandled gateway error");
        this.finish(req, res, { status: 500, body: { ok: false, error: "internal error", code: 500 }, route: "error" }, started);
      },
    );
  };

  private finish(req: IncomingMessage, res: ServerResponse, reply: Reply | null, started: number): void {
    if (reply) {
      if (!res.headersSent) {
        const payload = reply.rendered ?? JSON.stringify(reply.body);
        res.writeHead(reply.status, {
          "content-type": "application/json; charset=utf-8",
          "content-length": Buffer.byteLength(payload),
          ...CORS,
          ...reply.headers,
        });
        res.end(payload);
      }
      if (reply.status >= 500) this.opts.log.warn({ status: reply.status, route: reply.route, url: req.url?.slice(0, 256), body: reply.body }, "request failed");
      else this.opts.log.debug({ status: reply.status, route: reply.route, method: req.method }, "request");
    }
    this.metrics.observe(reply?.route ?? "static", req.method ?? "", reply?.status ?? res.statusCode, (performance.now() - started) / 1000);
  }
}
