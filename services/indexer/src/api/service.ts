// The indexer as a service: API v3's services (one per toncenter tag, each in its folder here) over
// the ClickHouse store, and (when the host hands it a liteserver client) the chain follower filling
// that store in the same process. Every answer with an address_book gets it from the book step.
import type { DescService } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Accounts } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import { ApiV2 } from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import { Blockchain } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { Stats } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { apiError, ConfigError, implement, type ServiceContext, type ServiceImplementation, type ServiceModule } from "@tongate/runtime";
import { followChain } from "../follower/follow.js";
import type { LiteClient } from "../follower/lite.js";
import { migrate } from "../store/migrate.js";
import { type Store, openStore } from "../store/store.js";
import { getCheckpoint } from "../store/insert.js";
import { FOLLOWER_CHECKPOINT } from "../follower/index-range.js";
import { masterchainHead } from "../follower/lite.js";
import { BlocksIndexedPublisher } from "../events.js";
import type { ParsePool } from "../follower/parse-pool.js";
import { eventNetworkOf, parsePoolOf, seqnoOption, storeOptionsOf } from "../options.js";
import { prepareKeyIndex } from "../store/key-index/rebuild.js";
import { accountsImpl } from "./accounts/service.js";
import { actionsImpl } from "./actions/service.js";
import { apiV2Impl } from "./apiv2/service.js";
import { type LiteProxyClient, liteProxyClient } from "./apiv2/lite-proxy.js";
import { blockchainImpl } from "./blockchain/service.js";
import { addressBook } from "./book.js";
import { type BookSources, withAddressBook } from "./book-step.js";
import { statsImpl } from "./stats/service.js";

/** API v3's services, one per toncenter tag (Jettons, NFTs, DNS, … join as their endpoints come). */
export const V3_SERVICES: DescService[] = [Blockchain, Accounts, Actions, Stats, ApiV2];

/** API v3 over the store (and lite-proxy for the v2-style methods), each tag's answers through the book step. */
export function v3Api(store: Store, liteProxy: () => LiteProxyClient) {
  const book: BookSources = { addressBook: (addresses) => addressBook(store, addresses) };
  const step = <S extends DescService>(service: S, impl: Partial<ServiceImpl<S>>) => withAddressBook(service, impl, book);
  return {
    blockchain: step(Blockchain, blockchainImpl(store)),
    accounts: step(Accounts, accountsImpl(store)),
    actions: step(Actions, actionsImpl(store)),
    stats: step(Stats, statsImpl(store)),
    apiV2: step(ApiV2, apiV2Impl(store, liteProxy)),
  };
}

/** The implementations of V3_SERVICES, as a host serves them. */
export function v3Implementations(store: Store, liteProxy: () => LiteProxyClient): ServiceImplementation[] {
  const api = v3Api(store, liteProxy);
  return [
    implement(Blockchain, api.blockchain),
    implement(Accounts, api.accounts),
    implement(Actions, api.actions),
    implement(Stats, api.stats),
    implement(ApiV2, api.apiV2),
  ];
}

export const indexService: ServiceModule = {
  name: "indexer",
  services: V3_SERVICES,
  async start(ctx: ServiceContext) {
    const o = ctx.options;
    if (o.index !== undefined && o.index !== "on" && o.index !== "off") throw new ConfigError(`--index ${String(o.index)}: expected on or off`);
    const store = await openStore(storeOptionsOf(o));
    await migrate(store);
    const stop = new AbortController();
    // a key index that is new beside stored rows (or of an older format) is filled from them in the
    // background; until then the v3 reads go to ClickHouse
    let keyIndex = store.keys ? (store.keys.complete ? "complete" : "rebuilding") : "off";
    const keysReady = store.keys
      ? prepareKeyIndex(
          store,
          store.keys,
          (p) => {
            keyIndex = `rebuilding: ${p.transactions} of ${p.total} transactions`;
            if (p.transactions % 100_000 < 5_000) ctx.log.info(p, "key index: rebuilding from ClickHouse");
          },
          stop.signal,
        ).then(
          (done) => {
            if (done) keyIndex = "complete";
          },
          (err: unknown) => {
            keyIndex = "failed";
            ctx.log.error({ err }, "key index: the rebuild failed; API v3 reads go to ClickHouse");
          },
        )
      : undefined;
    let client: LiteProxyClient | undefined;
    const liteProxy = () => {
      if (client) return client;
      const transport = ctx.transportOf?.(LiteProxy);
      if (!transport) throw apiError(503, "lite-proxy is not reachable from the indexer (run them in one process, or give the indexer --upstream lite-proxy=URL)");
      return (client = liteProxyClient(transport));
    };
    // the follower, when the host gives a liteserver client and indexing is on; it starts in the
    // background so that an unreachable chain delays indexing, never the host's startup
    const lite = o.liteClient as LiteClient | undefined;
    let following: Promise<unknown> | undefined;
    let lastIndexed = 0;
    let headSeqno = 0;
    let parser: ParsePool | undefined;
    if (lite && o.index !== "off") {
      const fromOption = seqnoOption(o, "index-from");
      const publisher = ctx.bus ? new BlocksIndexedPublisher(ctx.bus, eventNetworkOf(o), store) : undefined;
      parser = parsePoolOf(o);
      following = (async () => {
        let from = fromOption;
        // a fresh index of a real network starts at its head, not at masterchain block 1
        if (from === undefined && (await getCheckpoint(store, FOLLOWER_CHECKPOINT)) === null && o.network !== "localnet" && !o.globalConfig) {
          while (!stop.signal.aborted && from === undefined) {
            from = await masterchainHead(lite).then(
              (h) => h.seqno,
              async (err: unknown) => {
                ctx.log.warn({ err }, "indexer: the chain's head is unknown yet; retrying");
                await new Promise((r) => setTimeout(r, 2000));
                return undefined;
              },
            );
          }
        }
        await publisher?.republishLast(FOLLOWER_CHECKPOINT);
        return followChain(lite, store, {
          from,
          signal: stop.signal,
          parse: parser?.parse,
          onStored: async (b) => {
            lastIndexed = b.mcSeqno;
            headSeqno = b.headSeqno;
            await publisher?.onStored(b);
          },
          log: (line, p, level) => ctx.log[level](p, line),
          onError: (err) => ctx.log.warn({ err }, "indexing failed; retrying"),
        });
      })();
      following.catch((err: unknown) => ctx.log.error({ err }, "indexer stopped"));
    }
    return {
      impls: v3Implementations(store, liteProxy),
      health: () => ({ ok: true, detail: { following: following !== undefined, lastIndexedSeqno: lastIndexed, headSeqno, keyIndex } }),
      async close() {
        stop.abort();
        await keysReady;
        await following?.catch((err: unknown) => ctx.log.error({ err }, "follower stopped with an error"));
        await parser?.close();
        await store.close();
      },
    };
  },
};
