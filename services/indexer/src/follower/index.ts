// The chain follower: masterchain blocks in order with the shard blocks they commit, into the store.
export { type BlockIdExt, type LiteClient, type LiteQueryOptions, MASTERCHAIN_SHARD, blockKey, fetchBlock, lookupMasterchain, masterchainHead, tlBlockId } from "./lite.js";
export { type FetchOptions, type McBatch, fetchMcBatch, masterchainTops, startMcBatch } from "./batch.js";
export { type BlockParser, type ParseContext, type ParsedBlock, ParsePool, parseInline } from "./parse-pool.js";
export { FOLLOWER_CHECKPOINT, type IndexProgress, type IndexRangeOptions, type IndexRangeResult, type StoredMcBlock, indexRange } from "./index-range.js";
export { type FollowOptions, type FollowProgress, type FollowSummary, followChain, formatProgress, formatSummary } from "./follow.js";
