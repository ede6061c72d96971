// Every service module tongate can host, by name, and how a process hosts several of them.
import type { DescService } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { indexService } from "@tongate/indexer";
import { globalConfigOf, LiteserverPool } from "@tongate/liteclient";
import { liteProxyService } from "@tongate/lite-proxy";
import { rateLimitService } from "@tongate/ratelimit";
import { ConfigError, inProcessTransport, openBus, remoteTransport, type Logger, type RunningService, type ServiceModule } from "@tongate/runtime";

export const serviceModules: ServiceModule[] = [liteProxyService, rateLimitService, indexService];

export function findService(name: string): ServiceModule {
  const m = serviceModules.find((s) => s.name === name);
  if (!m) throw new Error(`unknown service "${name}"; known: ${serviceModules.map((s) => s.name).join(", ")}`);
  return m;
}

/** --upstream NAME=URL pairs: services that run elsewhere, reached over gRPC. */
export function upstreamsOf(o: Record<string, unknown>): Map<string, string> {
  const remote = new Map<string, string>();
  for (const u of (o.upstream as string[] | undefined) ?? []) {
    const i = u.indexOf("=");
    if (i < 1) throw new ConfigError(`--upstream "${u}" is not NAME=URL`);
    remote.set(findService(u.slice(0, i)).name, u.slice(i + 1));
  }
  return remote;
}

export interface HostedService {
  name: string;
  module: ServiceModule;
  running: RunningService;
}

/**
 * Starts service modules in this process. Each reaches another through `transportOf`: in-process
 * when it runs here, over gRPC when `remote` names its URL. The indexer also gets a liteserver pool
 * of the chain (when one is configured) to follow it.
 */
export async function startModules(modules: ServiceModule[], o: Record<string, unknown>, log: Logger, remote = new Map<string, string>()): Promise<{ running: HostedService[]; close(): Promise<void> }> {
  const started: HostedService[] = [];
  const serves = (m: ServiceModule, desc: DescService) => m.services.some((s) => s.typeName === desc.typeName);
  const transportOf = (desc: DescService) => {
    const local = started.find((s) => serves(s.module, desc));
    if (local) return inProcessTransport(desc, local.running);
    const url = remote.get(serviceModules.find((m) => serves(m, desc))?.name ?? "");
    return url ? remoteTransport(url) : undefined;
  };
  const chain = modules.some((m) => m.name === "indexer") && (o.globalConfig || o["global-config"] || o.network) ? globalConfigOf(o) : undefined;
  const pool = chain ? LiteserverPool.fromGlobalConfig(chain) : undefined;
  const bus = await openBus({ natsUrl: o["nats-url"] as string | undefined, name: "tongate" });
  await Promise.all(
    modules.map(async (m) => {
      const options = m.name === "indexer" ? { ...o, liteClient: pool } : o;
      started.push({ name: m.name, module: m, running: await m.start({ log: log.child({ service: m.name }), options, transportOf, bus }) });
    }),
  );
  return {
    running: started,
    async close() {
      await closeAll(started.map((s) => s.running));
      await pool?.close();
      await bus.close();
    },
  };
}

/** Every service of the modules started here, each with its in-process transport (the gateway's upstreams). */
export function inProcessUpstreams(hosted: readonly HostedService[]): { service: DescService; transport: Transport }[] {
  return hosted.flatMap(({ module, running }) => module.services.map((service) => ({ service, transport: inProcessTransport(service, running) })));
}

async function closeAll(services: RunningService[]) {
  await Promise.all(services.map((s) => s.close?.()));
}
