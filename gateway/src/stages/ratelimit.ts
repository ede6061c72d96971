// Stage: API key and rate. Every request counts except the exempt ones (ratelimit/exempt.ts), whatever
// its path: an unknown or malformed one too, so this stage runs before the limits refuse anything.
// /jsonRPC is counted per call once its body is read: the stage hands the endpoint `admit`.
import { Decision_Outcome } from "@tongate/proto/gen/tongate/ratelimit/v1/ratelimit_pb.js";
import type { ApiDocs } from "../docs.js";
import type { GatewayMetrics } from "../metrics.js";
import { IdentityError, type ClientIdentity } from "../ratelimit/client-identity.js";
import { isExempt } from "../ratelimit/exempt.js";
import type { Admission, RateLimiter } from "../ratelimit/limiter.js";
import { refusal, type Classify } from "./errors.js";
import type { Exchange, Reply, Stage } from "./stage.js";

export const JSON_RPC_PATH = "/api/v2/jsonRPC";

export function rateLimitStage(o: { limiter: RateLimiter; docs: ApiDocs; metrics: GatewayMetrics; classify: Classify }): Stage<Exchange, Reply | null> {
  const decided = (a: Admission): Admission => {
    o.metrics.rateLimitDecision(a.outcome);
    return a;
  };
  const limiterFailed = (err: unknown): Admission => {
    o.metrics.rateLimitDecision(undefined);
    const { status, message, retryAfterS } = o.classify(err, undefined);
    // The limiter answered that it cannot decide now (--ratelimit-outage deny while NATS is down).
    if (retryAfterS !== undefined) return { status, message, headers: { "retry-after": String(retryAfterS) }, outcome: Decision_Outcome.UNSPECIFIED };
    return { status, message: `the rate limiter did not answer: ${message}`, headers: {}, outcome: Decision_Outcome.UNSPECIFIED };
  };
  /** Takes `cost` tokens of the client's limit; a failure to reach the limiter refuses the request. */
  const admit = (client: ClientIdentity, cost: number): Admission | Promise<Admission> => {
    try {
      const a = o.limiter.admit(client, cost);
      return a instanceof Promise ? a.then(decided, limiterFailed) : decided(a);
    } catch (err) {
      return limiterFailed(err);
    }
  };

  return (next) => async (x) => {
    if (x.path !== undefined && isExempt(x.path, x.method, o.docs)) return next(x);
    let client: ClientIdentity;
    try {
      client = o.limiter.identify(x.req, x.query);
    } catch (err) {
      if (err instanceof IdentityError) return refusal(x.flavour, err.status, err.message, "ratelimit");
      throw err;
    }
    if (x.path === JSON_RPC_PATH && x.method === "POST") return next({ ...x, client, admit: (cost) => admit(client, cost) });
    const admitting = admit(client, 1);
    // Most requests are decided from the lease at hand: no await (and no turn of the event loop) for them.
    const admission = admitting instanceof Promise ? await admitting : admitting;
    if (admission.status) return { ...refusal(x.flavour, admission.status, admission.message, "ratelimit"), headers: admission.headers };
    const reply = await next({ ...x, client, headers: admission.headers });
    if (reply) reply.headers = admission.headers;
    return reply;
  };
}
