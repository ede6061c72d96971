// The embedded-mode transport: a Connect `Transport` that calls a service's
// implementation in this process. Callers use the same generated clients and
// see the same ConnectErrors, deadlines and headers as over gRPC, without the
// serialization round trip (connect's createRouterTransport costs ~200 µs a
// call, which would cap the gateway far below its throughput target).

type HeadersInit = ConstructorParameters<typeof Headers>[0];
import { create, isMessage, type DescMessage, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createContextValues, type ContextValues, type HandlerContext, type Transport } from "@connectrpc/connect";
import type { RunningService } from "./service.js";

type Handler = (req: unknown, ctx: HandlerContext) => unknown;

export function inProcessTransport(service: DescService, running: RunningService): Transport {
  const impl = running.impl as Record<string, Handler | undefined>;
  const handlerOf = (method: DescMethod): Handler => {
    const fn = impl[method.localName];
    if (method.parent.typeName !== service.typeName || !fn) {
      throw new ConnectError(`${method.parent.typeName}.${method.name} is not implemented`, Code.Unimplemented);
    }
    return fn;
  };
  const asMessage = (desc: DescMessage, value: unknown) => (isMessage(value, desc) ? value : create(desc, value as never));

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const fn = handlerOf(method);
      const call = new CallContext(service, method, signal, timeoutMs, header, contextValues);
      try {
        const out = await call.race(Promise.resolve(fn.call(impl, asMessage(method.input, input), call)));
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
      const produced = fn.call(impl, req, call);
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
