// The metadata worker: fetches the off-chain JSON that tokens' content URIs name (with
// @tongate/metadata-fetch: bounded time, size, redirects, addresses) and records what each gave in
// metadata_fetches (ClickHouse, and the decoder's key tables when there are some), as fetches end.
// It has its own queue: the decoder hands it a block's URIs after the block's checkpoint and goes on;
// a hanging or hostile server holds one fetch slot, never a block. URIs it has no room for, and
// results due for a refresh (the fetcher's TTLs), are found again by a sweep of token_metadata.
import { type DecodedKeys, fetchRow, type KeyFetchRow, select, type Store } from "@tongate/store";
import { MetadataFetcher, METADATA_FETCH_DEFAULTS, type MetadataFetcherOptions, type MetadataResult } from "@tongate/metadata-fetch";
import type { Logger } from "@tongate/runtime";

/** URIs waiting at most; more are left to the next sweep. */
const WAITING_MAX = 10_000;
/** How often the tables are swept for URIs never fetched or due for a refresh. */
const SWEEP_MS = 60_000;
/** URIs one sweep picks up at most. */
const SWEEP_LIMIT = 2_000;

export interface MetadataWorkerOptions extends MetadataFetcherOptions {
  store: Store;
  keys?: DecodedKeys;
  log: Logger;
  /** how often to sweep (tests sweep sooner) */
  sweepMs?: number;
}

/** A failure's kind, for the counter's label (its reason is a sentence). */
export function failureKind(reason: string): string {
  const kinds: [RegExp, string][] = [
    [/^timeout/, "timeout"],
    [/^too large/, "too_large"],
    [/^invalid JSON|^JSON /, "invalid_json"],
    [/^HTTP \d/, "http_status"],
    [/refused address|^redirect refused/, "refused"],
    [/redirects/, "redirects"],
    [/^DNS/, "dns"],
    [/^TLS/, "tls"],
    [/scheme|URI/, "uri"],
  ];
  return kinds.find(([re]) => re.test(reason))?.[1] ?? "other";
}

export interface MetadataWorkerStatus {
  waiting: number;
  running: number;
  fetched: number;
  failed: Record<string, number>;
  lastError?: string;
}

export class MetadataWorker {
  private readonly fetcher: MetadataFetcher;
  private readonly waiting = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  /** URIs being fetched: asked again meanwhile (the next block names them too), they are not fetched twice */
  private readonly fetching = new Set<string>();
  private readonly concurrency: number;
  private readonly ttlMs: number;
  private readonly failureTtlMs: number;
  private readonly s: MetadataWorkerStatus = { waiting: 0, running: 0, fetched: 0, failed: {} };
  private sweepTimer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private closed = false;

  constructor(private readonly o: MetadataWorkerOptions) {
    this.fetcher = new MetadataFetcher(o);
    this.concurrency = o.concurrency ?? METADATA_FETCH_DEFAULTS.concurrency;
    this.ttlMs = o.ttlMs ?? METADATA_FETCH_DEFAULTS.ttlMs;
    this.failureTtlMs = o.failureTtlMs ?? METADATA_FETCH_DEFAULTS.failureTtlMs;
  }

  start(): void {
    this.sweepSoon(0);
  }

  status(): MetadataWorkerStatus {
    return { ...this.s, waiting: this.waiting.size, running: this.running.size, failed: { ...this.s.failed } };
  }

  /** URIs a decoded block's tokens name: fetched when a slot is free (at once if already fresh). */
  enqueue(uris: Iterable<string>): void {
    for (const uri of uris) {
      if (this.closed || this.waiting.size >= WAITING_MAX) return;
      // a fresh result is recorded already (every result that is not a "try again" is)
      if (uri === "" || this.fetching.has(uri) || this.fetcher.cached(uri)?.fresh) continue;
      this.waiting.add(uri);
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    this.waiting.clear();
    await this.fetcher.close();
    await Promise.allSettled([...this.running, this.sweeping]);
  }

  private pump(): void {
    while (!this.closed && this.running.size < this.concurrency && this.waiting.size > 0) {
      const uri = this.waiting.values().next().value as string;
      this.waiting.delete(uri);
      this.fetching.add(uri);
      const job = this.fetchOne(uri).finally(() => {
        this.running.delete(job);
        this.fetching.delete(uri);
        this.pump();
      });
      this.running.add(job);
    }
  }

  private async fetchOne(uri: string): Promise<void> {
    const result: MetadataResult = await this.fetcher.fetch(uri);
    // "queue full", "closed": nothing learnt about the URI; the sweep brings it back
    if (!result.ok && result.retry) return;
    if (result.ok) this.s.fetched++;
    else {
      const kind = failureKind(result.reason);
      this.s.failed[kind] = (this.s.failed[kind] ?? 0) + 1;
    }
    const row: KeyFetchRow = fetchRow({
      uri,
      ok: result.ok,
      json: result.ok ? JSON.stringify(result.json) : "",
      reason: result.ok ? "" : result.reason,
      fetched_at: String(Date.now()),
    });
    try {
      await this.o.store.client.insert({ table: "metadata_fetches", values: [row], format: "JSONEachRow" });
      await this.o.keys?.putFetches([row]);
    } catch (e) {
      this.s.lastError = `recording a fetch of ${uri.slice(0, 200)}: ${e instanceof Error ? e.message : String(e)}`;
      this.o.log.warn({ err: e }, "metadata: a fetch's result was not recorded; the sweep fetches it again");
    }
  }

  private sweepSoon(ms: number): void {
    if (this.closed) return;
    this.sweepTimer = setTimeout(() => {
      this.sweeping = this.sweep()
        .catch((e: unknown) => {
          this.s.lastError = `sweep: ${e instanceof Error ? e.message : String(e)}`;
        })
        .finally(() => this.sweepSoon(this.o.sweepMs ?? SWEEP_MS));
    }, ms);
    this.sweepTimer.unref();
  }

  /** URIs of the tokens never fetched, or whose last fetch is older than its TTL. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    const rows = await select<{ uri: string }>(
      this.o.store,
      `SELECT DISTINCT t.uri AS uri FROM token_metadata AS t
        LEFT JOIN (SELECT uri, argMax(ok, fetched_at) AS ok, max(fetched_at) AS at FROM metadata_fetches GROUP BY uri) AS f ON f.uri = t.uri
        WHERE t.uri != '' AND (f.at = 0 OR (f.ok AND f.at < {fresh:UInt64}) OR (NOT f.ok AND f.at < {failFresh:UInt64}))
        LIMIT {n:UInt32}`,
      { fresh: now - this.ttlMs, failFresh: now - this.failureTtlMs, n: SWEEP_LIMIT },
    );
    this.enqueue(rows.map((r) => r.uri));
  }
}
