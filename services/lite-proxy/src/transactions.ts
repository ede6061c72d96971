// API v2: getBlockTransactions(Ext), getTransactions(Std), tryLocateTx, tryLocateResultTx, tryLocateSourceTx.
import type { ChainReader } from "./chain.js";

export function transactionsMethods(_chain: ChainReader) {
  return {};
}
