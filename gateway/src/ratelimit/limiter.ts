// The gateway's rate limiter: who is asking (client-identity.ts), their share of
// the limit (lease-budget.ts, backed by the RateLimit service's Lease), and the
// answer toncenter gives: the status, the message and the RateLimit-* headers.
import { createClient, type Transport } from "@connectrpc/connect";
import type { IncomingMessage } from "node:http";
import { Decision_Outcome, RateLimit } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import { ClientAddresses, apiKeyOf, type ClientIdentity } from "./client-identity.js";
import { LeaseBudget, type Verdict } from "./lease-budget.js";

export interface RateLimitOptions {
  /** The network this gateway serves (a key may be limited to some networks). */
  network: string;
  /** Addresses or CIDRs of proxies whose X-Forwarded-For is believed. */
  trustedProxies?: readonly string[];
  /** Monotonic clock, ms (tests move it with the service's). */
  now?: () => number;
}

/** What the gateway answers for a request: admitted or not, and the headers either way. */
export interface Admission {
  /** 0 when admitted; else 401, 403 or 429. */
  status: number;
  message: string;
  headers: Record<string, string>;
  outcome: Decision_Outcome;
}

const MESSAGES: Partial<Record<Decision_Outcome, { status: number; message: string }>> = {
  [Decision_Outcome.UNKNOWN_KEY]: { status: 401, message: "API key does not exist" },
  [Decision_Outcome.FORBIDDEN]: { status: 403, message: "Forbidden" },
  // toncenter's own words.
  [Decision_Outcome.LIMITED]: { status: 429, message: "Ratelimit exceed" },
};

export class RateLimiter {
  private readonly addresses: ClientAddresses;
  private readonly budget: LeaseBudget;

  constructor(transport: Transport, opts: RateLimitOptions, timeoutMs: number) {
    const client = createClient(RateLimit, transport);
    const network = opts.network;
    this.addresses = new ClientAddresses(opts.trustedProxies);
    const asClient = (c: ClientIdentity) => ({ apiKey: c.apiKey, address: c.address, origin: c.origin, network });
    this.budget = new LeaseBudget(
      (c, want) => client.lease({ client: asClient(c), want }, { timeoutMs }),
      async (c, cost) => (await client.check({ client: asClient(c), cost }, { timeoutMs })).decision,
      opts.now ?? (() => performance.now()),
    );
  }

  /** The client of a request; throws IdentityError (422) when its key is contradictory. */
  identify(req: IncomingMessage, query: string): ClientIdentity {
    const origin = req.headers.origin;
    return { apiKey: apiKeyOf(req, query), address: this.addresses.of(req), origin: typeof origin === "string" ? origin : "" };
  }

  /** Takes `cost` tokens (a /jsonRPC batch: one per call). Rejects when the RateLimit service cannot be reached. */
  admit(client: ClientIdentity, cost: number): Admission | Promise<Admission> {
    const v = this.budget.admit(client, cost);
    return v instanceof Promise ? v.then(admission) : admission(v);
  }
}

function admission(v: Verdict): Admission {
  const headers: Record<string, string> = {};
  if (v.limit > 0) {
    headers["ratelimit-limit"] = String(v.limit);
    headers["ratelimit-remaining"] = String(v.remaining);
    headers["ratelimit-reset"] = String(Math.ceil(v.resetMs / 1000));
  }
  const refusal = MESSAGES[v.outcome];
  if (!refusal) return { status: 0, message: "", headers, outcome: v.outcome };
  if (v.outcome === Decision_Outcome.LIMITED) headers["retry-after"] = String(Math.ceil(v.retryAfterMs / 1000));
  const message = v.outcome === Decision_Outcome.FORBIDDEN && v.reason ? v.reason : refusal.message;
  return { status: refusal.status, message, headers, outcome: v.outcome };
}
