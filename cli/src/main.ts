// tongate CLI: `start` (everything in one process), `serve` (services over
// gRPC in their own process), `gateway` (the HTTP edge in front of upstreams),
// `localnet` (a local chain), `index` (the chain into ClickHouse), `keys` (API keys).
import {
  callRegistry,
  ConfigError,
  createLogger,
  guardProcess,
  logFormatOf,
  openBus,
  parseListen,
  parseOptions,
  processRegistry,
  remoteTransport,
  serveMetrics,
  usage,
  type HealthContributor,
  type Logger,
  type MetricsSource,
  type OptionSpec,
  type ServiceHost,
} from "@tongate/runtime";
import { Gateway, listenGateway, type GatewayOptions, type SiteInfo, type Upstream } from "@tongate/gateway";
import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { buildShardState, checkPendingWindow, DEFAULT_STATE_WINDOW, libraryFromBoc, Localnet, localnetProofs, SHARD_COUNTS, startControlApi } from "@tongate/localnet";
import { installSpeedShims } from "@tongate/ton";
import { emulatorFlags, emulatorPoolOptionsOf } from "@tongate/emulator";
import { DEFAULT_CHAIN_HALT_AFTER_S, findService, serviceModules, startHost, upstreamsOf } from "./services.js";
import { rateLimitService } from "@tongate/ratelimit";
import { keysCommand, keysHelp } from "./keys.js";
import { classifyCommand, classifyHelp } from "./classify.js";
import { globalConfigOf, LiteserverPool } from "@tongate/liteclient";
import { decoderService } from "@tongate/decoder";
import { streamingService } from "@tongate/streaming";
import { IndexerMetrics, indexCommandOptions, indexCommandOptionsOf, indexService, prepareKeyIndex, registerIndexer, runIndexer } from "@tongate/indexer";
import { openStore, storeFlags } from "@tongate/store";

const common: OptionSpec[] = [
  { name: "log-level", default: "info", description: "trace, debug, info, warn or error" },
  { name: "log-format", default: "auto", description: "auto (one readable line per event on a terminal, JSON lines otherwise), pretty or json" },
];
const gatewayOptions: OptionSpec[] = [
  { name: "port", default: "8081", description: "HTTP port of the gateway" },
  { name: "host", description: "address the gateway listens on (default 0.0.0.0; `start` on a localnet: 127.0.0.1, this machine only: --host 0.0.0.0 opens it)" },
  { name: "call-timeout-ms", default: "10000", description: "deadline of one service call" },
  { name: "max-body-bytes", default: String(1 << 20), description: "largest request body accepted" },
  { name: "send-timeout-ms", default: "30000", description: "time a client has to take an answer once it is written (an event stream: each event); a client that does not read is dropped" },
  { name: "max-unread-bytes", default: String(8 << 20), description: "bytes of answers one connection may leave unread (pipelined requests, a WebSocket's frames); past it the client is dropped (a WebSocket: closed with 1013)" },
  { name: "stream-keepalive", default: "15", description: "seconds without a write after which an event stream (SSE) gets a `: keepalive` comment and a WebSocket a ping (a peer that misses one is cut off); 0: none" },
  { name: "max-frame-bytes", default: String(1 << 20), description: "largest WebSocket frame a client may send; a larger one closes the socket (1009)" },
  { name: "cache-max-bytes", default: String(64 << 20), description: "memory budget of the answer cache (TTLs per method in the contract); 0 turns it off" },
  { name: "ratelimit", description: "on: API keys and request-rate limits by the ratelimit service (keyless: 1 rps per client address); off: no limits (default on; `start` on a localnet: on, except keyless clients on loopback)" },
  { name: "trusted-proxy", repeated: true, description: "IP or CIDR of a proxy in front of the gateway whose X-Forwarded-For names the client (rate limits)" },
];

/** `listen` names the liteserver addresses: `--listen` for `tongate localnet`, `--liteserver` in `start` (where the gateway also listens). */
const localnetOptions = (listen: "listen" | "liteserver"): OptionSpec[] => [
  { name: "seed", default: "tongate", description: "localnet: seed of every key (validator, wallets, liteservers); same seed, same chain" },
  { name: listen, repeated: true, default: "127.0.0.1:30310", description: "localnet: HOST:PORT of a liteserver (repeat for several, each with its own key)" },
  { name: "block-interval", default: "1000", description: "localnet: ms between sealed blocks (0: only on demand)" },
  {
    name: "pending-window",
    description: "localnet: ms each seal serves its shard blocks as signed but not committed (liteServer.nonfinal.getPendingShardBlocks) before its masterchain block commits them; shorter than --block-interval (default: half of it; 0 with --block-interval 0)",
  },
  { name: "wallets", default: "4", description: "localnet: funded genesis wallets of each kind (v4r2, v5r1)" },
  { name: "control", default: "127.0.0.1:30380", description: "localnet: HOST:PORT of the control API (faucet, seal, wallets, global config)" },
  { name: "write-global-config", description: "localnet: write the TON global config pointing at it to this file" },
  { name: "data-dir", description: "localnet: keep the chain in this directory and continue it on restart (default: a temporary directory, removed at exit)" },
  { name: "library", repeated: true, description: "localnet: BoC FILE of a cell to publish as a public library at start (repeat for several; kept in --data-dir)" },
  { name: "shards", default: "1", description: "localnet: split workchain 0 into this many shards in the first blocks (1, 2, 4, 8 or 16); the control API splits and merges them later" },
  { name: "state-window", default: String(DEFAULT_STATE_WINDOW), description: "localnet: masterchain blocks whose states (and their shard blocks' states) stay in memory" },
  { name: "archival", boolean: true, description: "localnet: serve states older than --state-window from disk, as an archival node (else \"state already gc'd\")" },
];

/** A whole number option within bounds, or a ConfigError naming the flag. */
function intOption(o: Record<string, unknown>, name: string, ok: (n: number) => boolean, expected: string): number {
  const n = Number(o[name]);
  if (!Number.isInteger(n) || !ok(n)) throw new ConfigError(`--${name} ${String(o[name])}: expected ${expected}`);
  return n;
}

/** --pending-window, checked against --block-interval (absent: the localnet's default, half the interval). */
function pendingWindowOf(o: Record<string, unknown>): number | undefined {
  if (o["pending-window"] === undefined) return undefined;
  const interval = intOption(o, "block-interval", (n) => n >= 0, "milliseconds between blocks, 0 or more");
  const window = intOption(o, "pending-window", (n) => n >= 0, "milliseconds, 0 or more");
  try {
    return checkPendingWindow(window, interval);
  } catch (e) {
    throw new ConfigError(`--pending-window ${window}: ${(e as Error).message}`);
  }
}

/** The cells of --library files (one-root BoCs). */
function libraryCells(files: string[]): Promise<ReturnType<typeof libraryFromBoc>[]> {
  return Promise.all(
    files.map(async (file) => {
      try {
        return libraryFromBoc(await readFile(file));
      } catch (e) {
        throw new ConfigError(`--library ${file}: ${(e as Error).message}`);
      }
    }),
  );
}

interface StartedLocalnet {
  stop: () => Promise<void>;
  /** The state of the localnet's own emulator processes (collation, checks), for /healthz. */
  health: HealthContributor;
  globalConfig: object;
  control: string;
  liteservers: string[];
  wallets: { version: string; address: string }[];
}

/**
 * Starts a localnet from the options and logs what a user needs to reach it (`quiet`: the wallets
 * and the global config at debug, for `start`, whose banner shows them).
 */
async function startLocalnet(o: Record<string, unknown>, log: Logger, quiet = false): Promise<StartedLocalnet> {
  const net = await Localnet.start({
    seed: o.seed as string,
    wallets: Number(o.wallets),
    listen: ((o.listen ?? o.liteserver) as string[]).map((l) => parseListen(l)),
    blockIntervalMs: Number(o["block-interval"]),
    pendingWindowMs: pendingWindowOf(o),
    buildState: buildShardState,
    proofs: localnetProofs,
    dataDir: o["data-dir"] as string | undefined,
    libraries: await libraryCells((o.library as string[] | undefined) ?? []),
    shards: intOption(o, "shards", (n) => SHARD_COUNTS.some((c) => c === n), SHARD_COUNTS.join(", ")),
    stateWindow: intOption(o, "state-window", (n) => n >= 16, "a number of masterchain blocks, at least 16"),
    archival: o.archival === true,
    emulator: emulatorPoolOptionsOf(o),
  });
  const control = await startControlApi(net, parseListen(o.control as string));
  const config = net.globalConfig();
  if (o["write-global-config"]) await writeFile(o["write-global-config"] as string, JSON.stringify(config, null, 2));
  log.info({ liteservers: net.liteservers.map((l) => ({ host: l.host, port: l.port, key: l.publicKey.toString("base64") })), control: `http://${(o.control as string)}` }, "localnet running");
  const detail = (quiet ? log.debug : log.info).bind(log);
  detail({ globalConfig: config }, "localnet global config");
  for (const w of net.genesis.wallets) {
    detail({ version: w.version, address: w.address.toString({ bounceable: false }), secretKey: w.keyPair.secretKey.toString("hex") }, "localnet wallet");
  }
  return {
    globalConfig: config,
    control: `http://${parseListen(o.control as string).host}:${control.port}`,
    liteservers: net.liteservers.map((l) => `${l.host}:${l.port}`),
    wallets: net.genesis.wallets.map((w) => ({ version: String(w.version), address: w.address.toString({ bounceable: false }) })),
    health: { health: () => ({ ...net.chain.executor.pool.health(), name: "localnet-emulator" }) },
    stop: async () => {
      await control.close();
      await net.close();
    },
  };
}

/** When a localnet sealing every --block-interval ms has halted: 12 blocks missed, at least 20 s; 0 (never) when it seals on demand. */
function localnetHaltAfterSeconds(o: Record<string, unknown>): number {
  const interval = intOption(o, "block-interval", (n) => n >= 0, "milliseconds between blocks, 0 or more");
  return interval === 0 ? 0 : Math.max(20, Math.ceil((12 * interval) / 1000));
}

/** The ratelimit service's options, where it runs in the process (`start` has --data-dir already, from localnet: one directory for both). */
const rateLimitFlags = (withDataDir: boolean): OptionSpec[] => rateLimitService.flags.filter((s) => withDataDir || s.name !== "data-dir");

const chainOption: OptionSpec = { name: "global-config", description: "TON global config (JSON file) of the liteservers lite-proxy reads the chain from; overrides --network" };
const chainHaltOption: OptionSpec = {
  name: "chain-halt-after",
  description: `seconds without a new masterchain block after which /healthz says the chain halted ("degraded"); default ${DEFAULT_CHAIN_HALT_AFTER_S} (mainnet's blocks come every ~5 s), \`start\` on a localnet: 12 × --block-interval, at least 20 s, not judged with --block-interval 0; 0: never`,
};
const networkOption = (fallback?: string): OptionSpec => ({
  name: "network",
  default: fallback,
  description: "the chain lite-proxy reads: a network whose global config is bundled in packages/liteclient/global-config (mainnet, testnet)" + (fallback === "localnet" ? ", or localnet (run in this process)" : ""),
});

const commands: Record<string, { summary: string; options: OptionSpec[]; run(o: Record<string, unknown>, log: Logger): Promise<() => Promise<void>> }> = {
  start: {
    summary: "run every service and the gateway in one process (embedded mode), with a localnet as the chain",
    options: [...gatewayOptions, networkOption("localnet"), chainOption, chainHaltOption, ...localnetOptions("liteserver"), ...emulatorFlags, ...rateLimitFlags(false), ...storeFlags, ...indexService.flags, ...decoderService.flags, ...streamingService.flags, ...common],
    async run(o, log) {
      let stopLocalnet = async () => {};
      let localnet: StartedLocalnet | undefined;
      if (!o["global-config"] && o.network === "localnet") {
        localnet = await startLocalnet(o, log.child({ service: "localnet" }), true);
        stopLocalnet = localnet.stop;
        o = { ...o, globalConfig: localnet.globalConfig };
        // a localnet is for one developer: keyless requests from this machine are not limited unless asked
        if (o.ratelimit === undefined && o["keyless-loopback"] === undefined) o = { ...o, "keyless-loopback": "off" };
        // and a development chain's API is for this machine only, unless --host opens it to the network
        if (o.host === undefined) o = { ...o, host: "127.0.0.1" };
        // its blocks come every --block-interval; with 0 it seals on demand, and a quiet chain is no halt
        if (o["chain-halt-after"] === undefined) o = { ...o, "chain-halt-after": String(localnetHaltAfterSeconds(o)) };
      }
      const hosted = await startHost(serviceModules, o, log);
      if (localnet) hosted.addHealth(localnet.health);
      const gateway = await startGateway(o, log, hosted.upstreams(), hosted, siteOf(o, localnet));
      banner(o, log, gateway, localnet);
      return async () => {
        await gateway.stop();
        await hosted.close();
        await stopLocalnet();
      };
    },
  },
  localnet: {
    summary: "run a local TON chain (TON's emulator, real blocks) served over the liteserver protocol",
    options: [...localnetOptions("listen"), ...emulatorFlags, ...common],
    run: async (o, log) => (await startLocalnet(o, log)).stop,
  },
  serve: {
    summary: "run services in this process, answering gRPC (and Connect) on --listen",
    options: [
      { name: "service", repeated: true, description: `service to run (${serviceModules.map((s) => s.name).join(", ")})` },
      { name: "listen", default: "127.0.0.1:9090", description: "HOST:PORT of the gRPC server" },
      { name: "upstream", repeated: true, description: "NAME=URL of a service these services call that runs elsewhere (e.g. lite-proxy for the indexer's v2-style methods)" },
      { name: "metrics-listen", description: "HOST:PORT serving Prometheus /metrics (the calls' and the services' own) and /healthz of these services (default: off)" },
      networkOption(),
      chainOption,
      chainHaltOption,
      ...emulatorFlags,
      ...rateLimitFlags(true),
      ...storeFlags,
      ...indexService.flags,
      ...decoderService.flags,
      ...streamingService.flags,
      ...common,
    ],
    async run(o, log) {
      const names = (o.service as string[] | undefined) ?? serviceModules.map((s) => s.name);
      const hosted = await startHost(names.map(findService), o, log, upstreamsOf(o));
      const server = await hosted.serveGrpc(parseListen(o.listen as string));
      log.info({ services: names, listen: `${server.address.host}:${server.address.port}` }, "services listening (gRPC)");
      const metrics = o["metrics-listen"] ? await serveMetrics(parseListen(o["metrics-listen"] as string), servedMetrics(hosted), hosted.health()) : undefined;
      if (metrics) log.info({ url: `http://${metrics.address.host}:${metrics.address.port}/metrics` }, "metrics listening");
      return async () => {
        await metrics?.close();
        await server.close();
        await hosted.close();
      };
    },
  },
  index: {
    summary: "index the chain into ClickHouse (chDB in this process, or --clickhouse-url): --from/--to a range, else follow the head",
    options: [networkOption(), chainOption, ...indexCommandOptions, ...common],
    run: (o, log) => indexCommand(o, log.child({ service: "indexer" })),
  },
  gateway: {
    summary: "run the HTTP gateway; --upstream NAME=URL sends a service's calls over gRPC, the others run in-process",
    options: [{ name: "upstream", repeated: true, description: "NAME=URL of a service served by `tongate serve`" }, ...gatewayOptions, networkOption(), chainOption, chainHaltOption, ...emulatorFlags, ...rateLimitFlags(true), ...storeFlags, ...indexService.flags, ...decoderService.flags, ...streamingService.flags, ...common],
    async run(o, log) {
      const remote = upstreamsOf(o);
      const upstreams: Upstream[] = [];
      for (const { name, services, url } of remote) {
        const transport = remoteTransport(url);
        for (const service of services) upstreams.push({ service, transport });
        log.info({ service: name, url }, "upstream");
      }
      const hosted = await startHost(
        serviceModules.filter((m) => !remote.some((r) => r.name === m.name)),
        o,
        log,
        remote,
      );
      upstreams.push(...hosted.upstreams());
      const gateway = await startGateway(o, log, upstreams, hosted, siteOf(o, undefined));
      return async () => {
        await gateway.stop();
        await hosted.close();
      };
    },
  },
};

/** The Prometheus text of a `serve` process: its calls' metrics and its services' own. */
function servedMetrics(hosted: ServiceHost): MetricsSource {
  const registries = [callRegistry, processRegistry, ...hosted.metrics()];
  return {
    contentType: callRegistry.contentType,
    metrics: async () => (await Promise.all(registries.map((r) => r.metrics()))).join("\n"),
  };
}

/** `tongate index`: the chain, the store, the bus and the metrics server around the indexer's runIndexer. */
async function indexCommand(o: Record<string, unknown>, log: Logger): Promise<() => Promise<void>> {
  const options = indexCommandOptionsOf(o);
  const chain = globalConfigOf(o);
  if (!chain) throw new ConfigError("index needs a chain: --global-config FILE (e.g. a localnet's --write-global-config) or --network mainnet");
  // closed the last opened first
  const opened: { close(): Promise<void> }[] = [];
  const close = async () => {
    for (const r of opened.reverse()) await r.close();
  };
  try {
    const lite = LiteserverPool.fromGlobalConfig(chain);
    opened.push(lite);
    const openedStore = await openStore(options.store);
    opened.push(openedStore);
    const store = await registerIndexer(openedStore);
    // an index to write must be complete first: build it from the rows already stored
    if (store.keys && !(await prepareKeyIndex(store, store.keys, (p) => log.info(p, "key index: rebuilding from ClickHouse")))) throw new Error("key index: the rebuild stopped");
    // started during a NATS outage (e.g. restarted by a supervisor), it indexes and its events wait in the outbox
    const bus = await openBus({ natsUrl: options.natsUrl, name: "tongate-indexer", log: log.child({ component: "bus" }), startDown: true });
    opened.push(bus);
    const metrics = new IndexerMetrics();
    if (options.metricsListen) {
      const server = await serveMetrics(options.metricsListen, metrics.registry, () => metrics.health());
      opened.push(server);
      log.info({ url: `http://${server.address.host}:${server.address.port}/metrics` }, "metrics listening");
    }
    log.info({ network: options.network, bus: options.natsUrl ? "nats" : "in-process" }, "publishing events");
    const { network, from, to, parseWorkers, prefetch } = options;
    const run = await runIndexer({ lite, store, bus, metrics, log, network, from, to, parseWorkers, prefetch });
    if (options.to !== undefined) {
      await run.done;
      await close();
      return async () => {};
    }
    return async () => {
      await run.stop();
      await close();
    };
  } catch (e) {
    await close().catch(() => undefined);
    throw e;
  }
}

interface StartedGateway {
  url: string;
  /** The address it listens on as bound, e.g. "127.0.0.1:8081" or "0.0.0.0:8081". */
  listen: string;
  /** Whether only this machine can reach it (bound to a loopback address). */
  loopbackOnly: boolean;
  stop: () => Promise<void>;
}

/** What the page at the gateway's root shows: the network, tongate's version, and a localnet's control API and wallets as the banner prints them. */
function siteOf(o: Record<string, unknown>, localnet: StartedLocalnet | undefined): SiteInfo {
  return {
    network: localnet ? "localnet" : !o["global-config"] && typeof o.network === "string" ? o.network : "custom",
    version: VERSION,
    localnet: localnet && { control: localnet.control, wallets: localnet.wallets },
  };
}

/** tongate's version: the root package's. */
const VERSION = versionOf(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")));

function versionOf(pkg: unknown): string {
  return typeof pkg === "object" && pkg !== null && "version" in pkg && typeof pkg.version === "string" ? pkg.version : "";
}

async function startGateway(o: Record<string, unknown>, log: Logger, upstreams: Upstream[], hosted: ServiceHost, site: SiteInfo): Promise<StartedGateway> {
  const gateway = new Gateway({
    site,
    upstreams,
    health: hosted.health(),
    serviceMetrics: hosted.metrics(),
    log: log.child({ component: "gateway" }),
    callTimeoutMs: Number(o["call-timeout-ms"]),
    maxBodyBytes: Number(o["max-body-bytes"]),
    sendTimeoutMs: intOption(o, "send-timeout-ms", (n) => n >= 100, "a time in ms, at least 100"),
    maxUnreadBytes: intOption(o, "max-unread-bytes", (n) => n >= 65536, "a number of bytes, at least 65536"),
    streamKeepaliveMs: intOption(o, "stream-keepalive", (n) => n >= 0 && n <= 3600, "whole seconds, 0 to 3600") * 1000,
    maxFrameBytes: intOption(o, "max-frame-bytes", (n) => n >= 1024, "a number of bytes, at least 1024"),
    cache: { maxBytes: nonNegative("cache-max-bytes", o["cache-max-bytes"]) },
    rateLimit: rateLimitOf(o),
  });
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port ${o.port} is not a port number`);
  const server = await listenGateway(gateway, { host: typeof o.host === "string" ? o.host : "0.0.0.0", port });
  log.info({ url: `http://${server.address.host}:${server.address.port}`, routes: gateway.routes.byPath.size }, "gateway listening");
  // a wildcard address is reached on loopback from this machine
  const host = ["0.0.0.0", "::", ""].includes(server.address.host) ? "127.0.0.1" : server.address.host.includes(":") ? `[${server.address.host}]` : server.address.host;
  const bound = server.address.host;
  return {
    url: `http://${host}:${server.address.port}`,
    listen: `${bound.includes(":") ? `[${bound}]` : bound}:${server.address.port}`,
    loopbackOnly: bound === "::1" || bound.startsWith("127."),
    stop: () => server.close(),
  };
}

/** The end of `tongate start`: where everything is, as a short block on a terminal, else one JSON event. */
function banner(o: Record<string, unknown>, log: Logger, gateway: StartedGateway, localnet: StartedLocalnet | undefined): void {
  const url = gateway.url;
  const globalConfig = o["global-config"] ?? o["write-global-config"];
  const rateLimit =
    o.ratelimit === "off" ? "off" : o["keyless-loopback"] === "off" ? "on, except keyless requests from loopback (--ratelimit on limits them too)" : "on (keyless: the ratelimit service's keyless rate per client address)";
  const fields = {
    gateway: url,
    listen: gateway.listen,
    docs: { v2: `${url}/api/v2/`, v3: `${url}/api/v3/` },
    network: localnet ? "localnet" : (o.network as string | undefined) ?? "custom",
    globalConfig: typeof globalConfig === "string" ? globalConfig : undefined,
    control: localnet?.control,
    liteservers: localnet?.liteservers,
    wallets: localnet?.wallets,
    data: localnet ? ((o["data-dir"] as string | undefined) ?? "temporary") : undefined,
    rateLimit,
  };
  if (o["log-format"] !== "pretty") {
    log.info(fields, "tongate ready");
    return;
  }
  const rows: [string, string][] = [
    ["gateway", `${url}   (${gateway.loopbackOnly ? "this machine only; --host 0.0.0.0 opens it" : `listening on ${gateway.listen}`})`],
    ["API v2 docs", `${fields.docs.v2}   (Swagger UI)`],
    ["API v3 docs", `${fields.docs.v3}   (Swagger UI)`],
  ];
  if (fields.globalConfig) rows.push(["global config", fields.globalConfig]);
  if (localnet) {
    rows.push(["control API", `${localnet.control}   (faucet, seal; GET /localnet/wallets gives the wallets' keys)`]);
    rows.push(["liteservers", localnet.liteservers.join(", ")]);
    localnet.wallets.forEach((w, i) => rows.push([i === 0 ? "wallets" : "", `${w.version.padEnd(5)} ${w.address}`]));
    rows.push(["data", fields.data === "temporary" ? "temporary (removed at exit; --data-dir DIR keeps the chain)" : `${fields.data} (--data-dir)`]);
  }
  rows.push(["rate limit", rateLimit]);
  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(`\ntongate is ready (${fields.network})\n${rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`).join("\n")}\n\n`);
}

/** The gateway's rate limiting: on unless --ratelimit off; the network is the one keys may be limited to. */
function rateLimitOf(o: Record<string, unknown>): GatewayOptions["rateLimit"] {
  if (o.ratelimit === "off") return undefined;
  if (o.ratelimit !== undefined && o.ratelimit !== "on") throw new ConfigError(`--ratelimit ${String(o.ratelimit)}: expected on or off`);
  return { network: (o.network as string | undefined) ?? "", trustedProxies: (o["trusted-proxy"] as string[] | undefined) ?? [] };
}

function nonNegative(name: string, value: unknown): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new ConfigError(`--${name} ${String(value)} is not a non-negative integer`);
  return n;
}

function help(): string {
  const lines = ["usage: tongate <command> [options]", ""];
  for (const [name, c] of Object.entries(commands)) lines.push(`tongate ${name}: ${c.summary}`, usage(c.options), "");
  lines.push(keysHelp(), classifyHelp());
  return lines.join("\n");
}

export async function main(argv: string[]): Promise<void> {
  // the composition root installs the speed shims of @ton/core; no module does it when imported
  installSpeedShims();
  const [name, ...rest] = argv;
  if (name === "keys") {
    process.exitCode = await keysCommand(rest);
    return;
  }
  if (name === "classify") {
    process.exitCode = await classifyCommand(rest);
    return;
  }
  const command = name ? commands[name] : undefined;
  if (!command || rest.includes("--help")) {
    process.stdout.write(help() + "\n");
    process.exitCode = command || name === "--help" || name === "help" ? 0 : 2;
    return;
  }
  let log: Logger | undefined;
  try {
    const o = parseOptions(rest, command.options);
    let format;
    try {
      format = logFormatOf(o["log-format"] as string | undefined);
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
    o["log-format"] = format;
    log = createLogger({ level: o["log-level"] as string, format });
    // A long-running command serves on through an error no code caught (docs/architecture.md says why that is safe).
    guardProcess(log);
    const stop = await command.run(o, log);
    let stopping = false;
    const shutdown = (signal: string) => {
      if (stopping) return;
      stopping = true;
      log!.info({ signal }, "shutting down");
      stop().then(
        () => {
          log!.info("stopped");
          process.exit(0);
        },
        (err: unknown) => {
          log!.error({ err }, "shutdown failed");
          process.exit(1);
        },
      );
    };
    process.once("SIGTERM", () => shutdown("SIGTERM"));
    process.once("SIGINT", () => shutdown("SIGINT"));
  } catch (err) {
    if (err instanceof ConfigError || (err instanceof Error && err.message.startsWith("unknown service"))) {
      process.stderr.write(`tongate ${name}: ${err.message}\n`);
      process.exit(2);
    }
    (log ?? createLogger()).fatal({ err }, "failed to start");
    process.exit(1);
  }
}
