// The HTTP edge: transcodes toncenter's HTTP/JSON API to the services' RPCs.
// Generic: routes come from the descriptors, requests are parsed and checked by
// the codec, results rendered by toncenter's conventions and wrapped in the
// API's envelope. Also serves /jsonRPC, /healthz, /metrics and the API docs.
// With rate limiting on, every request counts except health, metrics, CORS
// preflights, the API docs and the admin API (ratelimit/exempt.ts).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { DescMethodUnary, DescService, JsonValue, Message } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { httpStatusOf, type Logger } from "@tongate/runtime";
import { AnswerCache, type AnswerCacheOptions } from "./cache.js";
import { InputError, parseBody, parseQuery } from "./codec/parse.js";
import { renderResult } from "./codec/render.js";
import { errorBody, newExtra, successBody, type RpcEcho } from "./envelope.js";
import { GatewayMetrics } from "./metrics.js";
import { buildRoutes, flavourOf, type ApiFlavour, type Route, type RouteTable } from "./routes.js";
import { ApiDocs } from "./docs.js";
import { Decision_Outcome, RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { IdentityError, type ClientIdentity } from "./ratelimit/client-identity.js";
import { isExempt } from "./ratelimit/exempt.js";
import { RateLimiter, type Admission, type RateLimitOptions } from "./ratelimit/limiter.js";

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
  /** Answers /healthz: true when every dependency is ready. */
  health?: () => Promise<{ ok: boolean; detail?: JsonValue }>;
  /** Rate limits and API keys by the RateLimit upstream (which must be among `upstreams`); off without it. */
  rateLimit?: RateLimitOptions;
}

/** Query or body keys that belong to the edge, not to any method. */
const EDGE_KEYS = new Set(["api_key", "@extra"]);
const JSON_RPC_PATH = "/api/v2/jsonRPC";

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

interface Reply {
  status: number;
  body: JsonValue;
  route: string;
  headers?: Record<string, string>;
}

export class Gateway {
  readonly routes: RouteTable;
  readonly metrics = new GatewayMetrics();
  private readonly transports = new Map<DescService, Transport>();
  private readonly docs: ApiDocs;
  private readonly maxBody: number;
  private readonly maxUrl: number;
  private readonly timeoutMs: number;
  private readonly maxBatch: number;
  private readonly cache: AnswerCache | undefined;
  private readonly limiter: RateLimiter | undefined;

  constructor(private readonly opts: GatewayOptions) {
    for (const u of opts.upstreams) this.transports.set(u.service, u.transport);
    this.routes = buildRoutes(opts.upstreams.map((u) => u.service));
    this.docs = new ApiDocs(this.routes);
    this.maxBody = opts.maxBodyBytes ?? 1 << 20;
    this.maxUrl = opts.maxUrlLength ?? 8192;
    this.timeoutMs = opts.callTimeoutMs ?? 10_000;
    this.maxBatch = opts.maxBatch ?? 100;
    if (opts.cache && opts.cache.maxBytes > 0) {
      const cache = new AnswerCache(opts.upstreams.flatMap((u) => u.service.methods), opts.cache);
      this.metrics.watchCache(() => cache.stats());
      this.cache = cache;
    }
    if (opts.rateLimit) {
      const upstream = opts.upstreams.find((u) => u.service.typeName === RateLimit.typeName);
      if (!upstream) throw new Error("rate limiting needs the RateLimit service among the upstreams");
      this.limiter = new RateLimiter(upstream.transport, opts.rateLimit, this.timeoutMs);
    }
  }

  /** The node:http request listener. */
  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    const started = performance.now();
    this.dispatch(req, res).then(
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
        const payload = JSON.stringify(reply.body);
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

  private dispatch(req: IncomingMessage, res: ServerResponse): Promise<Reply | null> {
    const url = req.url ?? "/";
    const qi = url.indexOf("?");
    const rawPath = qi < 0 ? url : url.slice(0, qi);
    const query = qi < 0 ? "" : url.slice(qi + 1);
    const method = req.method ?? "GET";
    let path: string | undefined;
    try {
      path = canonicalPath(rawPath);
    } catch {
      path = undefined;
    }
    if (!this.limiter || (path !== undefined && isExempt(path, method, this.docs))) return this.serve(req, res, path, rawPath, query, method);
    return this.counted(this.limiter, req, res, path, rawPath, query, method);
  }

  /** A request rate limiting counts: every one outside the exempt set, whatever its path (an unknown or malformed one too). */
  private async counted(limiter: RateLimiter, req: IncomingMessage, res: ServerResponse, path: string | undefined, rawPath: string, query: string, method: string): Promise<Reply | null> {
    const flavour = flavourOf((path ?? rawPath) + "/") ?? "v2";
    let client: ClientIdentity;
    try {
      client = limiter.identify(req, query);
    } catch (err) {
      if (err instanceof IdentityError) return this.error(flavour, err.status, err.message, "ratelimit");
      throw err;
    }
    // /jsonRPC is counted per call, once its body is read.
    if (path === JSON_RPC_PATH && method === "POST") return this.jsonRpc(req, client);
    const admitting = this.admit(client, 1);
    // Most requests are decided from the lease at hand: no await (and no turn of the event loop) for them.
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (admission.status) return { ...this.error(flavour, admission.status, admission.message, "ratelimit"), headers: admission.headers };
    const reply = await this.serve(req, res, path, rawPath, query, method);
    if (reply) reply.headers = admission.headers;
    return reply;
  }

  /** Takes `cost` tokens of the client's limit; a failure to reach the limiter refuses the request. */
  private admit(client: ClientIdentity, cost: number): Admission | Promise<Admission> {
    try {
      const a = this.limiter!.admit(client, cost);
      return a instanceof Promise ? a.then(this.decided, this.limiterFailed) : this.decided(a);
    } catch (err) {
      return this.limiterFailed(err);
    }
  }

  private readonly decided = (a: Admission): Admission => {
    this.metrics.rateLimitDecision(a.outcome);
    return a;
  };

  private readonly limiterFailed = (err: unknown): Admission => {
    this.metrics.rateLimitDecision(undefined);
    const { status, message } = this.classify(err, undefined);
    return { status, message: `the rate limiter did not answer: ${message}`, headers: {}, outcome: Decision_Outcome.UNSPECIFIED };
  };

  private async serve(req: IncomingMessage, res: ServerResponse, path: string | undefined, rawPath: string, query: string, method: string): Promise<Reply | null> {
    const url = req.url ?? "/";
    if (path === undefined) return this.error("v2", 400, `the path ${JSON.stringify(rawPath.slice(0, 100))} is not valid percent-encoding`, "invalid");
    const flavour = flavourOf(path + "/") ?? "v2";
    if (url.length > this.maxUrl) return this.error(flavour, 414, `the request target is longer than ${this.maxUrl} characters`, "invalid");
    if (method === "OPTIONS") {
      res.writeHead(204, { ...CORS, "access-control-max-age": "86400" });
      res.end();
      return { status: 204, body: null, route: "preflight" };
    }

    switch (path) {
      case "/healthz":
        return this.health();
      case "/metrics": {
        const text = await this.metrics.registry.metrics();
        res.writeHead(200, { "content-type": this.metrics.registry.contentType });
        res.end(text);
        return null;
      }
      case JSON_RPC_PATH:
        if (method !== "POST") return this.error("v2", 405, `method ${method} is not supported by ${JSON_RPC_PATH}; use POST`, "jsonRPC");
        return this.jsonRpc(req);
    }
    if (this.docs.serve(path, method, res)) return null;

    const methods = this.routes.byPath.get(path);
    if (!methods) return this.error(flavour, 404, `Not Found: ${path.slice(0, 200)} is not a method of this API`, "unmatched");
    const route = methods.get(method === "HEAD" ? "GET" : method);
    if (!route) {
      return this.error(flavour, 405, `method ${method} is not supported by ${path}; use ${[...methods.keys()].join(" or ")}`, path);
    }

    let extra: string | undefined;
    try {
      let input: Message;
      if (route.httpMethod === "GET") {
        const params = new URLSearchParams(query);
        extra = params.get("@extra") ?? undefined;
        for (const k of EDGE_KEYS) params.delete(k);
        input = parseQuery(route.method.input, params, { rejectUnknown: route.flavour === "v3" });
      } else {
        const body = await readJsonBody(req, this.maxBody);
        if (typeof body["@extra"] === "string") extra = body["@extra"];
        for (const k of EDGE_KEYS) delete body[k];
        input = parseBody(route.method.input, body, { rejectUnknown: route.flavour === "v3" });
      }
      const { result, cached } = await this.call(route, input);
      return { status: 200, body: successBody(route.flavour, result, cacheMark(extra ?? newExtra(), cached)), route: route.path };
    } catch (err) {
      const { status, message } = this.classify(err, route);
      return { status, body: errorBody(route.flavour, status, message, extra ?? newExtra()), route: route.path };
    }
  }

  /** The rendered result of one call; `cached` when the answer cache held it (no service call then). */
  private async call(route: Route, input: Message): Promise<{ result: JsonValue; cached: boolean }> {
    const slot = this.cache?.lookup(route.method, input);
    if (slot) {
      this.metrics.cacheLookup(route.method.localName, slot.hit !== undefined);
      if (slot.hit !== undefined) return { result: slot.hit, cached: true };
    }
    const transport = this.transports.get(route.service)!;
    const method = route.method as DescMethodUnary;
    const res = await transport.unary(method, undefined, this.timeoutMs, undefined, input as never);
    const result = renderResult(method.output, res.message);
    slot?.store(result);
    return { result, cached: false };
  }

  private classify(err: unknown, route: Route | undefined): { status: number; message: string } {
    if (err instanceof InputError || err instanceof HttpError) return { status: err.status, message: err.message };
    const { status, message } = httpStatusOf(err);
    if (status === 501 && route) return { status, message: `${route.name} is not implemented yet` };
    if (status >= 500 && status !== 501 && status !== 504 && status !== 542) {
      this.opts.log.error({ err, route: route?.path }, "service call failed");
    }
    return { status, message };
  }

  private error(flavour: ApiFlavour, status: number, message: string, route: string): Reply {
    return { status, body: errorBody(flavour, status, message, "_"), route };
  }

  private async health(): Promise<Reply> {
    const h = this.opts.health ? await this.opts.health() : { ok: true };
    return { status: h.ok ? 200 : 503, body: { status: h.ok ? "ok" : "unavailable", ...(h.detail !== undefined ? { detail: h.detail } : {}) }, route: "/healthz" };
  }

  // ---- /jsonRPC ---------------------------------------------------------

  /** `client`: the caller when rate limiting is on (a batch takes one token per call, all or none). */
  private async jsonRpc(req: IncomingMessage, client?: ClientIdentity): Promise<Reply> {
    let body: unknown;
    let failed: Reply | undefined;
    try {
      body = await readJson(req, this.maxBody);
    } catch (err) {
      const { status, message } = this.classify(err, undefined);
      failed = { status, body: errorBody("v2", status, message, "_", {}), route: JSON_RPC_PATH };
    }
    if (!client) return failed ?? this.jsonRpcBody(body);
    const calls = Array.isArray(body) && body.length > 0 && body.length <= this.maxBatch ? body.length : 1;
    const admission = await this.admit(client, calls);
    if (admission.status) return { ...this.jsonRpcRefusal(body, admission), headers: admission.headers };
    const reply = failed ?? (await this.jsonRpcBody(body));
    return { ...reply, headers: admission.headers };
  }

  /** A refused /jsonRPC request: the error in the JSON-RPC envelope of each call (id and jsonrpc echoed). */
  private jsonRpcRefusal(body: unknown, a: Admission): Reply {
    const one = (call: unknown) => {
      const c = call !== null && typeof call === "object" && !Array.isArray(call) ? (call as Record<string, JsonValue>) : {};
      const extra = typeof c["@extra"] === "string" ? c["@extra"] : newExtra();
      return errorBody("v2", a.status, a.message, extra, { jsonrpc: c.jsonrpc ?? "2.0", id: c.id });
    };
    return { status: a.status, body: Array.isArray(body) && body.length > 0 ? body.map(one) : one(body), route: "ratelimit" };
  }

  private async jsonRpcBody(body: unknown): Promise<Reply> {
    if (Array.isArray(body)) {
      if (body.length === 0) return this.error("v2", 422, "an empty JSON-RPC batch", JSON_RPC_PATH);
      if (body.length > this.maxBatch) return this.error("v2", 422, `a JSON-RPC batch may hold at most ${this.maxBatch} calls, got ${body.length}`, JSON_RPC_PATH);
      const replies = await Promise.all(body.map((call) => this.jsonRpcCall(call)));
      return { status: 200, body: replies.map((r) => r.body), route: JSON_RPC_PATH };
    }
    return this.jsonRpcCall(body);
  }

  private async jsonRpcCall(call: unknown): Promise<Reply> {
    if (call === null || typeof call !== "object" || Array.isArray(call)) {
      return { status: 422, body: errorBody("v2", 422, "a JSON-RPC call must be an object {jsonrpc, id, method, params}", "_", {}), route: JSON_RPC_PATH };
    }
    const c = call as Record<string, JsonValue>;
    const echo: RpcEcho = { jsonrpc: c.jsonrpc ?? "2.0", id: c.id };
    let params = c.params ?? {};
    let extra = typeof c["@extra"] === "string" ? c["@extra"] : undefined;
    const fail = (status: number, message: string): Reply => ({ status, body: errorBody("v2", status, message, extra ?? newExtra(), echo), route: JSON_RPC_PATH });
    if (typeof c.method !== "string") return fail(422, 'a JSON-RPC call needs "method", the name of an API v2 method');
    const route = this.routes.byRpcName.get(c.method);
    if (!route) return fail(422, "Unknown method");
    if (Array.isArray(params)) {
      if (params.length > 0) return fail(422, "params must contain an object");
      params = {};
    }
    if (params === null || typeof params !== "object") return fail(422, "params must contain an object");
    params = { ...params };
    if (typeof params["@extra"] === "string") extra = params["@extra"];
    for (const k of EDGE_KEYS) delete params[k];
    try {
      const input = parseBody(route.method.input, params, { rejectUnknown: false });
      const { result, cached } = await this.call(route, input);
      return { status: 200, body: successBody("v2", result, cacheMark(extra ?? newExtra(), cached), echo), route: JSON_RPC_PATH };
    } catch (err) {
      const { status, message } = this.classify(err, route);
      return fail(status, message);
    }
  }
}

/** toncenter CPP marks an answer served from its cache by appending ":c" to @extra. */
const cacheMark = (extra: string, cached: boolean) => (cached ? `${extra}:c` : extra);

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "Content-Type, X-API-Key, Authorization",
  "access-control-expose-headers": "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, X-API-Version",
};

/** Decodes percent-escapes, folds repeated slashes and drops a trailing slash, so one method has one path. */
export function canonicalPath(raw: string): string {
  let p = raw.includes("%") ? decodeURIComponent(raw) : raw;
  if (p.includes("//")) p = p.replace(/\/{2,}/g, "/");
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p;
}

async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"]);
  if (declared > limit) {
    req.resume();
    throw new HttpError(413, `the request body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new HttpError(413, `the request body is larger than ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const raw = await readBody(req, limit);
  if (raw.length === 0) return {};
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch (e) {
    throw new HttpError(422, `the request body is not valid JSON: ${(e as Error).message}`);
  }
}

async function readJsonBody(req: IncomingMessage, limit: number): Promise<Record<string, JsonValue>> {
  const body = await readJson(req, limit);
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new HttpError(422, "the request body must be a JSON object of parameters");
  return body as Record<string, JsonValue>;
}
