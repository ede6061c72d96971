// ratelimit: API keys, plans and request-rate limits. The gateway asks it about
// every client (Lease: a few tokens of the client's limit at once, admitted
// locally; Check: one request), and the admin RPCs manage the keys. State: buckets
// in memory (one process: every gateway that leases from it shares them; or NATS
// JetStream KV with --nats-url), keys in <data-dir>/api-keys.json (or memory).
import { RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import type { JsonValue } from "@bufbuild/protobuf";
import { ConfigError, defineService, type OptionSpec, type RawOptions } from "@tongate/runtime";
import { adminMethods, resolveAdminToken } from "./admin.js";
import { MemoryBucketStore, type BucketStore } from "./bucket-store.js";
import { KeyStore } from "./key-store.js";
import { Limiter } from "./limiter.js";
import { RateLimitMetrics } from "./metrics.js";
import { DEFAULT_NATS_DEADLINE_MS, OUTAGE_POLICIES, type OutagePolicy } from "./nats-store.js";
import { limitsFromOptions, type Limits } from "./plans.js";

export { KeyStore, hashSecret, idOfHash, KEYS_FILE, type KeyRecord } from "./key-store.js";
export { Limiter, LEASE_VALID_MS, UNKNOWN_KEY_REASON } from "./limiter.js";
export { DEFAULT_PLANS, DEFAULT_KEYLESS_RPS, CUSTOM_PLAN, limitsFromOptions, parseLimits, type Limits } from "./plans.js";
export { MemoryBucketStore, type BucketStore } from "./bucket-store.js";
export { ADMIN_TOKEN_FILE, ADMIN_TOKEN_ERROR } from "./admin.js";
export { OUTAGE_RETRY_AFTER_S, type OutagePolicy } from "./nats-store.js";

/** The command-line options the service reads (`data-dir` is shared with localnet under `start`). */
export const rateLimitOptions: OptionSpec[] = [
  { name: "data-dir", description: "ratelimit: keep API keys in DIR/api-keys.json and the generated admin token in DIR/admin-token (default: memory only)" },
  { name: "admin-token", description: "ratelimit: token of the admin RPCs (/api/admin/v1/keys/*); default: DIR/admin-token, or one generated per process and logged" },
  { name: "ratelimit-config", description: 'ratelimit: JSON file {"keylessRps": 1, "plans": {"free": 10, "plus": 25, "advanced": 100}}' },
  { name: "keyless-rps", description: "ratelimit: requests per second per client address without a key (default 1; overrides the config file)" },
  { name: "keyless-loopback", description: "ratelimit: on: keyless clients on loopback are limited as any other; off: they are not (default on; `tongate start` on a localnet: off unless --ratelimit on)" },
  { name: "nats-url", description: "ratelimit: keep the buckets in NATS JetStream KV at this URL, shared by several ratelimit processes (default: memory)" },
  { name: "nats-kv-bucket", default: "tongate_ratelimit", description: "ratelimit: the JetStream KV bucket (in the server's memory) that --nats-url keeps the buckets in" },
  {
    name: "ratelimit-outage",
    default: "local",
    description: "ratelimit: while NATS (--nats-url) is down: local = each ratelimit replica limits with its own buckets at each key's rate (over-admission up to the number of replicas); deny = counted requests get 503 with Retry-After",
  },
  {
    name: "ratelimit-nats-deadline-ms",
    default: String(DEFAULT_NATS_DEADLINE_MS),
    description: "ratelimit: a bucket update NATS has not answered within this many ms is decided by --ratelimit-outage (and NATS is checked again before the next one goes to it)",
  },
];

/** An option given as kebab-case (flags) or camelCase (in-process callers). */
function option(options: RawOptions, kebab: string): string | undefined {
  const camel = kebab.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  const v = options[kebab] ?? options[camel];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") throw new ConfigError(`--${kebab}: expected one value`);
  return v;
}

/** The service's options, checked. */
export interface RateLimitOptions {
  /** Where the keys file (and a generated admin token) live; memory when absent. */
  dataDir: string | undefined;
  adminToken: string | undefined;
  limits: Limits;
  /** NATS JetStream KV keeps the buckets (shared by several ratelimit processes); memory when absent. */
  natsUrl: string | undefined;
  natsKvBucket: string | undefined;
  /** What limits while NATS is down. */
  outage: OutagePolicy;
  /** How long a bucket update waits for NATS before the outage policy decides it. */
  natsDeadlineMs: number;
  /** The clock of the buckets and keys (a test's fake clock in process; Date.now otherwise). */
  now: () => number;
}

export function rateLimitOptionsOf(o: RawOptions): RateLimitOptions {
  const clock = o.clock;
  return {
    dataDir: option(o, "data-dir"),
    adminToken: option(o, "admin-token"),
    limits: limitsFromOptions({ config: option(o, "ratelimit-config"), keylessRps: option(o, "keyless-rps"), keylessLoopback: option(o, "keyless-loopback") }),
    natsUrl: option(o, "nats-url"),
    natsKvBucket: option(o, "nats-kv-bucket"),
    outage: outagePolicyOf(option(o, "ratelimit-outage") ?? "local"),
    natsDeadlineMs: deadlineOf(option(o, "ratelimit-nats-deadline-ms")),
    now: typeof clock === "function" ? () => Number(clock()) : Date.now,
  };
}

function deadlineOf(v: string | undefined): number {
  if (v === undefined) return DEFAULT_NATS_DEADLINE_MS;
  const ms = Number(v);
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000) throw new ConfigError(`--ratelimit-nats-deadline-ms ${v}: expected whole milliseconds, 1..60000`);
  return ms;
}

function outagePolicyOf(v: string): OutagePolicy {
  const p = OUTAGE_POLICIES.find((x) => x === v);
  if (!p) throw new ConfigError(`--ratelimit-outage ${v}: expected ${OUTAGE_POLICIES.join(" or ")}`);
  return p;
}

export const rateLimitService = defineService({
  name: "ratelimit",
  service: RateLimit,
  flags: rateLimitOptions,
  options: rateLimitOptionsOf,
  needs: {},
  async start(ctx) {
    const { dataDir, limits, natsUrl, now } = ctx.options;
    const keys = new KeyStore({
      dir: dataDir,
      now,
      onReloadError: (err) => ctx.log.error({ err }, "API keys file changed but cannot be read; the keys read before stay in force"),
    });
    const metrics = new RateLimitMetrics();
    let buckets: BucketStore;
    let health: (() => { degraded: boolean; reasons: string[]; detail: JsonValue }) | undefined;
    if (natsUrl) {
      const { NatsBucketStore } = await import("./nats-store.js");
      const { natsKvBucket: bucket, outage, natsDeadlineMs: deadlineMs } = ctx.options;
      const store = await NatsBucketStore.connect({ url: natsUrl, log: ctx.log, bucket, outage, deadlineMs, now, metrics });
      health = () => ({
        degraded: !store.shared,
        reasons: store.shared ? [] : [`ratelimit: NATS is ${store.health().state}; requests are limited by the outage policy (${outage})`],
        detail: { nats: store.health() },
      });
      buckets = store;
    } else {
      buckets = new MemoryBucketStore(now);
    }
    const limiter = new Limiter(keys, buckets, limits, now);
    const adminToken = resolveAdminToken({ token: ctx.options.adminToken, dataDir }, ctx.log);
    ctx.log.debug({ keylessRps: limits.keylessRps, keylessLoopback: limits.keylessLoopback ?? true, plans: limits.plans, keys: keys.file ?? "memory", buckets: natsUrl ?? "memory" }, "ratelimit ready");
    return {
      metrics: metrics.registry,
      // Always ok: while NATS is down the outage policy answers (degraded; the detail says which).
      health: health && (() => ({ ok: true, ...health() })),
      impl: {
        async check(req) {
          return { decision: await limiter.check(req.client, req.cost) };
        },
        async lease(req) {
          return limiter.lease(req.client, req.want);
        },
        ...adminMethods(keys, limiter, limits, adminToken, ctx.log),
      },
      close: async () => {
        await buckets.close?.();
      },
    };
  },
});
