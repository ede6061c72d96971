// The interceptors every transport runs — the in-process one, gRPC clients and the gRPC server alike —
// in connect-es's style (`(next) => async (req) => …`): metrics (calls and latency by RPC and code),
// logging (one debug line per call), deadlines (a unary call without one gets DEFAULT_DEADLINE_MS).
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError, type Interceptor, type StreamResponse, type UnaryResponse } from "@connectrpc/connect";
import { Counter, Histogram, Registry } from "prom-client";
import { createLogger, type Logger } from "./log.js";

/** Where the interceptors run: which side of which transport. */
export type CallSide = "in-process" | "grpc-client" | "grpc-server";

/** The calls' metrics; a process's /metrics includes them (the gateway's does). */
export const callRegistry = new Registry();
const calls = new Counter({
  name: "tongate_rpc_calls_total",
  help: "Service calls finished, by RPC, transport side and code (ok or the Connect error code)",
  labelNames: ["rpc", "side", "code"],
  registers: [callRegistry],
});
const duration = new Histogram({
  name: "tongate_rpc_call_duration_seconds",
  help: "Service call time (a stream's: until its last message), by RPC and transport side",
  labelNames: ["rpc", "side"],
  buckets: [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [callRegistry],
});

/** The calls' metrics, for a registry of its own to show (the gateway's /metrics does). */
export const callMetrics: readonly (Counter | Histogram)[] = [calls, duration];

/** A unary call without a deadline of its own gets this one, ms. */
export const DEFAULT_DEADLINE_MS = 60_000;

const codeOf = (e: unknown) => (e === undefined ? "ok" : Code[ConnectError.from(e).code]!.toLowerCase());

interface Bound {
  inc(): void;
}
interface Observer {
  observe(v: number): void;
}

/** Calls and latency by RPC; a stream is measured when its last message is read (or it fails). */
export function metricsInterceptor(side: CallSide): Interceptor {
  // Label children bound once per RPC (and code): no label hashing on every call.
  const bound = new Map<DescMethod, { rpc: string; ok: Bound; duration: Observer }>();
  const failed = new Map<string, Bound>();
  return (next) => async (req) => {
    const started = performance.now();
    let b = bound.get(req.method);
    if (!b) {
      const rpc = `${req.service.typeName}/${req.method.name}`;
      bound.set(req.method, (b = { rpc, ok: calls.labels(rpc, side, "ok"), duration: duration.labels(rpc, side) }));
    }
    const m = b;
    const done = (err?: unknown) => {
      if (err === undefined) m.ok.inc();
      else {
        const code = codeOf(err);
        let c = failed.get(`${m.rpc} ${code}`);
        if (!c) failed.set(`${m.rpc} ${code}`, (c = calls.labels(m.rpc, side, code)));
        c.inc();
      }
      m.duration.observe((performance.now() - started) / 1000);
    };
    let res: UnaryResponse | StreamResponse;
    try {
      res = await next(req);
    } catch (e) {
      done(e);
      throw e;
    }
    if (!res.stream) {
      done();
      return res;
    }
    return { ...res, message: observed(res.message, done) };
  };
}

async function* observed<T>(messages: AsyncIterable<T>, done: (err?: unknown) => void): AsyncIterable<T> {
  let err: unknown;
  try {
    yield* messages;
  } catch (e) {
    err = e;
    throw e;
  } finally {
    done(err);
  }
}

/** One debug line per finished unary call (a stream: per opening). */
export function loggingInterceptor(logger: Logger | (() => Logger), side: CallSide): Interceptor {
  const logged = async (next: Parameters<Interceptor>[0], req: Parameters<Parameters<Interceptor>[0]>[0], log: Logger) => {
    const started = performance.now();
    const rpc = `${req.service.typeName}/${req.method.name}`;
    try {
      const res = await next(req);
      log.debug({ rpc, side, code: "ok", ms: +(performance.now() - started).toFixed(3) }, "call");
      return res;
    } catch (e) {
      log.debug({ rpc, side, code: codeOf(e), ms: +(performance.now() - started).toFixed(3), err: ConnectError.from(e).message }, "call failed");
      throw e;
    }
  };
  return (next) => (req) => {
    const log = typeof logger === "function" ? logger() : logger;
    return log.isLevelEnabled("debug") ? logged(next, req, log) : next(req);
  };
}

const hasDeadline = (h: Headers) => h.has("grpc-timeout") || h.has("connect-timeout-ms");

/** A unary call without a deadline (no grpc-timeout / connect-timeout-ms) fails with DeadlineExceeded after `ms`. */
export function deadlineInterceptor(ms: number = DEFAULT_DEADLINE_MS): Interceptor {
  const bounded = async (next: Parameters<Interceptor>[0], req: Parameters<Parameters<Interceptor>[0]>[0]) => {
    const ac = new AbortController();
    const follow = () => ac.abort(req.signal.reason);
    if (req.signal.aborted) follow();
    else req.signal.addEventListener("abort", follow, { once: true });
    let expire: ((e: unknown) => void) | undefined;
    const expired = new Promise<never>((_, reject) => (expire = reject));
    const timer = setTimeout(() => {
      const err = new ConnectError(`${req.method.name}: no answer within ${ms} ms`, Code.DeadlineExceeded);
      ac.abort(err);
      expire!(err);
    }, ms);
    try {
      return await Promise.race([next({ ...req, signal: ac.signal }), expired]);
    } finally {
      clearTimeout(timer);
      req.signal.removeEventListener("abort", follow);
    }
  };
  return (next) => (req) => (req.stream || hasDeadline(req.header) ? next(req) : bounded(next, req));
}

let defaultLog: Logger | undefined;
/** The logger of the default interceptors (a host sets its own; otherwise one named "rpc"). */
export function setCallLogger(log: Logger): void {
  defaultLog = log;
}

/** The interceptors of every transport, outermost first: metrics, logging, deadlines. */
export function callInterceptors(side: CallSide, o: { log?: Logger; deadlineMs?: number } = {}): Interceptor[] {
  const log = o.log ?? (() => (defaultLog ??= createLogger({ name: "rpc" })));
  return [metricsInterceptor(side), loggingInterceptor(log, side), deadlineInterceptor(o.deadlineMs)];
}
