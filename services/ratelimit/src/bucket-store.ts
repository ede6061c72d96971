// Where the buckets live. In memory (one ratelimit process: every gateway that
// leases from it shares its buckets), or in NATS JetStream KV (several ratelimit
// replicas share them; nats-store.ts). A bucket that is full carries no
// information, so a missing bucket is a full one and full ones may be dropped.
import { isFull, type BucketState, type Rate, type Take } from "./token-bucket.js";

export interface BucketStore {
  /**
   * Applies `step` to the bucket `id` atomically and stores its new state when it
   * took tokens. `step` may run more than once (optimistic concurrency).
   */
  update(id: string, rate: Rate, step: (state: BucketState | undefined) => Take): Promise<Take>;
  close?(): Promise<void>;
}

export class MemoryBucketStore implements BucketStore {
  private readonly buckets = new Map<string, { state: BucketState; rate: Rate }>();
  private sweptAt: number;

  constructor(
    private readonly now: () => number = Date.now,
    /** ms between sweeps of the buckets that have refilled (keyless clients come and go). */
    private readonly sweepEveryMs = 60_000,
  ) {
    this.sweptAt = now();
  }

  get size(): number {
    return this.buckets.size;
  }

  update(id: string, rate: Rate, step: (state: BucketState | undefined) => Take): Promise<Take> {
    const t = step(this.buckets.get(id)?.state);
    if (t.ok) this.buckets.set(id, { state: t.state, rate });
    this.sweep();
    return Promise.resolve(t);
  }

  /** Sets a bucket to a state decided elsewhere (the shared store's), to go on from it later. */
  mirror(id: string, state: BucketState, rate: Rate): void {
    this.buckets.set(id, { state, rate });
    this.sweep();
  }

  private sweep() {
    const now = this.now();
    if (now - this.sweptAt < this.sweepEveryMs) return;
    this.sweptAt = now;
    for (const [id, b] of this.buckets) if (isFull(b.state, b.rate, now)) this.buckets.delete(id);
  }
}
