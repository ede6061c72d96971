// The gateway's share of each client's limit. The RateLimit service keeps the
// token buckets (shared by every gateway); a gateway leases a few tokens of a
// client's bucket at a time and admits requests from them locally, so most
// requests cost no round trip. Per client:
// - requests are admitted from leased tokens while the lease is valid;
// - when they run out, one Lease call is made for everyone waiting (single
//   flight), asking for what the queue needs or, for a busy client, what it
//   spends in LEASE_AHEAD_MS at its recent pace (the service caps a grant at a
//   tenth of the rate); more calls follow while the service keeps granting and
//   the queue is not served;
// - a refusal is remembered: 401/403 for a second, 429 until the service says
//   a token is back, so refused clients cost no round trip either;
// - a request costing more than a lease can ever hold (a /jsonRPC batch larger
//   than the bucket, or any batch before the bucket's size is known) is decided
//   by Check, as the service decides it: admitted from a full bucket, which it
//   leaves in debt, or refused taking nothing.
import { Decision_Outcome, type Decision, type LeaseResponse } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import type { ClientIdentity } from "./client-identity.js";

/** How long an unknown-key or forbidden answer is reused. */
export const REFUSAL_TTL_MS = 1000;
/** A busy client's lease asks for this many ms of its recent spending: about ten Lease calls a second at most. */
export const LEASE_AHEAD_MS = 100;
/** The most tokens one Lease asks for. */
const MAX_WANT = 1_000_000;

export type Lease = (client: ClientIdentity, want: number) => Promise<LeaseResponse>;
export type Check = (client: ClientIdentity, cost: number) => Promise<Decision | undefined>;

/** The outcome for one request, with what the RateLimit-* headers report. */
export interface Verdict {
  outcome: Decision_Outcome;
  /** For a person, when refused (the service's reason). */
  reason: string;
  limit: number;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
}

/** What the gateway uses of the service's Decision. */
type Terms = Pick<NonNullable<LeaseResponse["decision"]>, "outcome" | "reason" | "limit" | "burst" | "remaining" | "resetMs" | "retryAfterMs">;

interface Waiter {
  cost: number;
  resolve(v: Verdict): void;
  reject(err: unknown): void;
}

class ClientBudget {
  tokens = 0;
  /** Leased tokens lapse at this time. */
  expires = 0;
  /** The service's last admitting decision and when it came. */
  granted: Terms | undefined;
  grantedAt = 0;
  /** Tokens spent since the last grant: the client's recent pace. */
  spent = 0;
  refusal: { terms: Terms; at: number; until: number } | undefined;
  readonly queue: Waiter[] = [];
  leasing = false;
}

export class LeaseBudget {
  /** Insertion order: oldest first. A plain Map (no LRU reordering on every request: that cost 0.6 µs a request). */
  private readonly clients = new Map<string, ClientBudget>();

  constructor(
    private readonly lease: Lease,
    private readonly check: Check,
    private readonly now: () => number,
    private readonly maxClients = 100_000,
  ) {}

  /** Takes `cost` tokens of the client's limit, or says why not. Synchronous when the lease or a refusal answers. */
  admit(client: ClientIdentity, cost: number): Verdict | Promise<Verdict> {
    // Keys restricted by address or origin decide per address and origin: a lease serves one combination.
    const id = `${client.apiKey}\n${client.address}\n${client.origin}`;
    const now = this.now();
    let b = this.clients.get(id);
    if (!b) {
      if (this.clients.size >= this.maxClients) this.forget(now);
      this.clients.set(id, (b = new ClientBudget()));
    }
    if (b.expires <= now) b.tokens = 0;
    if (b.queue.length === 0 && b.tokens >= cost) return this.take(b, cost, now);
    if (b.refusal && now < b.refusal.until) return refused(b.refusal.terms, b.refusal.at, now);
    // A batch the lease at hand cannot cover, when the bucket's size is unknown or too small for it: Check, all or nothing.
    if (cost > 1 && (!b.granted || cost > capacity(b.granted))) return this.checkOversized(b, client, cost);
    return new Promise<Verdict>((resolve, reject) => {
      b.queue.push({ cost, resolve, reject });
      if (!b.leasing) void this.refill(b, client);
    });
  }

  /**
   * Makes room for new clients: drops the idle ones (lease lapsed, no refusal in force, nobody waiting),
   * then, if most are busy, the oldest, down to 90% of the bound (so that this runs rarely).
   */
  private forget(now: number): void {
    for (const [id, b] of this.clients) if (idle(b, now)) this.clients.delete(id);
    for (const [id, b] of this.clients) {
      if (this.clients.size < this.maxClients * 0.9) break;
      // A budget with a Lease in flight is referenced by it and still serves its waiters; only its tokens are lost.
      if (!b.leasing) this.clients.delete(id);
    }
  }

  private take(b: ClientBudget, cost: number, now: number): Verdict {
    b.tokens -= cost;
    b.spent += cost;
    const d = b.granted!;
    const since = now - b.grantedAt;
    return {
      outcome: Decision_Outcome.ALLOWED,
      reason: "",
      limit: d.limit,
      // What this client can still spend now: its lease and what the bucket held after it.
      remaining: b.tokens + d.remaining,
      resetMs: Math.max(0, d.resetMs - since),
      retryAfterMs: 0,
    };
  }

  private async checkOversized(b: ClientBudget, client: ClientIdentity, cost: number): Promise<Verdict> {
    const d = await this.check(client, cost);
    const now = this.now();
    if (d?.outcome !== Decision_Outcome.ALLOWED) return refused({ ...NOTHING, ...d, outcome: d?.outcome || Decision_Outcome.LIMITED }, now, now);
    // Now the bucket's size is known: later batches that fit it are admitted from leases.
    if (!b.granted) {
      b.granted = d;
      b.grantedAt = now;
    }
    return { outcome: d.outcome, reason: "", limit: d.limit, remaining: b.tokens + d.remaining, resetMs: d.resetMs, retryAfterMs: 0 };
  }

  private async refill(b: ClientBudget, client: ClientIdentity): Promise<void> {
    b.leasing = true;
    try {
      while (b.queue.length > 0) {
        const needed = b.queue.reduce((n, w) => n + w.cost, 0) - b.tokens;
        const pace = Math.ceil((b.spent * LEASE_AHEAD_MS) / Math.max(1, this.now() - b.grantedAt));
        const want = Math.min(MAX_WANT, Math.max(1, needed, b.granted ? pace : 0));
        let res: LeaseResponse;
        try {
          res = await this.lease(client, want);
        } catch (err) {
          // The limiter is unreachable: the requests fail (not admitted unlimited), nothing is remembered.
          for (const w of b.queue.splice(0)) w.reject(err);
          return;
        }
        const now = this.now();
        const d = res.decision;
        if (d && d.outcome === Decision_Outcome.ALLOWED && res.granted > 0) {
          if (b.expires <= now) b.tokens = 0;
          b.tokens += res.granted;
          b.expires = now + res.validMs;
          b.granted = d;
          b.grantedAt = now;
          b.spent = 0;
          b.refusal = undefined;
          while (b.queue.length > 0 && b.queue[0]!.cost <= b.tokens) {
            const w = b.queue.shift()!;
            w.resolve(this.take(b, w.cost, now));
          }
          while (b.queue.length > 0 && b.queue[0]!.cost > capacity(d)) {
            const w = b.queue.shift()!;
            this.checkOversized(b, client, w.cost).then(w.resolve, w.reject);
          }
          continue;
        }
        // An admitting answer that granted nothing counts as over the limit.
        const refusal: Terms = d && d.outcome !== Decision_Outcome.ALLOWED ? d : { ...NOTHING, ...d, outcome: Decision_Outcome.LIMITED };
        const ttl = refusal.outcome === Decision_Outcome.LIMITED ? refusal.retryAfterMs : REFUSAL_TTL_MS;
        b.refusal = { terms: refusal, at: now, until: now + ttl };
        for (const w of b.queue.splice(0)) w.resolve(refused(refusal, now, now));
      }
    } finally {
      b.leasing = false;
    }
  }
}

const idle = (b: ClientBudget, now: number) => !b.leasing && b.expires <= now && (!b.refusal || b.refusal.until <= now);

const NOTHING: Terms = { outcome: Decision_Outcome.UNSPECIFIED, reason: "", limit: 0, burst: 0, remaining: 0, resetMs: 0, retryAfterMs: 0 };

/** The most tokens the client's bucket holds. */
const capacity = (t: Terms) => Math.max(t.burst, t.limit);

/** The verdict of a refusal that came at `at`, as of `now`. */
function refused(t: Terms, at: number, now: number): Verdict {
  const since = now - at;
  return {
    outcome: t.outcome,
    reason: t.reason,
    limit: t.limit,
    remaining: 0,
    resetMs: Math.max(0, t.resetMs - since),
    retryAfterMs: Math.max(0, t.retryAfterMs - since),
  };
}
