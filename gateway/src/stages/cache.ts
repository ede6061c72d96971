// Call stage: the answer cache (RPCs with the cache option). A hit answers without calling the service.
import type { AnswerCache } from "../cache.js";
import type { GatewayMetrics } from "../metrics.js";
import type { Answer, Call, Stage } from "./stage.js";

export function cacheStage(cache: AnswerCache, metrics: GatewayMetrics): Stage<Call, Answer> {
  return (next) => async (c) => {
    const slot = cache.lookup(c.route.method, c.input);
    if (!slot) return next(c);
    metrics.cacheLookup(c.route.method.localName, slot.hit !== undefined);
    if (slot.hit !== undefined) return { result: slot.hit, cached: true };
    const answer = await next(c);
    if (!answer.rendered) slot.store(answer.result);
    return answer;
  };
}
