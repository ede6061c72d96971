// The service modules tongate can host, and what a command's options give their host
// (@tongate/runtime's ServiceHost, which knows no service by name).
import type { DescService } from "@bufbuild/protobuf";
import { decoderService } from "@tongate/decoder";
import { indexService } from "@tongate/indexer";
import { liteClientProvision } from "@tongate/liteclient";
import { emulatorProvision } from "@tongate/emulator";
import { liteProxyService } from "@tongate/lite-proxy";
import { rateLimitService } from "@tongate/ratelimit";
import { sendService } from "@tongate/send";
import { storeProvision } from "@tongate/store";
import { streamingService } from "@tongate/streaming";
import { busKey, ConfigError, openBus, provide, ServiceHost, type Closable, type Logger, type Provision, type RawOptions, type ServiceModule } from "@tongate/runtime";

export const serviceModules: readonly ServiceModule[] = [liteProxyService, sendService, rateLimitService, indexService, decoderService, streamingService];

export function findService(name: string): ServiceModule {
  const m = serviceModules.find((s) => s.name === name);
  if (!m) throw new Error(`unknown service "${name}"; known: ${serviceModules.map((s) => s.name).join(", ")}`);
  return m;
}

/** --upstream NAME=URL pairs: modules that run elsewhere, their services reached over gRPC. */
export function upstreamsOf(o: RawOptions): { name: string; services: readonly DescService[]; url: string }[] {
  const upstream = o.upstream;
  const pairs = Array.isArray(upstream) ? upstream.map(String) : [];
  return pairs.map((u) => {
    const i = u.indexOf("=");
    if (i < 1) throw new ConfigError(`--upstream "${u}" is not NAME=URL`);
    const m = findService(u.slice(0, i));
    return { name: m.name, services: m.services, url: u.slice(i + 1) };
  });
}

/**
 * What a host supplies on these options: the liteserver pool of the chain they name, TON's emulator
 * in processes of its own (bounded by the --emulator-* flags), the store (chDB in the process or a
 * ClickHouse server, with the key index: the store's flags; opened once, only when a module needs
 * it), the event bus (NATS with --nats-url; a NATS that is down at start is connected in the
 * background, the indexer's events wait in its outbox meanwhile).
 */
export function provisionsOf(o: RawOptions, log?: Logger): Provision<Closable>[] {
  const natsUrl = typeof o["nats-url"] === "string" ? o["nats-url"] : undefined;
  return [
    liteClientProvision(o, { haltAfterMs: chainHaltAfterOf(o) * 1000 }),
    emulatorProvision(o),
    storeProvision(o),
    provide(busKey, () => openBus({ natsUrl, name: "tongate", log: log?.child({ component: "bus" }), startDown: true })),
  ];
}

/** Seconds without a new masterchain block before /healthz says the chain halted, unless --chain-halt-after says: ~12 of mainnet's blocks. */
export const DEFAULT_CHAIN_HALT_AFTER_S = 60;

/** --chain-halt-after in seconds (0: never judged). */
function chainHaltAfterOf(o: RawOptions): number {
  const raw = o["chain-halt-after"];
  if (raw === undefined) return DEFAULT_CHAIN_HALT_AFTER_S;
  const n = Number(raw);
  const given = typeof raw === "number" || (typeof raw === "string" && raw.trim() !== "");
  if (!given || !Number.isFinite(n) || n < 0) throw new ConfigError(`--chain-halt-after ${String(raw)}: expected seconds, 0 or more (0: never judge the chain halted)`);
  return n;
}

/** Starts `modules` in this process on a command's options; the services in `remote` are reached over gRPC. */
export function startHost(modules: readonly ServiceModule[], o: RawOptions, log: Logger, remote: readonly { services: readonly DescService[]; url: string }[] = []): Promise<ServiceHost> {
  return ServiceHost.start(modules, { log, options: o, provide: provisionsOf(o, log), remote });
}
