// The Merkle proofs localnet's liteserver attaches, cut from its real block and
// state cells with @tongate/block.
import { proveBlockHeader, proveShardAccount } from "@tongate/block";
import type { ProofMaker } from "./liteserver/handlers.js";

export const localnetProofs: ProofMaker = {
  blockHeader: (block) => proveBlockHeader(block),
  // The Account is kept whole: clients such as ton-lite-client read it from the proof.
  shardAccount: (state, accountId) => proveShardAccount(state, accountId, { withAccount: true }),
};
