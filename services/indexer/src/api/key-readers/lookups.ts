// The v3 methods a key reader answers: the key lookups of ../blockchain/key-lookups.ts,
// ../actions/key-lookups.ts, ../accounts/states.ts, ../jettons/key-lookups.ts and
// ../nfts/key-lookups.ts, each by its
// method, run on the request's bytes. Both sides of the pool read this table: the service to know
// what to send, the reader to know what to run.
import { type DescMessage, type DescMethod, type DescMethodUnary, fromBinary, type Message, type MessageShape } from "@bufbuild/protobuf";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { Jettons } from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { Nfts } from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { accountStatesFromKeys, walletStatesFromKeys } from "../accounts/states.js";
import { actionsFromKeys, tracesFromKeys } from "../actions/key-lookups.js";
import {
  adjacentTransactionsFromKeys,
  type KeySource,
  messagesFromKeys,
  transactionsByMasterchainBlockFromKeys,
  transactionsByMessageFromKeys,
  transactionsFromKeys,
} from "../blockchain/key-lookups.js";
import { jettonTransfersFromKeys, jettonWalletsFromKeys } from "../jettons/key-lookups.js";
import { nftItemsFromKeys } from "../nfts/key-lookups.js";

/** The response of a key lookup, with its type. */
export interface KeyAnswer {
  desc: DescMessage;
  message: Message;
}

export interface KeyLookup {
  method: DescMethodUnary;
  /** The answer to the request (its binary form); undefined when only ClickHouse can give it. */
  answer(source: KeySource, request: Uint8Array): KeyAnswer | undefined;
}

function lookup<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  fn: (source: KeySource, req: MessageShape<I>) => MessageShape<O> | undefined,
): KeyLookup {
  return {
    method,
    answer(source, request) {
      const message = fn(source, fromBinary(method.input, request));
      return message && { desc: method.output, message };
    },
  };
}

export const KEY_LOOKUPS: readonly KeyLookup[] = [
  lookup(Blockchain.method.getTransactions, transactionsFromKeys),
  lookup(Blockchain.method.transactionsByMasterchainBlock, transactionsByMasterchainBlockFromKeys),
  lookup(Blockchain.method.transactionsByMessage, transactionsByMessageFromKeys),
  lookup(Blockchain.method.adjacentTransactions, adjacentTransactionsFromKeys),
  lookup(Blockchain.method.getMessages, messagesFromKeys),
  lookup(Actions.method.getTraces, tracesFromKeys),
  lookup(Actions.method.getActions, actionsFromKeys),
  lookup(Accounts.method.accountStates, accountStatesFromKeys),
  lookup(Accounts.method.walletStates, walletStatesFromKeys),
  lookup(Jettons.method.getJettonWallets, jettonWalletsFromKeys),
  lookup(Jettons.method.getJettonTransfers, jettonTransfersFromKeys),
  lookup(Nfts.method.getNftItems, nftItemsFromKeys),
];

/** How a method is named between the service and its readers. */
export const lookupId = (method: DescMethod): string => `${method.parent.typeName}/${method.name}`;
