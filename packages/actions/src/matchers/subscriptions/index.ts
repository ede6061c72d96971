// The subscriptions family's matchers (wallet v4 plugins), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { SubscribeMatcher, UnsubscribeMatcher } from "./subscriptions.js";

export const matchers: MatcherSet = {
  SubscriptionBlockMatcher: new SubscribeMatcher(),
  UnsubscribeBlockMatcher: new UnsubscribeMatcher(),
};
