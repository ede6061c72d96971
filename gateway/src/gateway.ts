// The HTTP edge: transcodes toncenter's HTTP/JSON API to the services' RPCs.
// Generic: routes come from the descriptors, requests are parsed and checked by
// the codec, results rendered by toncenter's conventions and wrapped in the
// envelope each service declares. Also serves /jsonRPC, server-streaming RPCs as
// Server-Sent Events, bidirectional ones as WebSockets (an HTTP upgrade goes through
// the same stages as a request), /healthz, /metrics and the API docs. Every service
// call carries who is asking (x-tongate-client: ratelimit/client-identity.ts). The request path is a
// pipeline of stages (pipeline.ts, stages/). With rate limiting on, every request
// counts except health, metrics, CORS preflights, the API docs and the admin API
// (ratelimit/exempt.ts). Answers leave through the delivery (delivery.ts): a client that does not
// read them is dropped.
import { ServerResponse, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import type { Registry } from "prom-client";
import type { Logger, ServiceHealth } from "@tongate/runtime";
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { AnswerCache, type AnswerCacheOptions } from "./cache.js";
import { ApiDocs } from "./docs.js";
import { GatewayMetrics } from "./metrics.js";
import { pipeline } from "./pipeline.js";
import { siteDocument, type SiteInfo } from "./stages/site.js";
import { RateLimiter, type RateLimitOptions } from "./ratelimit/limiter.js";
import { buildRoutes, type RouteTable } from "./routes.js";
import { Delivery } from "./delivery.js";
import { classifier, refusal } from "./stages/errors.js";
import { WebSockets } from "./stages/websocket.js";
import { CORS } from "./stages/limits.js";
import type { Exchange, Handler, Reply } from "./stages/stage.js";
import { exchangeOf, loggedUrl } from "./stages/target.js";

export { canonicalPath } from "./stages/target.js";

export interface Upstream {
  service: DescService;
  transport: Transport;
}

export interface GatewayOptions {
  upstreams: Upstream[];
  /** What the page at the gateway's root shows of this tongate (GET /api/tongate/v1/site); without it, network "custom". */
  site?: SiteInfo;
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
  /** Time a client has to take an answer once it is written (an event stream: each event), ms; past it the client is dropped. */
  sendTimeoutMs?: number;
  /** Bytes of answers one connection may leave unread (a pipelining client that does not read, a WebSocket's); past it the client is dropped. */
  maxUnreadBytes?: number;
  /** Quiet time after which an event stream gets a keepalive comment, and the WebSockets' ping interval, ms (toncenter: 15 s); 0: none. */
  streamKeepaliveMs?: number;
  /** Largest WebSocket frame a client may send, bytes (default 1 MiB). */
  maxFrameBytes?: number;
}

export class Gateway {
  readonly routes: RouteTable;
  readonly metrics = new GatewayMetrics();
  private readonly delivery: Delivery;
  private readonly serve: Handler<Exchange, Reply | null>;
  private readonly webSockets: WebSockets;

  constructor(private readonly opts: GatewayOptions) {
    const transports = new Map<DescService, Transport>();
    for (const u of opts.upstreams) transports.set(u.service, u.transport);
    this.routes = buildRoutes(opts.upstreams.map((u) => u.service));
    const timeoutMs = opts.callTimeoutMs ?? 10_000;
    this.metrics.include(opts.serviceMetrics ?? []);
    const delivery = new Delivery({ sendTimeoutMs: opts.sendTimeoutMs ?? 30_000, maxUnreadBytes: opts.maxUnreadBytes ?? 8 << 20 }, (reason) => this.metrics.clientDropped(reason));
    this.metrics.watchDelivery(() => delivery.unreadBytes);
    this.delivery = delivery;
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
    const keepaliveMs = opts.streamKeepaliveMs ?? 15_000;
    this.webSockets = new WebSockets({
      transports,
      classify: classifier(opts.log),
      metrics: this.metrics,
      maxFrameBytes: opts.maxFrameBytes ?? 1 << 20,
      maxBufferedBytes: opts.maxUnreadBytes ?? 8 << 20,
      keepaliveMs,
      closeTimeoutMs: opts.sendTimeoutMs ?? 30_000,
    });
    this.serve = pipeline({
      site: () => siteDocument(opts.site ?? { network: "custom", version: "" }, this.routes, opts.upstreams.map((u) => u.service)),
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
      delivery,
      keepaliveMs,
      webSockets: this.webSockets,
    });
  }

  /**
   * The node:http 'upgrade' listener: the request goes through the stages as any other (a refusal is
   * answered as HTTP and the connection closed); a WebSocket route takes the connection.
   */
  readonly upgrade = (req: IncomingMessage, socket: Socket, head: Buffer): void => {
    const started = performance.now();
    // Not the server's any more: its errors (a reset) are heard here until a WebSocket takes it.
    socket.on("error", () => socket.destroy());
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket);
    res.once("finish", () => socket.end());
    let serving: Promise<Reply | null>;
    try {
      serving = this.serve({ ...exchangeOf(req, res, this.routes), upgrade: { socket, head } });
    } catch (err) {
      serving = Promise.reject(err);
    }
    serving
      .then(
        (reply) => {
          if (reply?.upgraded) this.metrics.observe(reply.route, req.method ?? "", reply.status, (performance.now() - started) / 1000);
          else this.finish(req, res, reply, started);
        },
        (err: unknown) => {
          this.opts.log.error({ err, url: loggedUrl(req.url) }, "unhandled gateway error");
          this.finish(req, res, this.internalError(req), started, true);
        },
      )
      .catch((err: unknown) => {
        this.opts.log.error({ err, url: loggedUrl(req.url) }, "answering failed");
        socket.destroy();
      });
  };

  /** Before the server closes: every WebSocket is closed with 1001 (going away) and its call cancelled. */
  shutdown(): void {
    this.webSockets.closeAll();
  }

  /**
   * The node:http request listener. It never throws and leaves no promise rejected: a failure while
   * answering is a 500 for that request (or its connection closed, when the head is already sent), logged once.
   */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    this.delivery.received(req.socket);
    // A write that fails after the answer (the client has gone) leaves nothing to answer; unheard, its
    // error would be an uncaught exception.
    res.on("error", (err) => this.opts.log.debug({ err, url: loggedUrl(req.url) }, "answer not delivered"));
    let serving: Promise<Reply | null>;
    try {
      serving = this.serve(exchangeOf(req, res, this.routes));
    } catch (err) {
      serving = Promise.reject(err);
    }
    serving
      .then(
        (reply) => this.finish(req, res, reply, started),
        (err: unknown) => {
          this.opts.log.error({ err, url: loggedUrl(req.url) }, "unhandled gateway error");
          this.finish(req, res, this.internalError(req), started, true);
        },
      )
      .catch((err: unknown) => {
        // finish does not throw; should it, the request still ends here
        this.opts.log.error({ err, url: loggedUrl(req.url) }, "answering failed");
        req.socket.destroy();
      });
  };

  /** Writes the reply (when a stage did not write the answer itself) and accounts for the request. `logged`: its failure is logged already. */
  private finish(req: IncomingMessage, res: ServerResponse, reply: Reply | null, started: number, logged = false): void {
    let status = reply?.status ?? res.statusCode;
    const route = reply?.route ?? "static";
    try {
      if (!reply || res.headersSent) {
        // A stage wrote the answer (metrics, docs, an event stream): its client must take it in time too.
        if (res.writableEnded) this.delivery.watch(req.socket, res, res.writableLength);
        // A stage that failed after writing the head left an answer without its end: close it.
        else if (!res.destroyed) req.socket.destroy();
      } else if (res.destroyed) {
        status = CLIENT_GONE;
      } else {
        ({ status, logged } = this.write(req, res, reply, logged));
      }
    } catch (err) {
      // Headers refused, a write to a connection torn down: a 500 when nothing was sent yet, else the connection closes.
      if (!logged) this.opts.log.error({ err, route, url: loggedUrl(req.url) }, "answering failed");
      logged = true;
      status = this.answerInternalError(req, res);
    }
    if (status >= 500 && !logged) this.opts.log.warn({ status, route, url: loggedUrl(req.url), body: reply?.body }, "request failed");
    else if (status < 500) this.opts.log.debug({ status, route, method: req.method }, "request");
    this.metrics.observe(route, req.method ?? "", status, (performance.now() - started) / 1000);
  }

  /** Writes a reply: its JSON (a 500 if it has none), unless its client already leaves too much unread (then it is dropped). */
  private write(req: IncomingMessage, res: ServerResponse, reply: Reply, logged: boolean): { status: number; logged: boolean } {
    let payload: string;
    try {
      payload = reply.rendered ?? JSON.stringify(reply.body);
    } catch (err) {
      this.opts.log.error({ err, route: reply.route, url: loggedUrl(req.url) }, "answer could not be written as JSON");
      reply = this.internalError(req);
      payload = JSON.stringify(reply.body);
      logged = true;
    }
    const bytes = Buffer.byteLength(payload);
    if (!this.delivery.admits(req.socket, bytes)) {
      this.delivery.drop(req.socket, "unread_bytes");
      return { status: CLIENT_GONE, logged };
    }
    res.writeHead(reply.status, {
      "content-type": JSON_TYPE,
      "content-length": bytes,
      ...CORS,
      ...reply.headers,
    });
    res.end(payload);
    this.delivery.watch(req.socket, res, bytes);
    return { status: reply.status, logged };
  }

  /** A 500 in the envelope of the request's API. */
  private internalError(req: IncomingMessage): Reply {
    const rawPath = (req.url ?? "/").split("?", 1)[0]!;
    return refusal(this.routes.flavourOf(rawPath), 500, "internal error", "error");
  }

  /** Answers a 500 after a failure while answering, or closes the connection when the head is already sent; the status answered. */
  private answerInternalError(req: IncomingMessage, res: ServerResponse): number {
    try {
      if (!res.headersSent && !res.destroyed) {
        const payload = JSON.stringify(this.internalError(req).body);
        res.writeHead(500, { "content-type": JSON_TYPE, "content-length": Buffer.byteLength(payload), ...CORS });
        res.end(payload);
        this.delivery.watch(req.socket, res, payload.length);
        return 500;
      }
    } catch {
      // the connection cannot take even that
    }
    req.socket.destroy();
    return 500;
  }
}

const JSON_TYPE = "application/json; charset=utf-8";
/** The status metrics record for a request whose client went away or was dropped before its answer (nginx's). */
const CLIENT_GONE = 499;
