// The tongate.v3.Index RPCs over the ClickHouse store (the service module that hosts them, with the
// follower filling the store, is ../service.ts).
import type { ServiceImpl } from "@connectrpc/connect";
import { Index } from "@tongate/proto/gen/tongate/v3/index_pb.js";
import type { Store } from "../store/store.js";
import * as legacy from "./legacy.js";
import * as accounts from "./queries/accounts.js";
import * as blocks from "./queries/blocks.js";
import { messages } from "./queries/messages.js";
import { traces } from "./queries/traces.js";
import * as transactions from "./queries/transactions.js";

/** Where the Index queries run: the store, and lite-proxy for the v2-style methods. */
export function indexImpl(store: Store, liteProxy: () => legacy.LiteProxyClient): Partial<ServiceImpl<typeof Index>> {
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
    accountStates: (req) => accounts.accountStates(store, req),
    walletStates: (req) => accounts.walletStates(store, req),
    addressBook: (req) => accounts.addressBookOf(store, req),
    topAccountsByBalance: (req) => accounts.topAccountsByBalance(store, req),
    getTraces: (req) => traces(store, req),
    addressInformation: (req) => (req.useV2 ? legacy.addressInformationV2(liteProxy(), req.address) : accounts.addressInformation(store, req.address)),
    walletInformation: (req) => (req.useV2 ? legacy.walletInformationV2(liteProxy(), req.address) : accounts.walletInformation(store, req.address)),
    sendMessage: (req) => legacy.sendMessage(liteProxy(), req.boc),
    runGetMethod: (req) => legacy.runGetMethod(liteProxy(), req),
    estimateFee: (req) => legacy.estimateFee(liteProxy(), req),
  };
}
