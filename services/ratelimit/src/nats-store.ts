// Buckets in NATS JetStream KV (--nats-url), shared by several ratelimit
// processes. Each bucket is one KV entry holding its state; an update reads the
// entry, applies the step and writes it back only if the entry's revision is still
// the one read (compare-and-set), retrying on a conflict: no two processes spend
// the same token. The KV store is in memory on the server, with a history of 1 and
// entries forgotten after an hour untouched (a bucket refills within seconds, so a
// forgotten one is a full one). Replicas' clocks should agree within a few ms; a
// bucket never refills backwards when they do not.
import { connect, StorageType, type KV, type NatsConnection, type NatsError } from "nats";
import { apiError, ConfigError, type Logger } from "@tongate/runtime";
import type { BucketStore } from "./bucket-store.js";
import type { BucketState, Rate, Take } from "./token-bucket.js";

export const NATS_KV_BUCKET = "tongate_ratelimit";
const IDLE_TTL_MS = 60 * 60 * 1000;
const MAX_ATTEMPTS = 32;
/** JetStream's "wrong last sequence": the entry changed since it was read. */
const WRONG_LAST_SEQUENCE = 10071;

/** KV keys allow [-/_=.a-zA-Z0-9]; bucket ids hold ':' (and IPv6 addresses). */
const kvKey = (id: string) => "b." + Buffer.from(id, "utf8").toString("base64url");

export class NatsBucketStore implements BucketStore {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly kv: KV,
  ) {}

  static async connect(url: string, log: Logger, bucket = NATS_KV_BUCKET): Promise<NatsBucketStore> {
    let nc: NatsConnection;
    try {
      nc = await connect({ servers: url.split(",").map((s) => s.trim()), name: "tongate-ratelimit", maxReconnectAttempts: -1 });
    } catch (e) {
      throw new ConfigError(`--nats-url ${url}: ${(e as Error).message}`);
    }
    let kv: KV;
    try {
      kv = await nc.jetstream().views.kv(bucket, { history: 1, ttl: IDLE_TTL_MS, storage: StorageType.Memory });
    } catch (e) {
      await nc.close();
      throw new ConfigError(`--nats-url ${url}: JetStream KV "${bucket}": ${(e as Error).message} (is the server started with JetStream, -js?)`);
    }
    log.info({ nats: url, kv: bucket }, "ratelimit buckets in NATS JetStream KV");
    return new NatsBucketStore(nc, kv);
  }

  async update(id: string, _rate: Rate, step: (state: BucketState | undefined) => Take): Promise<Take> {
    const key = kvKey(id);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(key);
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
    throw apiError(503, `rate-limit bucket ${id} is contended; try again`);
  }

  async close(): Promise<void> {
    await this.nc.drain();
  }
}
