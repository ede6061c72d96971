// A family's matchers, by toncenter's matcher name (order.ts places them).
import type { BlockMatcher } from "../engine/matcher.js";
import type { MatcherName } from "./order.js";

export type MatcherSet = Partial<Record<MatcherName, BlockMatcher>>;
