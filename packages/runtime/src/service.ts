// A service module: one proto service, the options it reads, what it needs from its host, and the
// factory of its implementation. The host (service-host.ts) decides whether it runs in the gateway's
// process or its own; it knows no service by name.
import type { DescService, JsonValue } from "@bufbuild/protobuf";
import type { ServiceImpl, Transport } from "@connectrpc/connect";
import { ConfigError, type OptionSpec } from "./config.js";
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

/** What a service needs, by the name it reads it under: a key (required) or optional(key). */
export type Needs = Readonly<Record<string, ResourceKey<unknown> | OptionalNeed<unknown>>>;

/** The values a host supplies for `N`. */
export type Supplied<N extends Needs> = {
  readonly [K in keyof N]: N[K] extends OptionalNeed<infer T> ? T | undefined : N[K] extends ResourceKey<infer T> ? T : never;
};

export interface ServiceContext<O = unknown, N extends Needs = Needs> {
  log: Logger;
  /** The service's own options, parsed by its `options`. */
  options: O;
  /** What it declared in `needs`, supplied by the host. */
  needs: Supplied<N>;
  /** How this service reaches another one (in-process or over gRPC), when the host can. */
  transportOf?: (service: DescService) => Transport | undefined;
}

export interface ServiceHealth {
  /** The service can answer (e.g. lite-proxy: a liteserver is alive). */
  ok: boolean;
  /** What /healthz shows about it. */
  detail?: JsonValue;
}

export interface RunningService<S extends DescService = DescService> {
  impl: Partial<ServiceImpl<S>>;
  /** Readiness and state, for /healthz when the service runs in the gateway's process. */
  health?(): ServiceHealth;
  /** Releases connections and timers; called on shutdown. */
  close?(): Promise<void>;
}

/** What a service module says about itself, typed. */
export interface ServiceDefinition<S extends DescService, O, N extends Needs> {
  /** The name used by --service and --upstream, e.g. "lite-proxy". */
  name: string;
  service: S;
  /** The flags it reads, for the commands that host it (help and parsing). */
  flags?: readonly OptionSpec[];
  /** Its options from the command's flag/env record; a bad value is a ConfigError naming the flag. */
  options(raw: RawOptions): O;
  needs: N;
  start(ctx: ServiceContext<O, N>): Promise<RunningService<S>> | RunningService<S>;
}

/** How a host launches a module: the supply of needs and the way to other services. */
export interface LaunchContext {
  log: Logger;
  /** The value of a resource key, opened on first need; undefined when the host has none. */
  supply<T>(key: ResourceKey<T>): Promise<T | undefined>;
  transportOf?: (service: DescService) => Transport | undefined;
}

/**
 * A service module as a host sees it, its types erased (a host holds modules of different services,
 * options and needs in one list): options are parsed and needs supplied inside `launch`.
 */
export interface ServiceModule {
  readonly name: string;
  readonly service: DescService;
  readonly flags: readonly OptionSpec[];
  readonly needs: Needs;
  launch(raw: RawOptions, ctx: LaunchContext): Promise<RunningService>;
}

/** A module with both faces: the erased one hosts use and the typed one (start with typed options and needs). */
export type TypedServiceModule<S extends DescService, O, N extends Needs> = ServiceModule & ServiceDefinition<S, O, N>;

export function defineService<S extends DescService, O, N extends Needs>(def: ServiceDefinition<S, O, N>): TypedServiceModule<S, O, N> {
  return {
    ...def,
    flags: def.flags ?? [],
    async launch(raw, ctx) {
      const options = def.options(raw);
      const needs = await supplyNeeds(def.name, def.needs, ctx);
      return def.start({ log: ctx.log, options, needs, transportOf: ctx.transportOf });
    },
  };
}

/** The host's values for each need, in `needs`' order; a required one the host lacks is an error naming it. */
async function supplyNeeds<N extends Needs>(service: string, needs: N, ctx: LaunchContext): Promise<Supplied<N>> {
  const supplied: Record<string, unknown> = {};
  for (const [name, need] of Object.entries(needs)) {
    const key = "optional" in need ? need.optional : need;
    const value = await ctx.supply(key);
    if (value === undefined && !("optional" in need)) throw new ConfigError(`${service} needs ${key.description}`);
    supplied[name] = value;
  }
  // each entry was filled from its own key just above
  return supplied as Supplied<N>;
}

/** /healthz of services in this process: ok when every one is, with each one's detail by name. */
export function healthOf(services: readonly { name: string; running: RunningService }[]): () => Promise<{ ok: boolean; detail?: JsonValue }> {
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
