// @tongate/liteclient: the liteserver pool (issue 4, item 6; moved out of lite-proxy by issue 14), global configs, typed lite_api.
export { int32ToIpv4, liteserversFromGlobalConfig, type LiteserverAddress } from "./config.js";
export { ALIVE_TOLERANCE, CONSENSUS_QUORUM, CONSENSUS_WINDOW, advanceConsensus, computeConsensus, withinConsensus } from "./consensus.js";
export {
  LiteServerError,
  LiteserverTimeoutError,
  LiteserverUnavailableError,
  NoAliveLiteserverError,
  PoolClosedError,
  PoolError,
  toApiError,
  type DownLiteserver,
  type LiteserverAttempt,
} from "./errors.js";
export {
  LiteserverPool,
  PoolSession,
  type BroadcastOptions,
  type ConsensusBlock,
  type LiteserverStatus,
  type PoolCounters,
  type PoolEvents,
  type PoolOptions,
  type PoolStatus,
  type QueryOptions,
  type RetryEvent,
  type SessionOptions,
} from "./pool.js";
export { bundledGlobalConfig, bundledNetworks, globalConfigOf } from "./global-config.js";
export { liteClientKey, liteClientProvision } from "./resource.js";
export type { AnyLiteCall, LiteAnswer, LiteCall, LiteInput, LiteQueryName } from "./lite-api.js";
export { MASTERCHAIN_SHARD, tlBlockId, type BlockIdExt } from "./block-id.js";
export { checkAnswer, getAccountState, getBlockHeader, getConfig, LiteserverProofError, type LiteQuerier } from "./verified.js";
export { blockConfig, fetchLibraries, readAccount, type AccountAtBlock, type VerifiedAccountReader } from "./emulation-inputs.js";
export { PendingBlocks, type PendingBlockTransaction, type PendingBlocksEvents, type PendingBlocksOptions, type PendingBlocksSource, type PendingShardBlock } from "./pending-blocks.js";
