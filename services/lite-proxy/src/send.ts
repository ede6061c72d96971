// API v2: sendBoc, sendBocReturnHash, estimateFee.
import type { ChainReader } from "./chain.js";

export function sendMethods(_chain: ChainReader) {
  return {};
}
