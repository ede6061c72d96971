// A service module: the proto services it serves and the factory of their implementations.
// The host decides whether it runs in the gateway's process or its own. Most modules serve one
// service (defineService); the indexer serves API v3's, one per toncenter tag.
import type { DescMethod, DescService, JsonValue } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, ServiceImpl, Transport } from "@connectrpc/connect";
import type { EventBus } from "./bus.js";
import type { Logger } from "./log.js";

export interface ServiceContext {
  log: Logger;
  options: Record<string, unknown>;
  /** How this service reaches another one (in-process or over gRPC), when the host can. */
  transportOf?: (service: DescService) => Transport | undefined;
  /** The host's event bus (in-process, or NATS JetStream with --nats-url), shared by its services. */
  bus?: EventBus;
}

export interface ServiceHealth {
  /** The service can answer (e.g. lite-proxy: a liteserver is alive). */
  ok: boolean;
  /** What /healthz shows about it. */
  detail?: JsonValue;
}

/** A method's handler as transports call it (the request message, the call's context). */
export type MethodHandler = (req: unknown, ctx: HandlerContext) => unknown;

/**
 * One proto service's implementation. `implement` checks the methods against the service's types
 * where they are written; hosts hold them side by side, whatever their service.
 */
export interface ServiceImplementation {
  readonly service: DescService;
  /** The handler of one of the service's methods; undefined when it is not implemented. */
  handler(method: DescMethod): MethodHandler | undefined;
  /** Adds the implementation to a Connect router (the gRPC server). */
  route(router: ConnectRouter): void;
}

export function implement<S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>): ServiceImplementation {
  const methods: Record<string, unknown> = impl;
  // bound once per method: transports look a handler up on every call
  const handlers = new Map<string, MethodHandler>();
  for (const [name, fn] of Object.entries(methods)) if (typeof fn === "function") handlers.set(name, (req, ctx) => fn.call(impl, req, ctx));
  return {
    service,
    handler: (method) => (method.parent.typeName === service.typeName ? handlers.get(method.localName) : undefined),
    route: (router) => router.service(service, impl),
  };
}

export interface RunningService {
  /** The implementation of each service of the module. */
  impls: ServiceImplementation[];
  /** Readiness and state, for /healthz when the service runs in the gateway's process. */
  health?(): ServiceHealth;
  /** Releases connections and timers; called on shutdown. */
  close?(): Promise<void>;
}

export interface ServiceModule {
  /** The name used by --service and --upstream, e.g. "lite-proxy". */
  name: string;
  /** The proto services it serves (each started module gives an implementation of every one). */
  services: DescService[];
  start(ctx: ServiceContext): Promise<RunningService> | RunningService;
}

/** The implementations of a service's methods (ServiceImpl<S>), as one service's module starts them. */
export interface RunningSingle<S extends DescService> extends Omit<RunningService, "impls"> {
  impl: Partial<ServiceImpl<S>>;
}

/** /healthz of services in this process: ok when every one is, with each one's detail by name. */
export function healthOf(services: { name: string; running: RunningService }[]): () => Promise<{ ok: boolean; detail?: JsonValue }> {
  return () => {
    const detail: Record<string, JsonValue> = {};
    let ok = true;
    for (const s of services) {
      const h = s.running.health?.();
      if (!h) continue;
      ok &&= h.ok;
      if (h.detail !== undefined) detail[s.name] = h.detail;
    }
    // No service reporting: just {"status":"ok"}.
    return Promise.resolve(Object.keys(detail).length ? { ok, detail } : { ok });
  };
}

/** A module of one service: `start` gives its methods as `impl`, typed by the service. */
export function defineService<S extends DescService>(m: { name: string; service: S; start(ctx: ServiceContext): Promise<RunningSingle<S>> | RunningSingle<S> }): ServiceModule {
  return {
    name: m.name,
    services: [m.service],
    async start(ctx) {
      const { impl, ...rest } = await m.start(ctx);
      return { ...rest, impls: [implement(m.service, impl)] };
    },
  };
}
