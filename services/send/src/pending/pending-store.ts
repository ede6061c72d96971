// Where pending traces are kept until they are final or invalidated: in this process (embedded), or
// in NATS JetStream KV shared by the send replicas (nats-pending-store.ts). Both answer by account,
// by the external message's hash or normalized hash, and by trace id, and forget an entry at its TTL.
import type { PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";

export interface PendingEntry {
  trace: PendingTrace;
  /** Raw addresses ("0:ABC…") of its transactions' accounts, in its order (the root's first). */
  accounts: string[];
  /** Unix ms after which it is forgotten. */
  expiresAt: number;
}

export interface PendingQuery {
  /** raw addresses, upper-case hex */
  accounts: readonly string[];
  /** external message hashes or normalized hashes, hex */
  extHashes: readonly string[];
  /** root transaction hashes, hex */
  traceIds: readonly string[];
}

export interface PendingStore {
  put(entry: PendingEntry): Promise<void>;
  /** Entries matching any of the query's keys, newest first. */
  find(q: PendingQuery): Promise<PendingEntry[]>;
  /** Every entry (finality bookkeeping). */
  all(): Promise<PendingEntry[]>;
  remove(traceId: string): Promise<void>;
  /** Entries kept now (for /healthz). */
  count(): number;
  close(): Promise<void>;
}

export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
export const traceIdOf = (e: PendingEntry): string => hex(e.trace.traceId);

/** Newest first: by the time the message was accepted, then by trace id for a stable order. */
export const newestFirst = (a: PendingEntry, b: PendingEntry): number => b.trace.acceptedAt - a.trace.acceptedAt || (traceIdOf(a) < traceIdOf(b) ? -1 : 1);

/** The keys an entry is found by: its accounts, its external hashes, its trace id. */
export function keysOf(e: PendingEntry): string[] {
  return [...new Set(e.accounts.map((a) => `a:${a}`)), `h:${hex(e.trace.externalHash)}`, `h:${hex(e.trace.externalHashNorm)}`, `t:${traceIdOf(e)}`];
}

export function queryKeys(q: PendingQuery): string[] {
  return [...q.accounts.map((a) => `a:${a}`), ...q.extHashes.map((h) => `h:${h}`), ...q.traceIds.map((t) => `t:${t}`)];
}

/** In this process: at most `maxCount` entries (the oldest forgotten first), each for its TTL. */
export class MemoryPendingStore implements PendingStore {
  private readonly entries = new Map<string, PendingEntry>();
  private readonly index = new Map<string, Set<string>>();

  constructor(
    private readonly maxCount: number,
    private readonly now: () => number = Date.now,
  ) {}

  put(entry: PendingEntry): Promise<void> {
    const id = traceIdOf(entry);
    this.drop(id);
    this.entries.set(id, entry);
    for (const k of keysOf(entry)) {
      let ids = this.index.get(k);
      if (!ids) this.index.set(k, (ids = new Set()));
      ids.add(id);
    }
    // insertion order is acceptance order: the first is the oldest
    while (this.entries.size > this.maxCount) this.drop(this.entries.keys().next().value!);
    return Promise.resolve();
  }

  find(q: PendingQuery): Promise<PendingEntry[]> {
    this.expire();
    const ids = new Set<string>();
    for (const k of queryKeys(q)) for (const id of this.index.get(k) ?? []) ids.add(id);
    return Promise.resolve([...ids].map((id) => this.entries.get(id)!).sort(newestFirst));
  }

  all(): Promise<PendingEntry[]> {
    this.expire();
    return Promise.resolve([...this.entries.values()]);
  }

  remove(traceId: string): Promise<void> {
    this.drop(traceId);
    return Promise.resolve();
  }

  count(): number {
    this.expire();
    return this.entries.size;
  }

  close(): Promise<void> {
    this.entries.clear();
    this.index.clear();
    return Promise.resolve();
  }

  private expire(): void {
    const now = this.now();
    for (const [id, e] of this.entries) if (e.expiresAt <= now) this.drop(id);
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    for (const k of keysOf(e)) {
      const ids = this.index.get(k);
      ids?.delete(id);
      if (ids?.size === 0) this.index.delete(k);
    }
  }
}
