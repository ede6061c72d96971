// The results of fetches by URI: least recently used first out, bounded by entries and by bytes
// (a cached JSON may be up to the size cap), each with the time after which it is fetched again.

export interface CacheEntry<V> {
  value: V;
  /** When the entry is due for a refresh (ms, the cache's clock). */
  expiresAt: number;
  size: number;
}

export class LruCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recent first.
  private readonly entries = new Map<string, CacheEntry<V>>();
  private bytes = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxBytes: number,
  ) {}

  get(key: string): CacheEntry<V> | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CacheEntry<V>): void {
    this.delete(key);
    if (entry.size > this.maxBytes || this.maxEntries <= 0) return;
    this.entries.set(key, entry);
    this.bytes += entry.size;
    for (const [oldest, old] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.size;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.bytes -= entry.size;
  }

  get size(): number {
    return this.entries.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }
}
