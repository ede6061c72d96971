// API v2: getTokenData.
import type { ChainReader } from "./chain.js";

export function tokensMethods(_chain: ChainReader) {
  return {};
}
