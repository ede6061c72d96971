// API v3 "Blockchain data": tongate.v3.Blockchain over the store, and the send service's pending transactions.
import type { ServiceImpl } from "@connectrpc/connect";
import type { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { Store } from "../sql.js";
import type { PendingSource } from "../pending.js";
import * as blocks from "./blocks.js";
import { messages } from "./messages.js";
import { pendingTransactions } from "./pending.js";
import * as transactions from "./transactions.js";

export function blockchainImpl(store: Store, pending: PendingSource): Partial<ServiceImpl<typeof Blockchain>> {
  return {
    masterchainInfo: () => blocks.masterchainInfo(store),
    getBlocks: (req) => blocks.blocks(store, req),
    masterchainBlockShards: (req) => blocks.masterchainBlockShards(store, req),
    masterchainBlockShardState: (req) => blocks.masterchainBlockShardState(store, req),
    getTransactions: (req) => transactions.transactions(store, req),
    transactionsByMasterchainBlock: (req) => transactions.transactionsByMasterchainBlock(store, req),
    transactionsByMessage: (req) => transactions.transactionsByMessage(store, req),
    adjacentTransactions: (req) => transactions.adjacentTransactions(store, req),
    getMessages: (req) => messages(store, req),
    getPendingTransactions: (req, ctx) => pendingTransactions(store, pending, req, ctx.signal),
  };
}
