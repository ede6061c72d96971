// localnet: an emulated TON chain served over the liteserver protocol.
export * from "./collator.js";
export * from "./config.js";
export * from "./control.js";
// The emulator wrapper lives in @tongate/emulator; what localnet exported of it before stays here.
export { emptyShardAccount, prevBlocksInfoBoc, TransactionExecutor, type ExecutedTransaction, type GetMethodParams, type GetMethodResult, type RunParams } from "@tongate/emulator";
export * from "./genesis.js";
export * from "./keys.js";
export * from "./localnet.js";
export { buildShardState } from "./chain/state.js";
export { DEFAULT_STATE_WINDOW, SHARD_COUNTS } from "./chain/chain.js";
export { AccountHistory } from "./chain/account-history.js";
export { localnetProofs } from "./proofs.js";
export * from "./libraries.js";
export { hasLibrary, type PublishedLibrary } from "./library-publisher.js";
