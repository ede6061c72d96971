// The dns family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";

export const matchers: MatcherSet = {};
