// API v3's services (one per toncenter tag, each in its folder here) over the ClickHouse store. Every
// answer with an address_book gets it from the book step. The module that hosts them, with the
// follower filling the store, is ../service.ts.
import type { DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { ApiV2 } from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { Emulate } from "@tongate/proto/gen/tongate/emulate/v1/emulate_pb.js";
import { Jettons } from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { Nfts } from "@tongate/proto/gen/tongate/v3/nfts_pb.js";
import { Stats } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { Utils } from "@tongate/proto/gen/tongate/v3/utils_pb.js";
import { apiError, implement, type ServiceImplementation } from "@tongate/runtime";
import type { IndexStore as Store } from "../store/index-store.js";
import { accountsImpl } from "./accounts/service.js";
import { actionsImpl } from "./actions/service.js";
import { apiV2Impl } from "./apiv2/service.js";
import type { LiteProxyClient, SendClient } from "./apiv2/lite-proxy.js";
import { blockchainImpl } from "./blockchain/service.js";
import { addressBook } from "./book.js";
import { emulateImpl } from "./emulate/service.js";
import { type BookSources, withAddressBook } from "./book-step.js";
import { jettonsImpl } from "./jettons/service.js";
import type { KeyReaders } from "./key-readers/pool.js";
import { withKeyReaders } from "./key-readers/step.js";
import { tokenMetadataOf } from "./metadata.js";
import { nftsImpl } from "./nfts/service.js";
import { type PendingSource, pendingSource } from "./pending.js";
import { statsImpl } from "./stats/service.js";
import { utilsImpl } from "./utils/service.js";

/** API v3's services, one per toncenter tag (DNS, multisig, … join as their endpoints come). */
export const V3_SERVICES: DescService[] = [Blockchain, Accounts, Actions, Jettons, Nfts, Stats, ApiV2, Utils];

/** What the indexer serves: API v3 and the Emulate API (whose trees it renders as API v3 does). */
export const INDEXER_SERVICES: DescService[] = [...V3_SERVICES, Emulate];

/** The send service as seen from a process that has none: /message answers 503. */
const noSend = (): SendClient => {
  throw apiError(503, "the send service is not reachable from the indexer (run them in one process, or give the indexer --upstream send=URL)");
};

/** No send service to ask: the pending endpoints and the Emulate API answer 503. */
const noSendService: PendingSource = pendingSource(() => undefined);

/**
 * API v3 over the store (lite-proxy and the send service for the v2-style methods, the send
 * service's pending traces for the pending endpoints and the Emulate API), each tag's answers
 * through the book step; with `readers`, the key lookups are answered by them when the caller takes
 * rendered answers.
 */
export function v3Api(store: Store, liteProxy: () => LiteProxyClient, readers?: KeyReaders, send: () => SendClient = noSend, pending: PendingSource = noSendService) {
  const book: BookSources = { addressBook: (addresses) => addressBook(store, addresses), metadata: (addresses) => tokenMetadataOf(store, addresses) };
  const step = <S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>) => withAddressBook(service, impl, book);
  return {
    blockchain: withKeyReaders(Blockchain, step(Blockchain, blockchainImpl(store, pending)), readers),
    accounts: withKeyReaders(Accounts, step(Accounts, accountsImpl(store)), readers),
    actions: withKeyReaders(Actions, step(Actions, actionsImpl(store, pending)), readers),
    jettons: withKeyReaders(Jettons, step(Jettons, jettonsImpl(store)), readers),
    nfts: withKeyReaders(Nfts, step(Nfts, nftsImpl(store)), readers),
    stats: step(Stats, statsImpl(store)),
    apiV2: step(ApiV2, apiV2Impl(store, liteProxy, send)),
    utils: utilsImpl(),
    emulate: emulateImpl(pending, book),
  };
}

/** The implementations of INDEXER_SERVICES, as a host serves them. */
export function v3Implementations(store: Store, liteProxy: () => LiteProxyClient, readers?: KeyReaders, send?: () => SendClient, pending?: PendingSource): ServiceImplementation[] {
  const api = v3Api(store, liteProxy, readers, send, pending);
  return [
    implement(Blockchain, api.blockchain),
    implement(Accounts, api.accounts),
    implement(Actions, api.actions),
    implement(Jettons, api.jettons),
    implement(Nfts, api.nfts),
    implement(Stats, api.stats),
    implement(ApiV2, api.apiV2),
    implement(Utils, api.utils),
    implement(Emulate, api.emulate),
  ];
}
