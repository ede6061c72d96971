// Buckets in NATS JetStream KV, shared by several ratelimit processes: not built yet.
import { ConfigError, type Logger } from "@tongate/runtime";
import type { BucketStore } from "./bucket-store.js";

export const NatsBucketStore = {
  connect(url: string, _now: () => number, _log: Logger): Promise<BucketStore> {
    return Promise.reject(new ConfigError(`--nats-url ${url}: buckets in NATS JetStream KV are not supported yet; run one ratelimit process (its buckets are shared by every gateway that leases from it)`));
  },
};
