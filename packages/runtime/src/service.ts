// A service module: one proto service and the factory of its implementation.
// The host decides whether it runs in the gateway's process or its own.
import type { DescService, JsonValue } from "@bufbuild/protobuf";
import type { ServiceImpl, Transport } from "@connectrpc/connect";
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

export interface RunningService<S extends DescService = DescService> {
  impl: Partial<ServiceImpl<S>>;
  /** Readiness and state, for /healthz when the service runs in the gateway's process. */
  health?(): ServiceHealth;
  /** Releases connections and timers; called on shutdown. */
  close?(): Promise<void>;
}

export interface ServiceModule<S extends DescService = DescService> {
  /** The name used by --service and --upstream, e.g. "lite-proxy". */
  name: string;
  service: S;
  start(ctx: ServiceContext): Promise<RunningService<S>> | RunningService<S>;
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

export function defineService<S extends DescService>(m: ServiceModule<S>): ServiceModule<S> {
  return m;
}
