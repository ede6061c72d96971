// Decisions for a client: who it is (no key: its address; a key: the key, or its
// account when keys are grouped), whether the key may be used here, and whether
// its bucket holds tokens. Buckets: `ip:<address>` (keyless), `key:<id>`,
// `account:<name>` (every key of the account shares it; the account's rate is the
// highest among its live keys).
import { create } from "@bufbuild/protobuf";
import { type Client, type Decision, Decision_Outcome, DecisionSchema } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import type { BucketStore } from "./bucket-store.js";
import type { KeyRecord, KeyStore } from "./key-store.js";
import { CUSTOM_PLAN, type Limits } from "./plans.js";
import { isLoopback, normalizeAddress } from "./policy.js";
import { takeExactly, takeUpTo, type Rate, type Take } from "./token-bucket.js";

/** How long leased tokens may be used; what is not used by then lapses (it is never given back). */
export const LEASE_VALID_MS = 1000;

export const UNKNOWN_KEY_REASON = "API key does not exist";

export interface LeaseResult {
  decision: Decision;
  granted: number;
  validMs: number;
}

type Subject = { ok: true; bucket: string; rate: Rate } | { ok: false; decision: Decision };

/** A keyless loopback client when Limits.keylessLoopback is false: admitted, counted nowhere, no limit headers. */
const UNLIMITED = create(DecisionSchema, { outcome: Decision_Outcome.ALLOWED, bucket: "unlimited" });

export class Limiter {
  constructor(
    private readonly keys: KeyStore,
    private readonly buckets: BucketStore,
    private readonly limits: Limits,
    private readonly now: () => number = Date.now,
  ) {}

  /** The rate of a key on its own: its plan's (as configured now), or its own for "custom". */
  rpsOfKey(record: KeyRecord): number {
    if (record.plan === CUSTOM_PLAN) return record.rps;
    return this.limits.plans[record.plan] ?? record.rps;
  }

  get keylessRps(): number {
    return this.limits.keylessRps;
  }

  /** Who the client is and which bucket it counts in, or the refusal (unknown key, forbidden). */
  private unlimited(client: Client | undefined): boolean {
    return this.limits.keylessLoopback === false && !!client && !client.apiKey && isLoopback(client.address);
  }

  private subject(client: Client | undefined): Subject {
    const c = client ?? { apiKey: "", address: "", origin: "", network: "" };
    if (!c.apiKey) {
      const rps = this.limits.keylessRps;
      return { ok: true, bucket: `ip:${normalizeAddress(c.address)}`, rate: { rps, burst: rps } };
    }
    const found = this.keys.lookup(c.apiKey);
    if (!found || found.record.revoked) return { ok: false, decision: create(DecisionSchema, { outcome: Decision_Outcome.UNKNOWN_KEY, reason: UNKNOWN_KEY_REASON }) };
    const { record, policy } = found;
    const refusal = policy.refusal(c);
    if (refusal) return { ok: false, decision: create(DecisionSchema, { outcome: Decision_Outcome.FORBIDDEN, reason: refusal }) };
    if (record.account) {
      const rps = Math.max(this.rpsOfKey(record), ...this.keys.accountKeys(record.account).map((k) => this.rpsOfKey(k)));
      return { ok: true, bucket: `account:${record.account}`, rate: { rps, burst: rps } };
    }
    const rps = this.rpsOfKey(record);
    return { ok: true, bucket: `key:${record.id}`, rate: { rps, burst: rps } };
  }

  private decision(bucket: string, rate: Rate, t: Take): Decision {
    return create(DecisionSchema, {
      outcome: t.ok ? Decision_Outcome.ALLOWED : Decision_Outcome.LIMITED,
      reason: t.ok ? "" : `rate limit exceeded: ${rate.rps} request${rate.rps === 1 ? "" : "s"} per second`,
      limit: rate.rps,
      burst: rate.burst,
      remaining: t.remaining,
      resetMs: t.resetMs,
      retryAfterMs: t.retryAfterMs,
      bucket,
    });
  }

  /** One request of `cost` tokens (0 counts as 1): taken at once, or refused taking nothing. */
  async check(client: Client | undefined, cost: number): Promise<Decision> {
    if (this.unlimited(client)) return UNLIMITED;
    const s = this.subject(client);
    if (!s.ok) return s.decision;
    const n = Math.max(1, cost);
    const t = await this.buckets.update(s.bucket, s.rate, (state) => takeExactly(state, s.rate, this.now(), n));
    return this.decision(s.bucket, s.rate, t);
  }

  /**
   * Up to `want` tokens (0 counts as 1) for a gateway to admit requests with, at
   * most a tenth of the rate (at least 1) so that gateways sharing a limit each get
   * a part; valid for LEASE_VALID_MS.
   */
  async lease(client: Client | undefined, want: number): Promise<LeaseResult> {
    if (this.unlimited(client)) return { decision: UNLIMITED, granted: Math.max(1, want), validMs: LEASE_VALID_MS };
    const s = this.subject(client);
    if (!s.ok) return { decision: s.decision, granted: 0, validMs: 0 };
    const max = Math.min(Math.max(1, want), Math.max(1, Math.ceil(s.rate.rps / 10)));
    const t = await this.buckets.update(s.bucket, s.rate, (state) => takeUpTo(state, s.rate, this.now(), max));
    return { decision: this.decision(s.bucket, s.rate, t), granted: t.taken, validMs: t.ok ? LEASE_VALID_MS : 0 };
  }
}
