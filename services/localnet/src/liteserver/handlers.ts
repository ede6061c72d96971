// liteServer.* methods answered from the chain. Block ids, states and proofs are
// the real ones: root hashes of the built blocks, sha256 of their BoCs, Merkle
// proofs cut from the real block and state cells. One module per group of methods:
//   core.ts          time, version, masterchain info, blocks, headers, lookups, shards, sendMessage, getTransactions
//   accounts.ts      getAccountState, getAccountStatePrunned, runSmcMethod
//   blocks.ts        getState, getShardInfo, lookupBlockWithProof, getShardBlockProof
//   transactions.ts  getOneTransaction, listBlockTransactions, listBlockTransactionsExt
//   blockproof.ts    getBlockProof
//   configs.ts       getConfigAll, getConfigParams, getLibraries, getLibrariesWithProof, getValidatorStats
//   queues.ts        getOutMsgQueueSizes, getBlockOutMsgQueueSize, getDispatchQueueInfo/Messages, nonfinal.getPendingShardBlocks
import type { Chain } from "../chain/chain.js";
import { accountHandlers } from "./accounts.js";
import { blockProofHandlers } from "./blockproof.js";
import { blockHandlers } from "./blocks.js";
import { configHandlers } from "./configs.js";
import { createCtx, type ProofMaker } from "./context.js";
import { coreHandlers } from "./core.js";
import type { LiteHandler } from "./dispatch.js";
import { queueHandlers } from "./queues.js";
import { transactionHandlers } from "./transactions.js";

export type { ProofMaker } from "./context.js";
export { signedShard } from "./context.js";
export { LITESERVER_CAPABILITIES, LITESERVER_VERSION } from "./core.js";

export function createHandlers(chain: Chain, proofs: ProofMaker, clock: () => number = () => Math.floor(Date.now() / 1000)): Record<string, LiteHandler> {
  const ctx = createCtx(chain, proofs, clock);
  return {
    ...coreHandlers(ctx),
    ...accountHandlers(ctx),
    ...blockHandlers(ctx),
    ...transactionHandlers(ctx),
    ...blockProofHandlers(ctx),
    ...configHandlers(ctx),
    ...queueHandlers(ctx),
  };
}
