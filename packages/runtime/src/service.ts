// A service module: one proto service and the factory of its implementation.
// The host decides whether it runs in the gateway's process or its own.
import type { DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import type { Logger } from "./log.js";

export interface ServiceContext {
  log: Logger;
  options: Record<string, unknown>;
}

export interface RunningService<S extends DescService = DescService> {
  impl: Partial<ServiceImpl<S>>;
  /** Releases connections and timers; called on shutdown. */
  close?(): Promise<void>;
}

export interface ServiceModule<S extends DescService = DescService> {
  /** The name used by --service and --upstream, e.g. "lite-proxy". */
  name: string;
  service: S;
  start(ctx: ServiceContext): Promise<RunningService<S>> | RunningService<S>;
}

export function defineService<S extends DescService>(m: ServiceModule<S>): ServiceModule<S> {
  return m;
}
