// API v2: runGetMethod, runGetMethodStd.
import type { ChainReader } from "./chain.js";

export function getMethodsMethods(_chain: ChainReader) {
  return {};
}
