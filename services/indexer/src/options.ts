// The indexer's command-line values, parsed here for its two hosts: `tongate index` (cli/) and the
// indexer service inside `start`/`serve`/`gateway` (service.ts). A bad value is a ConfigError that
// names the flag.
import { availableParallelism } from "node:os";
import { ConfigError, eventNetworkOf, parseListen, type OptionSpec, type RawOptions } from "@tongate/runtime";
import { DEFAULT_PREFETCH } from "./follower/index-range.js";
import { storeFlags, storeOptionsOf, type ClickHouseWatchOptions, type StoreOptions } from "@tongate/store";

/** The key readers' default nice value: below the HTTP thread, still a fair share when the host is idle. */
const KEY_READER_NICE = 10;

/**
 * Options of the indexer where it runs inside `tongate start`, `serve` or `gateway` (the store it
 * reads and writes is the host's: @tongate/store's flags).
 */
export const indexOptions: OptionSpec[] = [
  { name: "index", default: "on", description: "indexer: on: follow the chain into the store; off: only answer API v3 from what is stored" },
  { name: "index-from", description: "indexer: first masterchain seqno when nothing is indexed yet (default: 1 on a localnet, the head otherwise)" },
  { name: "parse-workers", default: "0", description: "indexer: worker threads parsing blocks ahead of the inserts (0: on the main thread, enough for a localnet)" },
  {
    name: "key-readers",
    default: String(availableParallelism()),
    description: "indexer: threads answering API v3 key lookups from the key index, rendered, beside the one serving HTTP (0: on that one)",
  },
  { name: "key-reader-nice", default: String(KEY_READER_NICE), description: "indexer: the key readers' nice value, 0–19 (above 0: the HTTP thread runs first under a full load)" },
];

/** `tongate index --prefetch`: masterchain batches fetched and parsed ahead, also the most one group of inserts stores. */
export const prefetchOptionSpec: OptionSpec = {
  name: "prefetch",
  default: String(DEFAULT_PREFETCH),
  description: "masterchain blocks fetched and parsed ahead of the inserts; while catching up, those ready are stored together",
};

/** The options of `tongate index` (besides the chain's --network and --global-config). */
export const indexCommandOptions: OptionSpec[] = [
  ...storeFlags,
  { name: "from", description: "first masterchain seqno (default: after the checkpoint)" },
  { name: "to", description: "last masterchain seqno: index the range and exit (default: follow the head)" },
  { name: "nats-url", description: "NATS server(s), comma-separated: publish events on JetStream (stream TONGATE_EVENTS) (default: the in-process bus)" },
  { name: "network-name", description: "the <network> of event subjects tongate.<network>.blocks.indexed (default: --network, or custom with --global-config)" },
  { name: "metrics-listen", description: "HOST:PORT serving Prometheus /metrics and /healthz (default: off)" },
  { name: "parse-workers", default: String(Math.max(1, availableParallelism() - 1)), description: "worker threads parsing blocks ahead of the inserts (0: parse on the main thread)" },
  prefetchOptionSpec,
];

/** The indexer service's options. */
export interface IndexServiceOptions {
  /** --index on: follow the chain into the store; off: only answer from it. */
  follow: boolean;
  /** --index-from */
  from: number | undefined;
  parseWorkers: number;
  /** --key-readers, --key-reader-nice */
  keyReaders: { threads: number; nice: number };
  /** The <network> of the event subject. */
  network: string;
  /** A fresh index starts at the chain's head: true unless the chain is the localnet `start` runs. */
  startAtHead: boolean;
  /** How often ClickHouse is probed for /healthz and when a probe counts as no answer (set in process, e.g. by tests: `clickhouseProbe`). */
  clickhouseProbe: ClickHouseWatchOptions;
}

export function indexServiceOptionsOf(o: RawOptions): IndexServiceOptions {
  if (o.index !== undefined && o.index !== "on" && o.index !== "off") throw new ConfigError(`--index ${String(o.index)}: expected on or off`);
  return {
    follow: o.index !== "off",
    from: seqnoOption(o, "index-from"),
    parseWorkers: parseWorkersOf(o),
    keyReaders: { threads: countOption(o, "key-readers", 0, 64, availableParallelism()), nice: countOption(o, "key-reader-nice", 0, 19, KEY_READER_NICE) },
    network: eventNetworkOf(o),
    startAtHead: o.network !== "localnet" && !o.globalConfig,
    clickhouseProbe: probeOptionsOf(o.clickhouseProbe),
  };
}

/** `{everyMs?, timeoutMs?}` of positive numbers, as a composition root sets it; the defaults otherwise. */
function probeOptionsOf(v: unknown): ClickHouseWatchOptions {
  if (v === undefined) return {};
  const ms = (x: unknown) => (typeof x === "number" && x > 0 ? x : undefined);
  if (typeof v !== "object" || v === null) throw new ConfigError("clickhouseProbe: expected {everyMs?, timeoutMs?} in milliseconds");
  return { everyMs: ms("everyMs" in v ? v.everyMs : undefined), timeoutMs: ms("timeoutMs" in v ? v.timeoutMs : undefined) };
}

/** The options of `tongate index`. */
export interface IndexCommandOptions {
  store: StoreOptions;
  from: number | undefined;
  /** Index up to here and exit; undefined: follow the head. */
  to: number | undefined;
  /** NATS for the events; undefined: the in-process bus. */
  natsUrl: string | undefined;
  network: string;
  metricsListen: { host: string; port: number } | undefined;
  parseWorkers: number;
  prefetch: number;
}

export function indexCommandOptionsOf(o: RawOptions): IndexCommandOptions {
  const metrics = stringOption(o, "metrics-listen");
  let metricsListen;
  try {
    metricsListen = metrics === undefined ? undefined : parseListen(metrics);
  } catch (e) {
    throw new ConfigError(`--metrics-listen: ${(e as Error).message}`);
  }
  return {
    store: storeOptionsOf(o),
    from: seqnoOption(o, "from"),
    to: seqnoOption(o, "to"),
    natsUrl: stringOption(o, "nats-url"),
    network: eventNetworkOf(o),
    metricsListen,
    parseWorkers: parseWorkersOf(o),
    prefetch: prefetchOf(o),
  };
}

function stringOption(o: RawOptions, name: string): string | undefined {
  const v = o[name];
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string") throw new ConfigError(`--${name}: expected one value`);
  return v;
}

/** An integer option within [min, max]; `fallback` when not given (a host that passes no defaults). */
function countOption(o: RawOptions, name: string, min: number, max: number, fallback: number): number {
  const v = o[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (typeof v !== "string" || !/^\d+$/.test(v) || n < min || n > max) throw new ConfigError(`--${name} ${String(v)}: expected an integer from ${min} to ${max}`);
  return n;
}

/** A masterchain seqno option (--from, --to, --index-from); undefined when not given. */
export function seqnoOption(o: RawOptions, name: string): number | undefined {
  if (o[name] === undefined) return undefined;
  const n = Number(o[name]);
  if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`--${name} ${String(o[name])} is not a masterchain seqno (an integer ≥ 1)`);
  return n;
}

/** --prefetch as a number (1..256). */
export function prefetchOf(o: RawOptions): number {
  const n = Number(o.prefetch ?? DEFAULT_PREFETCH);
  if (!Number.isSafeInteger(n) || n < 1 || n > 256) throw new ConfigError(`--prefetch ${String(o.prefetch)}: expected 1..256`);
  return n;
}

/** --parse-workers as a number (0..64; 0: parse on the main thread). */
export function parseWorkersOf(o: RawOptions): number {
  const workers = Number(o["parse-workers"] ?? 0);
  if (!Number.isSafeInteger(workers) || workers < 0 || workers > 64) throw new ConfigError(`--parse-workers ${String(o["parse-workers"])}: expected 0..64`);
  return workers;
}

/** The <network> of event subjects (tongate.<network>.blocks.indexed): @tongate/runtime's, shared with send and the decoder. */
export { eventNetworkOf };
