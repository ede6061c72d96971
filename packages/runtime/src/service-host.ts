// The host of service modules in one process (`tongate start`, `serve`, `gateway`): it starts them,
// supplies what each declares in `needs` (opened once, on first need, and shared), connects them to
// each other (in process, or over gRPC to the ones elsewhere), reports their health and shuts them
// down in order. It knows services only by their proto service, never by name.
import type { DescService, JsonValue } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { busKey, openBus } from "./bus.js";
import { inProcessTransport, remoteTransport, serveGrpc, type GrpcServer } from "./host.js";
import type { Registry } from "prom-client";
import type { Logger } from "./log.js";
import { healthOf, type DependencyHealth, type HealthContributor, type RawOptions, type ResourceKey, type RunningService, type ServiceHealth, type ServiceModule } from "./service.js";

/** A resource the host owns once opened: it closes it after the services that use it. */
export interface Closable {
  close(): Promise<void>;
  /** Its state, when it is a dependency worth showing on /healthz (one, or several: the liteservers and the chain they serve). */
  health?(): DependencyHealth | readonly DependencyHealth[];
}

/** How a host opens the value of a key; undefined: it has none (e.g. no chain configured). */
export interface Provision<T> {
  readonly key: ResourceKey<T>;
  open(): Promise<T | undefined> | T | undefined;
}

export const provide = <T extends Closable>(key: ResourceKey<T>, open: () => Promise<T | undefined> | T | undefined): Provision<T> => ({ key, open });

export interface HostOptions {
  log: Logger;
  /** The command's flag/env record; each module parses its own options from it. */
  options: RawOptions;
  /** What the host can supply. The event bus defaults to one in this process. */
  provide?: readonly Provision<Closable>[];
  /** Modules that run elsewhere (their services), reached over gRPC at `url`. */
  remote?: readonly { services: readonly DescService[]; url: string }[];
}

export interface HostedService {
  name: string;
  module: ServiceModule;
  running: RunningService;
}

/** The default event bus: in this process (a command with --nats-url provides NATS instead). */
const inProcessBus = provide(busKey, () => openBus({ name: "tongate" }));

export class ServiceHost {
  /** The started services, in the order of the modules given. */
  readonly services: readonly HostedService[];
  private readonly opened: Closable[];
  private readonly contributors = new Set<HealthContributor>();
  private closing: Promise<void> | undefined;

  private constructor(services: HostedService[], opened: Closable[]) {
    this.services = services;
    this.opened = opened;
  }

  /**
   * Starts `modules` in this process, all at once (a slow one, e.g. a liteserver pool waiting for its
   * first probe, does not hold the others). If one fails to start, the ones started are closed again.
   */
  static async start(modules: readonly ServiceModule[], o: HostOptions): Promise<ServiceHost> {
    const provisions = new Map<symbol, Provision<Closable>>();
    for (const p of [inProcessBus, ...(o.provide ?? [])]) provisions.set(p.key.id, p);
    const values = new Map<symbol, Promise<unknown>>();
    const opened: Closable[] = [];
    const slots: (HostedService | undefined)[] = modules.map(() => undefined);
    const serves = (services: readonly DescService[], desc: DescService) => services.some((s) => s.typeName === desc.typeName);
    const transportOf = (desc: DescService): Transport | undefined => {
      const local = slots.find((s) => s && serves(s.module.services, desc));
      if (local) return inProcessTransport(desc, local.running);
      const url = o.remote?.find((r) => serves(r.services, desc))?.url;
      return url ? remoteTransport(url) : undefined;
    };
    const supply = <T>(key: ResourceKey<T>): Promise<T | undefined> => {
      let value = values.get(key.id);
      if (!value) {
        const p = provisions.get(key.id);
        value = Promise.resolve(p?.open()).then((v) => {
          if (v) opened.push(v);
          return v;
        });
        values.set(key.id, value);
      }
      // the promise under key.id was made by the provision of that same key, whose value is a T
      return value as Promise<T | undefined>;
    };
    const peek = <T>(key: ResourceKey<T>): Promise<T | undefined> => {
      // the promise under key.id was made by the provision of that same key, whose value is a T
      const value = values.get(key.id) as Promise<T | undefined> | undefined;
      return value ?? Promise.resolve(undefined);
    };
    const starts = modules.map(async (module, i) => {
      const running = await module.launch(o.options, { log: o.log.child({ service: module.name }), supply, peek, transportOf });
      slots[i] = { name: module.name, module, running };
    });
    const results = await Promise.allSettled(starts);
    const started = slots.filter((s): s is HostedService => s !== undefined);
    const host = new ServiceHost(started, opened);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
    if (failed) {
      await host.close().catch((err: unknown) => o.log.warn({ err }, "closing after a failed start"));
      throw failed.reason;
    }
    return host;
  }

  /** Every service of the modules here with its in-process transport, e.g. for a gateway in front of them. */
  upstreams(): { service: DescService; transport: Transport }[] {
    return this.services.flatMap(({ module, running }) => module.services.map((service) => ({ service, transport: inProcessTransport(service, running) })));
  }

  /**
   * Adds something whose state /healthz reports under `dependencies` (e.g. a worker pool a command
   * owns); a state that is not ok makes the process "degraded" with its reason. Returns the removal.
   */
  addHealth(contributor: HealthContributor): () => void {
    this.contributors.add(contributor);
    return () => this.contributors.delete(contributor);
  }

  /**
   * /healthz of the services here, and the state of each dependency opened for them or added with
   * addHealth. A dependency that is down does not make the process unhealthy by itself: the services
   * decide (e.g. ratelimit keeps answering without NATS, lite-proxy not without a liteserver); the
   * process is then "degraded" (still 200), and `reasons` says why.
   */
  health(): () => Promise<ServiceHealth> {
    const services = healthOf(this.services);
    return async () => {
      const h = await services();
      const dependencies: Record<string, JsonValue> = {};
      const reasons = [...(h.reasons ?? [])];
      let degraded = h.degraded === true;
      for (const source of [...this.opened, ...this.contributors]) {
        const states = source.health?.();
        for (const d of states === undefined ? [] : "name" in states ? [states] : states) {
          dependencies[d.name] = { ok: d.ok, ...(d.detail !== undefined ? { detail: d.detail } : {}) };
          if (d.ok) continue;
          degraded = true;
          // a service that cannot answer without it has named it already
          if (!reasons.some((r) => r.startsWith(`${d.name}:`))) reasons.push(d.reason ?? `${d.name}: down`);
        }
      }
      if (Object.keys(dependencies).length === 0) return h;
      const detail = h.detail !== undefined && typeof h.detail === "object" && h.detail !== null && !Array.isArray(h.detail) ? h.detail : {};
      return { ok: h.ok, ...(degraded ? { degraded } : {}), ...(reasons.length ? { reasons } : {}), detail: { ...detail, dependencies } };
    };
  }

  /** The metrics of the services here (each service's own registry), for the /metrics of this process. */
  metrics(): Registry[] {
    return this.services.flatMap(({ running }) => (running.metrics ? [running.metrics] : []));
  }

  /** Serves the services here over gRPC (and Connect) on `listen`. */
  serveGrpc(listen: { host: string; port: number }): Promise<GrpcServer> {
    return serveGrpc(this.services, listen);
  }

  /** Closes the services in the reverse order of the modules given, then what was opened for them, the last opened first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const errors: unknown[] = [];
      for (const s of [...this.services].reverse()) await s.running.close?.().catch((e: unknown) => errors.push(e));
      for (const r of [...this.opened].reverse()) await r.close().catch((e: unknown) => errors.push(e));
      if (errors.length) throw errors[0];
    })();
    return this.closing;
  }
}
