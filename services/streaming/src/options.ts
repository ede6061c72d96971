// The streaming service's flags, for every command that hosts it (start, gateway, serve).
import { ConfigError, type OptionSpec, type RawOptions } from "@tongate/runtime";
import type { HubOptions } from "./hub.js";

export const DEFAULT_RETENTION_S = 600;
export const DEFAULT_BUFFER = 1000;
export const DEFAULT_BUFFER_BYTES = 16 << 20;
// one IP may be a whole backend (or a load test) holding many streams: the bound is against a runaway client
export const DEFAULT_MAX_CONNECTIONS = 1000;
export const DEFAULT_MAX_ADDRESSES = 10_000;

export const streamingFlags: readonly OptionSpec[] = [
  { name: "stream-retention", description: `seconds a Streaming API client may resume from (Last-Event-ID, resume_from) after an event; older: a resume_gap event (default ${DEFAULT_RETENTION_S})` },
  { name: "stream-buffer", description: `notifications waiting for one slow subscriber at most, then it gets an error with the id to resume from and its stream ends (default ${DEFAULT_BUFFER})` },
  { name: "stream-buffer-bytes", description: `bytes of notifications waiting for one subscriber at most (default ${DEFAULT_BUFFER_BYTES})` },
  { name: "stream-max-connections", description: `Streaming API connections per client (API key, else IP) at most; more: 429 (default ${DEFAULT_MAX_CONNECTIONS})` },
  { name: "stream-max-addresses", description: `addresses one Streaming API connection may watch at most; more: 400 (default ${DEFAULT_MAX_ADDRESSES})` },
];

function positive(o: RawOptions, name: string, fallback: number): number {
  const raw = o[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ConfigError(`--${name} ${String(raw)}: expected a whole number, 1 or more`);
  return n;
}

/** The <network> of tongate.<network>.stream.events: the indexer's rule (--network-name, else --network, "custom" with a global config). */
export function eventNetworkOf(o: RawOptions): string {
  const s = (name: string) => (typeof o[name] === "string" && o[name] !== "" ? String(o[name]) : undefined);
  const network = s("network-name") ?? (o["global-config"] ? "custom" : s("network")) ?? (o.globalConfig ? "localnet" : "custom");
  if (!/^[A-Za-z0-9_-]+$/.test(network)) throw new ConfigError(`--network-name ${network}: letters, digits, '-' and '_' only (a NATS subject token)`);
  return network;
}

export interface StreamingOptions extends HubOptions {
  network: string;
}

export function streamingOptionsOf(o: RawOptions): StreamingOptions {
  return {
    network: eventNetworkOf(o),
    retentionMs: positive(o, "stream-retention", DEFAULT_RETENTION_S) * 1000,
    buffer: { maxNotifications: positive(o, "stream-buffer", DEFAULT_BUFFER), maxBytes: positive(o, "stream-buffer-bytes", DEFAULT_BUFFER_BYTES) },
    maxConnections: positive(o, "stream-max-connections", DEFAULT_MAX_CONNECTIONS),
    maxAddresses: positive(o, "stream-max-addresses", DEFAULT_MAX_ADDRESSES),
  };
}
