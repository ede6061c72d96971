// The decoder's flags for its metadata worker (./metadata-worker.ts), and their values checked: a
// bad value is a ConfigError naming the flag.
import { ConfigError, type OptionSpec, type RawOptions } from "@tongate/runtime";
import { METADATA_FETCH_DEFAULTS, type MetadataFetcherOptions } from "@tongate/metadata-fetch";

const d = METADATA_FETCH_DEFAULTS;

export const metadataFlags: OptionSpec[] = [
  { name: "metadata-fetch", default: "on", description: "decoder: on: fetch the off-chain JSON of token content URIs (API v3's metadata); off: on-chain metadata only" },
  { name: "metadata-allow-private", boolean: true, description: "decoder: let metadata fetches reach private, loopback and link-local addresses (an operator's own network, tests)" },
  { name: "metadata-ipfs-gateway", default: d.ipfsGateway, description: "decoder: where ipfs:// content URIs are fetched (<gateway><cid>/<path>)" },
  { name: "metadata-timeout-ms", default: String(d.timeoutMs), description: "decoder: time for one metadata fetch, redirects and body included" },
  { name: "metadata-max-bytes", default: String(d.maxBytes), description: "decoder: the largest metadata JSON read" },
  { name: "metadata-concurrency", default: String(d.concurrency), description: "decoder: metadata fetches at once" },
];

export interface MetadataOptions {
  fetch: boolean;
  fetcher: MetadataFetcherOptions;
}

function positive(o: RawOptions, name: string, fallback: number): number {
  const v = o[name];
  if (v === undefined) return fallback;
  const n = typeof v === "number" ? v : Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new ConfigError(`--${name} ${String(v)}: expected a positive whole number`);
  return n;
}

export function metadataOptionsOf(o: RawOptions): MetadataOptions {
  const fetch = o["metadata-fetch"];
  if (fetch !== undefined && fetch !== "on" && fetch !== "off" && typeof fetch !== "boolean") throw new ConfigError(`--metadata-fetch ${String(fetch)}: expected on or off`);
  const gateway = o["metadata-ipfs-gateway"];
  if (gateway !== undefined && typeof gateway !== "string") throw new ConfigError("--metadata-ipfs-gateway: expected a URL");
  if (typeof gateway === "string") {
    let url: URL | undefined;
    try {
      url = new URL(gateway);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) throw new ConfigError(`--metadata-ipfs-gateway ${gateway}: expected an http(s) URL`);
  }
  return {
    fetch: fetch !== "off" && fetch !== false,
    fetcher: {
      allowPrivate: o["metadata-allow-private"] === true || o["metadata-allow-private"] === "true",
      ipfsGateway: typeof gateway === "string" ? gateway : undefined,
      timeoutMs: positive(o, "metadata-timeout-ms", d.timeoutMs),
      maxBytes: positive(o, "metadata-max-bytes", d.maxBytes),
      concurrency: positive(o, "metadata-concurrency", d.concurrency),
    },
  };
}
