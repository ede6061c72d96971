// The embedded-mode transport: a Connect `Transport` that calls a service's
// implementation in this process. Callers use the same generated clients and
// see the same ConnectErrors, deadlines and headers as over gRPC, without the
// serialization round trip (connect's createRouterTransport costs ~200 µs a
// call, which would cap the gateway far below its throughput target). It runs
// the same interceptors as the gRPC transports (interceptors.ts): a call's
// deadline travels as a grpc-timeout header, as over gRPC.

type HeadersInit = ConstructorParameters<typeof Headers>[0];
import { create, isMessage, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createContextValues,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type StreamRequest,
  type StreamResponse,
  type Transport,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { callInterceptors } from "./interceptors.js";
import type { MethodHandler, RunningService } from "./service.js";

/** A signal that never aborts: the request's when the caller gave none. */
const NEVER = new AbortController().signal;

/** "123m" → 123 (the grpc-timeout header, as the interceptors see a deadline). */
function timeoutOf(h: Headers): number | undefined {
  const t = h.get("grpc-timeout");
  if (!t) return undefined;
  const n = Number(t.slice(0, -1));
  const unit = t.at(-1);
  return unit === "m" ? n : unit === "S" ? n * 1000 : unit === "u" ? n / 1000 : unit === "n" ? n / 1e6 : unit === "M" ? n * 60_000 : unit === "H" ? n * 3_600_000 : undefined;
}

/** A transport to `service`, one of the services `running` implements. */
export function inProcessTransport(service: DescService, running: RunningService, interceptors: Interceptor[] = callInterceptors("in-process")): Transport {
  const impl = running.impls.find((i) => i.service.typeName === service.typeName);
  const handlerOf = (method: DescMethod): MethodHandler => {
    const fn = method.parent.typeName === service.typeName ? impl?.handler(method) : undefined;
    if (!fn) throw new ConnectError(`${method.parent.typeName}.${method.name} is not implemented`, Code.Unimplemented);
    return fn;
  };
  const asMessage = (desc: DescMessage, value: unknown) => (isMessage(value, desc) ? value : create(desc, value as never));

  const core: Transport = {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const fn = handlerOf(method);
      const call = new CallContext(service, method, signal, timeoutMs, header, contextValues);
      try {
        const out = await call.race(Promise.resolve(fn(asMessage(method.input, input), call)));
        return { stream: false as const, service, method, header: call.responseHeader, message: asMessage(method.output, out) as never, trailer: call.responseTrailer };
      } catch (e) {
        throw ConnectError.from(e);
      } finally {
        call.end();
      }
    },
    async stream(method, signal, timeoutMs, header, input, contextValues) {
      const fn = handlerOf(method);
      const call = new CallContext(service, method, signal, timeoutMs, header, contextValues);
      async function* requests() {
        for await (const m of input) yield asMessage(method.input, m);
      }
      const req = method.methodKind === "server_streaming" ? await firstOf(requests()) : requests();
      const produced = fn(req, call);
      async function* responses() {
        try {
          if (method.methodKind === "client_streaming") {
            yield asMessage(method.output, await call.race(Promise.resolve(produced)));
          } else {
            for await (const m of produced as AsyncIterable<unknown>) {
              if (call.signal.aborted) throw call.signal.reason;
              yield asMessage(method.output, m);
            }
          }
        } catch (e) {
          throw ConnectError.from(e);
        } finally {
          call.end();
        }
      }
      return { stream: true as const, service, method, header: call.responseHeader, message: responses() as never, trailer: call.responseTrailer };
    },
  };
  if (interceptors.length === 0) return core;

  // The interceptors around the core, as connect's clients apply them (the first one outermost).
  const chain = interceptors.reduceRight<(req: UnaryRequest | StreamRequest) => Promise<UnaryResponse | StreamResponse>>(
    (next, interceptor) => interceptor(next),
    (req) => {
      const signal = req.signal === NEVER ? undefined : req.signal;
      return req.stream
        ? core.stream(req.method as never, signal, timeoutOf(req.header), req.header, req.message, req.contextValues)
        : core.unary(req.method as never, signal, timeoutOf(req.header), req.header, req.message, req.contextValues);
    },
  );
  const common = (method: DescMethod, signal: AbortSignal | undefined, timeoutMs: number | undefined, header: HeadersInit | undefined, contextValues: ContextValues | undefined) => {
    const h = new Headers(header);
    if (timeoutMs !== undefined) h.set("grpc-timeout", `${Math.max(0, Math.ceil(timeoutMs))}m`);
    return { service, method, requestMethod: "POST", url: `/${service.typeName}/${method.name}`, signal: signal ?? NEVER, header: h, contextValues: contextValues ?? createContextValues() };
  };
  return {
    unary: (method, signal, timeoutMs, header, input, contextValues) =>
      chain({ stream: false, ...common(method, signal, timeoutMs, header, contextValues), message: asMessage(method.input, input) } as UnaryRequest) as never,
    stream: (method, signal, timeoutMs, header, input, contextValues) =>
      chain({ stream: true, ...common(method, signal, timeoutMs, header, contextValues), message: input } as StreamRequest) as never,
  };
}

/**
 * The HandlerContext of one in-process call. Headers and the abort signal are
 * made on first use: most handlers touch neither, and building them (connect's
 * createHandlerContext) costs more than a typical handler.
 */
class CallContext implements HandlerContext {
  readonly protocolName = "in-process";
  readonly requestMethod = "POST";
  readonly values: ContextValues;
  private readonly deadline: number | undefined;
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reqHeader: Headers | undefined;
  private resHeader: Headers | undefined;
  private resTrailer: Headers | undefined;
  private timedOut: ((e: ConnectError) => void) | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethod,
    private readonly callerSignal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    private readonly header: HeadersInit | undefined,
    values: ContextValues | undefined,
  ) {
    this.values = values ?? createContextValues();
    if (timeoutMs !== undefined) {
      this.deadline = Date.now() + timeoutMs;
      this.timer = setTimeout(() => this.expire(), Math.max(0, timeoutMs));
    }
  }

  get url() {
    return `/${this.service.typeName}/${this.method.name}`;
  }
  readonly timeoutMs = () => (this.deadline === undefined ? undefined : this.deadline - Date.now());
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      const caller = this.callerSignal;
      if (caller) {
        if (caller.aborted) this.controller.abort(caller.reason);
        else caller.addEventListener("abort", () => this.controller!.abort(caller.reason), { once: true });
      }
    }
    return this.controller.signal;
  }
  get requestHeader() {
    return (this.reqHeader ??= new Headers(this.header));
  }
  get responseHeader() {
    return (this.resHeader ??= new Headers());
  }
  get responseTrailer() {
    return (this.resTrailer ??= new Headers());
  }

  /** Settles with `p`, or rejects when the deadline passes or the caller aborts. */
  race<T>(p: Promise<T>): Promise<T> {
    if (this.timer === undefined && !this.callerSignal) return p;
    return new Promise<T>((resolve, reject) => {
      this.timedOut = reject;
      this.callerSignal?.addEventListener("abort", () => reject(ConnectError.from(this.callerSignal!.reason)), { once: true });
      p.then(resolve, reject);
    });
  }

  private expire() {
    const err = new ConnectError("the operation timed out", Code.DeadlineExceeded);
    this.controller?.abort(err);
    this.timedOut?.(err);
  }

  end() {
    clearTimeout(this.timer);
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(new ConnectError("call ended", Code.Canceled));
  }
}

async function firstOf<T>(it: AsyncIterable<T>): Promise<T> {
  for await (const v of it) return v;
  throw new ConnectError("expected one request message, got none", Code.InvalidArgument);
}
