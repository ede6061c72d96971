// @tongate/proof: verification of liteserver answers against a trusted block id. Every function takes the
// decoded answer (@tongate/tl: snake_case fields, bytes as Buffer) and the trusted block it is relative to,
// and returns the proven data or throws ProofError.
export { ProofError } from "./errors.js";
export * from "./tl.js";
export {
  MASTERCHAIN,
  WORKCHAIN_INVALID,
  blockIdToString,
  isInvalidBlockId,
  isValidShard,
  sameBlockId,
  shardContainsAccount,
  shardU64,
  tlBlockId,
  tlbBlockId,
} from "./blockid.js";
export type { AccountAddress } from "./common.js";
export type { ProvenBlock } from "./header.js";
export type { ProvenShardAccount } from "./state.js";
export { type VerifiedAccountState, type VerifiedRunMethodResult, verifyAccountState, verifyRunMethodResult } from "./account.js";
export { type VerifiedBlockData, type VerifiedBlockHeader, verifyBlockData, verifyBlockHeader } from "./block.js";
export {
  CONFIG_FROM_KEY_BLOCK,
  type ConfigRequest,
  type VerifiedConfig,
  verifyConfig,
  verifyMcStateConfigProof,
} from "./config.js";
export { LIBRARIES_WITHOUT_DATA, type VerifiedLibraries, verifyLibraries } from "./libraries.js";
export { type ShardInfoRequest, type VerifiedAllShardsInfo, type VerifiedShardInfo, verifyAllShardsInfo, verifyShardInfo } from "./shards.js";
export {
  type BlockTransactionsRequest,
  type ProvenTransactionId,
  type TransactionHead,
  type VerifiedBlockTransactions,
  type VerifiedBlockTransactionsExt,
  type VerifiedTransaction,
  type VerifiedTransactionInfo,
  loadTransactionHead,
  verifyBlockTransactions,
  verifyBlockTransactionsExt,
  verifyTransactionInfo,
  verifyTransactionList,
} from "./transactions.js";
export {
  type VerifiedBlockLink,
  type VerifiedPartialBlockProof,
  verifyBlockLink,
  verifyBlockLinkBack,
  verifyBlockLinkForward,
  verifyPartialBlockProof,
} from "./blockproof.js";
export {
  type LiteServerShardBlockLink,
  type LiteServerShardBlockProof,
  type VerifiedShardBlockProof,
  verifyShardBlockLinks,
  verifyShardBlockProof,
} from "./shardblockproof.js";
export { masterchainValidatorSubset, shuffleMcValidators } from "./validators.js";
export { type DictItem, type DictLookup, dictItems, dictLookup } from "./dict.js";
