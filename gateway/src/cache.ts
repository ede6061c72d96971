// The gateway's answer cache, as toncenter's C++ API v2 keeps one per handler (v2-api.md §4.2): each RPC
// declares its TTLs and size in the contract (option tongate.options.v1.cache), answers about the latest
// chain state live briefly and answers pinned to a block or transaction long. A hit skips the service call
// and the rendering. The key is the RPC and its decoded request message in binary, so GET, POST and
// /jsonRPC spellings of one request (parameter order, numbers as strings, unknown keys) share an entry.
// Memory is bounded twice: entries per RPC, and one byte budget for all, least recently used out first.
import { getOption, hasOption, isFieldSet, toBinary, type DescField, type DescMethod, type JsonValue, type Message } from "@bufbuild/protobuf";
import { cache as cacheOption } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";

export interface AnswerCacheOptions {
  /** Budget of all entries (their keys and JSON), bytes. */
  maxBytes: number;
  /** Monotonic clock, ms (tests move it). */
  now?: () => number;
}

/** A cacheable call: its cached result, if any, and where to store a fresh one. */
export interface CacheSlot {
  readonly hit: JsonValue | undefined;
  store(result: JsonValue): void;
}

export interface CacheStats {
  entries: number;
  bytes: number;
}

interface Entry {
  readonly result: JsonValue;
  readonly expires: number;
  readonly bytes: number;
  /** Recency stamp, to find the least recently used entry across RPCs. */
  used: number;
}

/** An answer bigger than this share of the budget is not kept: it would push out many small ones. */
const MAX_ENTRY_SHARE = 0.1;
/** Bookkeeping per entry on top of its key and JSON (map slot, entry object), roughly. */
const ENTRY_OVERHEAD = 128;

class RpcCache {
  /** Least recently used first (an entry moves to the end when read). */
  readonly entries = new Map<string, Entry>();

  constructor(
    readonly latestTtlMs: number,
    readonly addressedTtlMs: number,
    readonly addressedBy: DescField[],
    readonly maxEntries: number,
  ) {}

  ttlOf(input: Message): number {
    return this.addressedBy.some((f) => isFieldSet(input, f)) ? this.addressedTtlMs : this.latestTtlMs;
  }
}

export class AnswerCache {
  private readonly rpcs = new Map<DescMethod, RpcCache>();
  private readonly now: () => number;
  private readonly maxEntryBytes: number;
  private bytes = 0;
  private stamp = 0;

  constructor(
    methods: Iterable<DescMethod>,
    private readonly options: AnswerCacheOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.maxEntryBytes = options.maxBytes * MAX_ENTRY_SHARE;
    for (const m of methods) {
      if (!hasOption(m, cacheOption)) continue;
      const rule = getOption(m, cacheOption);
      const addressedBy = rule.addressedBy.map((name) => {
        const f = m.input.fields.find((x) => x.name === name);
        if (!f) throw new Error(`${m.name}: cache option names ${name}, not a field of ${m.input.typeName}`);
        return f;
      });
      if (rule.maxEntries > 0) this.rpcs.set(m, new RpcCache(rule.latestTtlMs, rule.addressedTtlMs, addressedBy, rule.maxEntries));
    }
  }

  /** The slot of this call; undefined when the RPC (or this form of request) is not cached. */
  lookup(method: DescMethod, input: Message): CacheSlot | undefined {
    const rpc = this.rpcs.get(method);
    if (!rpc) return undefined;
    const ttl = rpc.ttlOf(input);
    if (ttl <= 0) return undefined;
    const key = Buffer.from(toBinary(method.input, input)).toString("latin1");
    const now = this.now();
    let hit: JsonValue | undefined;
    const entry = rpc.entries.get(key);
    if (entry && entry.expires > now) {
      entry.used = ++this.stamp;
      rpc.entries.delete(key);
      rpc.entries.set(key, entry);
      hit = entry.result;
    } else if (entry) {
      this.remove(rpc, key, entry);
    }
    return { hit, store: (result) => this.store(rpc, key, result, now + ttl) };
  }

  stats(): CacheStats {
    let entries = 0;
    for (const rpc of this.rpcs.values()) entries += rpc.entries.size;
    return { entries, bytes: this.bytes };
  }

  private store(rpc: RpcCache, key: string, result: JsonValue, expires: number): void {
    const bytes = key.length + JSON.stringify(result).length + ENTRY_OVERHEAD;
    if (bytes > this.maxEntryBytes) return;
    const old = rpc.entries.get(key);
    if (old) this.remove(rpc, key, old);
    rpc.entries.set(key, { result, expires, bytes, used: ++this.stamp });
    this.bytes += bytes;
    if (rpc.entries.size > rpc.maxEntries) this.evictOldest(rpc);
    while (this.bytes > this.options.maxBytes) this.evictOldest(this.leastRecentlyUsed());
  }

  /** The RPC whose oldest entry is the oldest of all (each RPC's map is in recency order). */
  private leastRecentlyUsed(): RpcCache {
    let best: RpcCache | undefined;
    let bestUsed = Infinity;
    for (const rpc of this.rpcs.values()) {
      const first = rpc.entries.values().next();
      if (!first.done && first.value.used < bestUsed) {
        best = rpc;
        bestUsed = first.value.used;
      }
    }
    return best!;
  }

  private evictOldest(rpc: RpcCache): void {
    const [key, entry] = rpc.entries.entries().next().value!;
    this.remove(rpc, key, entry);
  }

  private remove(rpc: RpcCache, key: string, entry: Entry): void {
    rpc.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
