// API v3 "Accounts": tongate.v3.Accounts over the store (/metadata from the decoder's tables).
import type { ServiceImpl } from "@connectrpc/connect";
import type { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import type { Store } from "../sql.js";
import { metadataOf } from "../metadata.js";
import { addressBookOf } from "./address-book.js";
import { accountStates, walletStates } from "./states.js";

export function accountsImpl(store: Store): Partial<ServiceImpl<typeof Accounts>> {
  return {
    accountStates: (req) => accountStates(store, req),
    walletStates: (req) => walletStates(store, req),
    addressBook: (req) => addressBookOf(store, req),
    metadata: (req) => metadataOf(store, req),
  };
}
