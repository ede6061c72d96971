// MetadataFetcher: the bounded front of fetchMetadata. A cache by URI (fresh results answered
// without a request, failures remembered for a shorter time), one fetch per URI at a time, a
// global and a per-host concurrency limit, and a bounded queue: a flood of URIs is answered
// "queue full" at once instead of growing memory. Every promise it returns resolves, none rejects.
import { LruCache } from "./cache.js";
import { DEFAULT_MAX_DEPTH } from "./json.js";
import { Aborted, defaultResolver, fetchMetadata, type MetadataResult, type RequestConfig, type Resolver } from "./request.js";
import { gatewayBase, locate } from "./uri.js";

export interface MetadataFetcherOptions {
  /** Where ipfs:// URIs are fetched: `<gateway><cid>/<path>`. */
  ipfsGateway?: string;
  /** Connect to private, loopback, link-local… addresses too (an operator's own network, tests). */
  allowPrivate?: boolean;
  /** Time to open a connection (TCP), per hop. */
  connectTimeoutMs?: number;
  /** Time for the whole fetch: resolution, every redirect hop, the body. */
  timeoutMs?: number;
  /** The largest body read; a larger one is cut off and refused. */
  maxBytes?: number;
  maxRedirects?: number;
  /** The deepest nesting of arrays and objects accepted in the JSON. */
  maxDepth?: number;
  /** Fetches at once, in all. */
  concurrency?: number;
  /** Fetches at once to one host (of the URI, or the gateway for ipfs). */
  perHostConcurrency?: number;
  /** URIs waiting for a slot; past it a fetch answers "queue full" (with `retry`). */
  queueLimit?: number;
  cacheEntries?: number;
  /** Bound of the cache's estimated memory. */
  cacheBytes?: number;
  /** How long a fetched JSON is answered from the cache before it is fetched again. */
  ttlMs?: number;
  /** How long a failure is answered from the cache before the URI is tried again. */
  failureTtlMs?: number;
  resolve?: Resolver;
  userAgent?: string;
  /** CA certificates (PEM) trusted instead of Node's bundled ones: a gateway behind a private CA. */
  ca?: string | Buffer | (string | Buffer)[];
  /** The cache's clock (ms). */
  now?: () => number;
}

export const METADATA_FETCH_DEFAULTS = {
  ipfsGateway: "https://ipfs.io/ipfs/",
  allowPrivate: false,
  connectTimeoutMs: 5_000,
  timeoutMs: 15_000,
  maxBytes: 1024 * 1024,
  maxRedirects: 5,
  maxDepth: DEFAULT_MAX_DEPTH,
  concurrency: 16,
  perHostConcurrency: 4,
  queueLimit: 1_000,
  cacheEntries: 10_000,
  cacheBytes: 64 * 1024 * 1024,
  ttlMs: 6 * 3600_000,
  failureTtlMs: 10 * 60_000,
  userAgent: "tongate-metadata/0.1",
} as const;

export interface MetadataFetcherStats {
  running: number;
  queued: number;
  cached: number;
  cachedBytes: number;
}

interface Job {
  uri: string;
  host: string;
  done: (result: MetadataResult) => void;
}

export interface CachedMetadata {
  result: MetadataResult;
  /** False once its TTL has passed: a fetch asks again. */
  fresh: boolean;
}

export class MetadataFetcher {
  private readonly config: RequestConfig;
  private readonly options: Required<Omit<MetadataFetcherOptions, "resolve" | "now" | "ca">>;
  private readonly now: () => number;
  private readonly cache: LruCache<MetadataResult>;
  private readonly pending = new Map<string, Promise<MetadataResult>>();
  private readonly queue: Job[] = [];
  private readonly running = new Map<Job, AbortController>();
  private readonly perHost = new Map<string, number>();
  private idle: (() => void)[] = [];
  private closed = false;

  constructor(options: MetadataFetcherOptions = {}) {
    const d = METADATA_FETCH_DEFAULTS;
    const o = {
      ipfsGateway: options.ipfsGateway ?? d.ipfsGateway,
      allowPrivate: options.allowPrivate ?? d.allowPrivate,
      connectTimeoutMs: options.connectTimeoutMs ?? d.connectTimeoutMs,
      timeoutMs: options.timeoutMs ?? d.timeoutMs,
      maxBytes: options.maxBytes ?? d.maxBytes,
      maxRedirects: options.maxRedirects ?? d.maxRedirects,
      maxDepth: options.maxDepth ?? d.maxDepth,
      concurrency: Math.max(1, options.concurrency ?? d.concurrency),
      perHostConcurrency: Math.max(1, options.perHostConcurrency ?? d.perHostConcurrency),
      queueLimit: options.queueLimit ?? d.queueLimit,
      cacheEntries: options.cacheEntries ?? d.cacheEntries,
      cacheBytes: options.cacheBytes ?? d.cacheBytes,
      ttlMs: options.ttlMs ?? d.ttlMs,
      failureTtlMs: options.failureTtlMs ?? d.failureTtlMs,
      userAgent: options.userAgent ?? d.userAgent,
    };
    this.options = o;
    this.now = options.now ?? Date.now;
    this.config = {
      gateway: gatewayBase(o.ipfsGateway),
      allowPrivate: o.allowPrivate,
      connectTimeoutMs: o.connectTimeoutMs,
      timeoutMs: o.timeoutMs,
      maxBytes: o.maxBytes,
      maxRedirects: o.maxRedirects,
      maxDepth: o.maxDepth,
      resolve: options.resolve ?? defaultResolver,
      userAgent: o.userAgent,
      ca: options.ca,
    };
    this.cache = new LruCache(o.cacheEntries, o.cacheBytes);
  }

  /**
   * The JSON a content URI points at, or why not: from the cache while fresh, else fetched (one
   * request per URI however many ask). Resolves, never rejects.
   */
  fetch(uri: string): Promise<MetadataResult> {
    if (this.closed) return Promise.resolve({ ok: false, reason: "metadata fetcher closed", retry: true });
    const cached = this.cache.get(uri);
    if (cached !== undefined && cached.expiresAt > this.now()) return Promise.resolve(cached.value);
    const pending = this.pending.get(uri);
    if (pending !== undefined) return pending;
    const located = locate(uri, this.config.gateway);
    // Refused without a request: nothing to wait for, nothing worth caching.
    if (!located.ok) return Promise.resolve({ ok: false, reason: located.reason });
    if (this.queue.length >= this.options.queueLimit) {
      return Promise.resolve({ ok: false, reason: `queue full (${this.options.queueLimit} URIs waiting): try again later`, retry: true });
    }
    const promise = new Promise<MetadataResult>((done) => this.queue.push({ uri, host: located.url.host, done }));
    this.pending.set(uri, promise);
    this.pump();
    return promise;
  }

  /** What the cache holds for a URI (fresh or due for a refresh), without fetching. */
  cached(uri: string): CachedMetadata | undefined {
    const entry = this.cache.get(uri);
    return entry && { result: entry.value, fresh: entry.expiresAt > this.now() };
  }

  stats(): MetadataFetcherStats {
    return { running: this.running.size, queued: this.queue.length, cached: this.cache.size, cachedBytes: this.cache.totalBytes };
  }

  /** Aborts the running fetches and answers the queued ones "closed"; resolves once no socket is left. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) this.settle(job, { ok: false, reason: "metadata fetcher closed", retry: true });
    for (const controller of this.running.values()) controller.abort(new Aborted("metadata fetcher closed"));
    if (this.running.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
  }

  private pump(): void {
    while (this.running.size < this.options.concurrency) {
      // The first job whose host has a free slot: a slow host does not hold up the others.
      const index = this.queue.findIndex((job) => (this.perHost.get(job.host) ?? 0) < this.options.perHostConcurrency);
      if (index < 0) return;
      const [job] = this.queue.splice(index, 1);
      void this.run(job!);
    }
  }

  private async run(job: Job): Promise<void> {
    const controller = new AbortController();
    this.running.set(job, controller);
    this.perHost.set(job.host, (this.perHost.get(job.host) ?? 0) + 1);
    const deadline = setTimeout(() => controller.abort(new Aborted(`timeout after ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
    let result: MetadataResult;
    try {
      result = await fetchMetadata(job.uri, this.config, controller.signal);
    } catch (e) {
      // fetchMetadata does not throw; this keeps the promise's "never rejects" if it ever did.
      result = { ok: false, reason: `fetch failed: ${e instanceof Error ? e.message : String(e)}` };
    } finally {
      clearTimeout(deadline);
      this.running.delete(job);
      const left = (this.perHost.get(job.host) ?? 1) - 1;
      if (left === 0) this.perHost.delete(job.host);
      else this.perHost.set(job.host, left);
    }
    if (this.closed && !result.ok) result = { ok: false, reason: "metadata fetcher closed", retry: true };
    this.settle(job, result);
    if (this.running.size === 0) for (const resolve of this.idle.splice(0)) resolve();
    if (!this.closed) this.pump();
  }

  private settle(job: Job, result: MetadataResult): void {
    this.pending.delete(job.uri);
    if (!(!result.ok && result.retry)) {
      const ttl = result.ok ? this.options.ttlMs : this.options.failureTtlMs;
      // An estimate of the memory held: the parsed JSON is about twice its text.
      const size = job.uri.length * 2 + (result.ok ? result.bytes * 2 : result.reason.length * 2) + 64;
      this.cache.set(job.uri, { value: result, expiresAt: this.now() + ttl, size });
    }
    job.done(result);
  }
}
