// Buckets in NATS JetStream KV (--nats-url), shared by several ratelimit
// processes. Each bucket is one KV entry holding its state; an update reads the
// entry, applies the step and writes it back only if the entry's revision is still
// the one read (compare-and-set), retrying on a conflict: no two processes spend
// the same token. The KV store is in memory on the server, with a history of 1 and
// entries forgotten after an hour untouched (a bucket refills within seconds, so a
// forgotten one is a full one). Replicas' clocks should agree within a few ms; a
// bucket never refills backwards when they do not.
//
// When NATS is down (issue 16) no request waits for it (NatsLink knows): the
// outage policy answers — "local": this replica's own buckets at each key's rate
// (over-admission bounded by the number of replicas), "deny": 503 with
// Retry-After. A bucket update during which NATS sends nothing for its deadline
// (--ratelimit-nats-deadline-ms, 50 ms: a server that is stopping answers nothing
// until it closes its sockets) is decided by the policy too, and the link checks
// the server (a PING) before the next update goes to it. When NATS is back, the
// link recreates the KV bucket (a restarted server lost it: it lives in memory)
// and shared limiting resumes. The local buckets follow the shared states this
// replica sees, so a replica that loses NATS goes on from where its buckets
// stood, not from full ones (a full bucket per client at every short outage
// would admit a burst each time). A process started while NATS is down starts
// with the policy and connects in the background.
import { StorageType, type KV, type NatsConnection, type NatsError } from "nats";
import { apiError, ConfigError, type Logger } from "@tongate/runtime";
import { isJetStreamTimeout, NatsDownError, NatsLink, type NatsState } from "@tongate/runtime/nats";
import { MemoryBucketStore, type BucketStore } from "./bucket-store.js";
import type { RateLimitMetrics } from "./metrics.js";
import type { BucketState, Rate, Take } from "./token-bucket.js";

export const NATS_KV_BUCKET = "tongate_ratelimit";
const IDLE_TTL_MS = 60 * 60 * 1000;
const MAX_ATTEMPTS = 32;
/** JetStream's "wrong last sequence": the entry changed since it was read. */
const WRONG_LAST_SEQUENCE = 10071;
/** The KV client's own timeout (the link's preparation; a bucket update gives up at its much shorter deadline). */
const KV_TIMEOUT_MS = 1000;
/** A bucket update NATS has not answered by then is decided by the outage policy. */
export const DEFAULT_NATS_DEADLINE_MS = 50;
/** What `deny` asks clients to wait: the link retries within about this. */
export const OUTAGE_RETRY_AFTER_S = 2;

export const OUTAGE_POLICIES = ["local", "deny"] as const;
export type OutagePolicy = (typeof OUTAGE_POLICIES)[number];

/** KV keys allow [-/_=.a-zA-Z0-9]; bucket ids hold ':' (and IPv6 addresses). */
const kvKey = (id: string) => "b." + Buffer.from(id, "utf8").toString("base64url");

export interface NatsStoreOptions {
  url: string;
  log: Logger;
  bucket?: string;
  outage: OutagePolicy;
  /** How long a bucket update may wait for NATS (DEFAULT_NATS_DEADLINE_MS). */
  deadlineMs?: number;
  now: () => number;
  metrics: RateLimitMetrics;
}

export class NatsBucketStore implements BucketStore {
  private kv!: KV;
  /** This replica's buckets while NATS is down ("local"); while it is up, the shared states as this replica last saw them. */
  private readonly local: MemoryBucketStore;
  private link!: NatsLink;

  private constructor(private readonly o: NatsStoreOptions) {
    this.local = new MemoryBucketStore(o.now);
  }

  static async connect(o: NatsStoreOptions): Promise<NatsBucketStore> {
    const store = new NatsBucketStore(o);
    const bucket = o.bucket ?? NATS_KV_BUCKET;
    store.link = await NatsLink.connect(o.url, {
      name: "tongate-ratelimit",
      log: o.log,
      // (Re)creates the bucket: views.kv adds the stream when the server has none (first start, restart).
      prepare: async (nc: NatsConnection) => {
        try {
          store.kv = await nc.jetstream({ timeout: KV_TIMEOUT_MS }).views.kv(bucket, { history: 1, ttl: IDLE_TTL_MS, storage: StorageType.Memory });
        } catch (e) {
          if (isJetStreamTimeout(e)) throw new Error(`JetStream KV "${bucket}" did not answer within ${KV_TIMEOUT_MS} ms`, { cause: e });
          throw new ConfigError(`--nats-url ${o.url}: JetStream KV "${bucket}": ${(e as Error).message} (is the server started with JetStream, -js?)`);
        }
      },
      onState: (state, previous) => store.changed(state, previous),
      // started during an outage (e.g. restarted by a supervisor): answer by the policy meanwhile
      startDown: true,
    });
    o.metrics.watchNats(() => store.link.state);
    o.log.info({ nats: o.url, kv: bucket, outage: o.outage, deadlineMs: store.deadlineMs }, "ratelimit buckets in NATS JetStream KV");
    if (!store.link.up) store.outageBegan(store.link.state);
    return store;
  }

  private get deadlineMs(): number {
    return this.o.deadlineMs ?? DEFAULT_NATS_DEADLINE_MS;
  }

  /** Whether the buckets are shared now (false: the outage policy decides). */
  get shared(): boolean {
    return this.link.up;
  }

  /** For /healthz. */
  health() {
    return { ...this.link.health(), outagePolicy: this.o.outage };
  }

  async update(id: string, rate: Rate, step: (state: BucketState | undefined) => Take): Promise<Take> {
    const t0 = performance.now();
    if (this.link.up) {
      try {
        const t = await this.link.run((_, abandoned) => this.sharedUpdate(id, step, abandoned), { deadlineMs: this.deadlineMs });
        this.o.metrics.bucketUpdate("shared", performance.now() - t0);
        // contention is the shared store's answer, not an outage
        if (t === "contended") throw apiError(503, `rate-limit bucket ${id} is contended; try again`);
        this.local.mirror(id, t.state, rate);
        return t;
      } catch (e) {
        if (!(e instanceof NatsDownError) && this.link.up) throw e;
      }
    }
    try {
      return await this.outage(id, rate, step);
    } finally {
      this.o.metrics.bucketUpdate("outage", performance.now() - t0);
    }
  }

  /**
   * Once `abandoned` (past the deadline the policy decided the request), a late answer must not
   * spend a shared token as well: the update stops before its write.
   */
  private async sharedUpdate(id: string, step: (state: BucketState | undefined) => Take, abandoned: AbortSignal): Promise<Take | "contended"> {
    const key = kvKey(id);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(key);
      if (abandoned.aborted) return "contended";
      const live = entry && entry.operation === "PUT" && entry.value.length > 0;
      const t = step(live ? (entry.json() as BucketState) : undefined);
      if (!t.ok) return t;
      try {
        await this.kv.put(key, JSON.stringify(t.state), { previousSeq: entry ? entry.revision : 0 });
        return t;
      } catch (e) {
        if ((e as NatsError).api_error?.err_code !== WRONG_LAST_SEQUENCE) throw e;
      }
    }
    return "contended";
  }

  private async outage(id: string, rate: Rate, step: (state: BucketState | undefined) => Take): Promise<Take> {
    if (this.o.outage === "deny") {
      this.o.metrics.outageDecision("deny", "unavailable");
      throw apiError(503, "rate limits are shared through NATS, which is unreachable; try again shortly", { retryAfterS: OUTAGE_RETRY_AFTER_S });
    }
    const t = await this.local.update(id, rate, step);
    this.o.metrics.outageDecision("local", t.ok ? "allowed" : "limited");
    return t;
  }

  private outageBegan(state: NatsState): void {
    this.o.log.warn({ nats: this.o.url, state, policy: this.o.outage }, this.o.outage === "local" ? "NATS unreachable: rate limits are per replica until it returns" : "NATS unreachable: counted requests are refused (503) until it returns");
  }

  private changed(state: NatsState, previous: NatsState): void {
    if (previous === "up") {
      this.outageBegan(state);
    } else if (state === "up") {
      this.o.log.info({ nats: this.o.url }, "NATS is back: rate limits are shared again");
    }
  }

  async close(): Promise<void> {
    await this.link.close();
  }
}
