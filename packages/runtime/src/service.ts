// A service module: the proto services it serves, the options it reads, what it needs from its host,
// and the factory of their implementations. The host (service-host.ts) decides whether it runs in the
// gateway's process or its own; it knows no service by name. Most modules serve one service
// (defineService); the indexer serves API v3's, one per toncenter tag (defineModule).
import type { DescMethod, DescService, JsonValue } from "@bufbuild/protobuf";
import type { ConnectRouter, HandlerContext, ServiceImpl, Transport } from "@connectrpc/connect";
import { ConfigError, type OptionSpec } from "./config.js";
import type { Registry } from "prom-client";
import type { Logger } from "./log.js";

/** The flag/env record of a command (parseOptions), plus values a composition root sets in process. */
export type RawOptions = Readonly<Record<string, unknown>>;

/** A thing a host may hand its services (a liteserver pool, the event bus), named by a key as connect-es names context values. */
export interface ResourceKey<T> {
  readonly id: symbol;
  /** What it is and how a user supplies it, for the error when a service needs it and there is none. */
  readonly description: string;
  /** Never set: carries T, so that a key of a pool cannot be given where a bus is needed. */
  readonly type?: T;
}

export function resourceKey<T>(description: string): ResourceKey<T> {
  return { id: Symbol(description), description };
}

/** A need the service can do without (it gets undefined when the host has none). */
export interface OptionalNeed<T> {
  readonly optional: ResourceKey<T>;
}

export const optional = <T>(key: ResourceKey<T>): OptionalNeed<T> => ({ optional: key });

/**
 * A resource the service uses only when another service of its process has it opened (the send
 * service classifies on the decoder's store when one is there, and would not open an empty one).
 */
export interface OpenedNeed<T> {
  readonly opened: ResourceKey<T>;
}

export const ifOpened = <T>(key: ResourceKey<T>): OpenedNeed<T> => ({ opened: key });

/** What a service needs, by the name it reads it under: a key (required), optional(key) or ifOpened(key). */
export type Needs = Readonly<Record<string, ResourceKey<unknown> | OptionalNeed<unknown> | OpenedNeed<unknown>>>;

/** The values a host supplies for `N` (for ifOpened: asked at each use, the value once some service opened it). */
export type Supplied<N extends Needs> = {
  readonly [K in keyof N]: N[K] extends OptionalNeed<infer T> ? T | undefined : N[K] extends OpenedNeed<infer T> ? () => Promise<T | undefined> : N[K] extends ResourceKey<infer T> ? T : never;
};

export interface ServiceContext<O = unknown, N extends Needs = Needs> {
  log: Logger;
  /** The module's own options, parsed by its `options`. */
  options: O;
  /** What it declared in `needs`, supplied by the host. */
  needs: Supplied<N>;
  /** How this service reaches another one (in-process or over gRPC), when the host can. */
  transportOf?: (service: DescService) => Transport | undefined;
}

/**
 * A service's state on /healthz. The rule of its status word: `ok: false` ("unavailable", 503) when
 * the service cannot answer its calls at all (lite-proxy without an alive liteserver, API v3 while
 * ClickHouse does not answer); `degraded` ("degraded", 200) when it answers but a person should know
 * something is wrong (the chain stopped advancing, NATS down, the emulator cannot run: the rest
 * answers). Every condition that is not ok says why in `reasons`.
 */
export interface ServiceHealth {
  /** The service can answer (e.g. lite-proxy: a liteserver is alive). */
  ok: boolean;
  /** It answers, but without a dependency (e.g. ratelimit by its outage policy while NATS is down): /healthz says "degraded", still 200. */
  degraded?: boolean;
  /** Why it is not ok or degraded, one sentence each, naming the part first: "clickhouse: no answer to SELECT 1 for 12 s". */
  reasons?: string[];
  /** What /healthz shows about it. */
  detail?: JsonValue;
}

/** The state of a dependency (NATS, the liteservers, the chain), as /healthz shows it under `dependencies`. */
export interface DependencyHealth {
  /** e.g. "nats", "liteservers", "chain" */
  name: string;
  /** false makes the process "degraded" (200): a dependency down does not fail /healthz by itself, the services decide. */
  ok: boolean;
  /** Why it is not ok, naming the part first: "chain: no new masterchain block for 95 s, last seqno 41". */
  reason?: string;
  detail?: JsonValue;
}

/**
 * Something whose state /healthz reports beside the services' (a worker pool, a resource the host
 * did not open): registered with ServiceHost.addHealth, or a resource the host opened (Closable.health).
 */
export interface HealthContributor {
  health(): DependencyHealth | readonly DependencyHealth[];
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
  /** The service's own metrics, for the /metrics of the process that hosts it. */
  metrics?: Registry;
  /** Releases connections and timers; called on shutdown. */
  close?(): Promise<void>;
}

/** The implementations of a service's methods (ServiceImpl<S>), as one service's module starts them. */
export interface RunningSingle<S extends DescService> extends Omit<RunningService, "impls"> {
  impl: Partial<ServiceImpl<S>>;
}

/** How a host launches a module: the supply of needs and the way to other services. */
export interface LaunchContext {
  log: Logger;
  /** The value of a resource key, opened on first need; undefined when the host has none. */
  supply<T>(key: ResourceKey<T>): Promise<T | undefined>;
  /** The value of a resource key if a service already asked for it (opened or opening); undefined otherwise, nothing opened. */
  peek?<T>(key: ResourceKey<T>): Promise<T | undefined>;
  transportOf?: (service: DescService) => Transport | undefined;
}

/**
 * A service module as a host sees it, its types erased (a host holds modules of different services,
 * options and needs in one list): options are parsed and needs supplied inside `launch`.
 */
export interface ServiceModule {
  /** The name used by --service and --upstream, e.g. "lite-proxy". */
  readonly name: string;
  /** The proto services it serves (each started module gives an implementation of every one). */
  readonly services: readonly DescService[];
  /** The flags it reads, for the commands that host it (help and parsing). */
  readonly flags: readonly OptionSpec[];
  readonly needs: Needs;
  launch(raw: RawOptions, ctx: LaunchContext): Promise<RunningService>;
}

/** What a module says about itself, typed: its options parsed from the flags, its needs, its start. */
export interface ModuleDefinition<O, N extends Needs, R> {
  name: string;
  flags?: readonly OptionSpec[];
  /** Its options from the command's flag/env record; a bad value is a ConfigError naming the flag. */
  options(raw: RawOptions): O;
  needs: N;
  start(ctx: ServiceContext<O, N>): Promise<R> | R;
}

/** A module with both faces: the erased one hosts use, and the typed one (options, start with typed options and needs). */
export type TypedServiceModule<O, N extends Needs> = ServiceModule & {
  options(raw: RawOptions): O;
  start(ctx: ServiceContext<O, N>): Promise<RunningService>;
};

/** A module of several services: `start` gives an implementation of each (`implement`). */
export function defineModule<O, N extends Needs>(def: ModuleDefinition<O, N, RunningService> & { services: readonly DescService[] }): TypedServiceModule<O, N> {
  const start = async (ctx: ServiceContext<O, N>) => def.start(ctx);
  return {
    name: def.name,
    services: def.services,
    flags: def.flags ?? [],
    needs: def.needs,
    options: def.options,
    start,
    async launch(raw, ctx) {
      const options = def.options(raw);
      const needs = await supplyNeeds(def.name, def.needs, ctx);
      return start({ log: ctx.log, options, needs, transportOf: ctx.transportOf });
    },
  };
}

/** A module of one service: `start` gives its methods as `impl`, typed by the service. */
export function defineService<S extends DescService, O, N extends Needs>(def: ModuleDefinition<O, N, RunningSingle<S>> & { service: S }): TypedServiceModule<O, N> {
  return defineModule({
    ...def,
    services: [def.service],
    async start(ctx) {
      const { impl, ...rest } = await def.start(ctx);
      return { ...rest, impls: [implement(def.service, impl)] };
    },
  });
}

/** The host's values for each need, in `needs`' order; a required one the host lacks is an error naming it. */
async function supplyNeeds<N extends Needs>(module: string, needs: N, ctx: LaunchContext): Promise<Supplied<N>> {
  const supplied: Record<string, unknown> = {};
  for (const [name, need] of Object.entries(needs)) {
    if ("opened" in need) {
      const key = need.opened;
      supplied[name] = () => ctx.peek?.(key) ?? Promise.resolve(undefined);
      continue;
    }
    const key = "optional" in need ? need.optional : need;
    const value = await ctx.supply(key);
    if (value === undefined && !("optional" in need)) throw new ConfigError(`${module} needs ${key.description}`);
    supplied[name] = value;
  }
  // each entry was filled from its own key just above
  return supplied as Supplied<N>;
}

/** /healthz of services in this process: ok when every one is, with each one's detail by name. */
export function healthOf(services: readonly { name: string; running: RunningService }[]): () => Promise<ServiceHealth> {
  return () => {
    const detail: Record<string, JsonValue> = {};
    const reasons: string[] = [];
    let ok = true;
    let degraded = false;
    for (const s of services) {
      const h = s.running.health?.();
      if (!h) continue;
      ok &&= h.ok;
      degraded ||= h.degraded === true;
      if (h.detail !== undefined) detail[s.name] = h.detail;
      if (!h.ok || h.degraded) reasons.push(...(h.reasons?.length ? h.reasons : [`${s.name}: ${h.ok ? "degraded" : "cannot answer"}`]));
    }
    // No service reporting: just {"status":"ok"}.
    return Promise.resolve({ ok, ...(degraded ? { degraded } : {}), ...(reasons.length ? { reasons } : {}), ...(Object.keys(detail).length ? { detail } : {}) });
  };
}

/** /healthz's status word: "unavailable" (503), "degraded" (200: answering without a dependency) or "ok". */
export function healthStatus(h: { ok: boolean; degraded?: boolean }): "ok" | "degraded" | "unavailable" {
  return !h.ok ? "unavailable" : h.degraded ? "degraded" : "ok";
}

/** The JSON of /healthz: `{"status", "reasons"? (when not ok), "detail"?}`, and its HTTP status (503 when unavailable). */
export function healthAnswer(h: ServiceHealth): { status: number; body: { status: ReturnType<typeof healthStatus>; reasons?: string[]; detail?: JsonValue } } {
  const status = healthStatus(h);
  return {
    status: h.ok ? 200 : 503,
    body: { status, ...(status !== "ok" && h.reasons?.length ? { reasons: h.reasons } : {}), ...(h.detail !== undefined ? { detail: h.detail } : {}) },
  };
}
