// The Merkle proofs localnet's liteserver attaches, cut from its real block and
// state cells with @tongate/block. Blocks and states never change once built, so
// proofs are cut once and kept (a bounded cache for account proofs).
import type { Cell } from "@ton/core";
import { proveBlockHeader, proveShardAccount } from "@tongate/block";
import { LruMap } from "@tongate/runtime";
import type { ProofMaker } from "./liteserver/handlers.js";

const MAX_ACCOUNT_PROOFS = 10_000;

export function createProofMaker(): ProofMaker {
  const headers = new WeakMap<Cell, Cell>();
  const accounts = new LruMap<string, Cell>(MAX_ACCOUNT_PROOFS);
  return {
    blockHeader(block) {
      let p = headers.get(block);
      if (!p) headers.set(block, (p = proveBlockHeader(block)));
      return p;
    },
    // The Account is kept whole: clients such as ton-lite-client read it from the proof.
    shardAccount(state, accountId) {
      const key = state.hash().toString("hex") + accountId.toString("hex");
      let p = accounts.get(key);
      if (!p) accounts.set(key, (p = proveShardAccount(state, accountId, { withAccount: true })));
      return p;
    },
  };
}

export const localnetProofs: ProofMaker = createProofMaker();
