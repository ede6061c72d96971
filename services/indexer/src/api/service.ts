// The indexer as a service: the tongate.v3.Index RPCs over the ClickHouse store, and (when the host
// hands it a liteserver client) the chain follower filling that store in the same process.
import type { ServiceImpl } from "@connectrpc/connect";
import { Index } from "@tongate/proto/gen/tongate/v3/index_pb.js";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { apiError, ConfigError, defineService, type ServiceContext } from "@tongate/runtime";
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

export const indexService = defineService({
  name: "indexer",
  service: Index,
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
    let client: legacy.LiteProxyClient | undefined;
    const liteProxy = () => {
      if (client) return client;
      const transport = ctx.transportOf?.(LiteProxy);
      if (!transport) throw apiError(503, "lite-proxy is not reachable from the indexer (run them in one process, or give the indexer --upstream lite-proxy=URL)");
      return (client = legacy.liteProxyClient(transport));
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
      impl: indexImpl(store, liteProxy),
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
});
