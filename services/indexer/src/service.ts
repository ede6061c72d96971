// The indexer as a hosted module: API v3's services (one per toncenter tag) over the store its host
// supplies (the process's one store, @tongate/store: the indexer registers its tables with it), and,
// when the host supplies a liteserver pool and --index is on, the follower filling that store
// (runIndexer) in the same process.
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { liteClientKey } from "@tongate/liteclient";
import { apiError, busKey, defineModule, optional } from "@tongate/runtime";
import { type LiteProxyClient, liteProxyClient, type SendClient, sendClient } from "./api/apiv2/lite-proxy.js";
import { Registry } from "prom-client";
import { KeyReaders } from "./api/key-readers/pool.js";
import { pendingSource } from "./api/pending.js";
import { INDEXER_SERVICES, v3Implementations } from "./api/service.js";
import { indexOptions, indexServiceOptionsOf } from "./options.js";
import { runIndexer, type IndexerRun } from "./run.js";
import { storeKey, watchClickHouse } from "@tongate/store";
import { registerIndexer } from "./store/index-store.js";
import { prepareKeyIndex } from "./store/key-index/rebuild.js";
import { StreamRenderer } from "./stream/renderer.js";

export const indexService = defineModule({
  name: "indexer",
  services: INDEXER_SERVICES,
  flags: indexOptions,
  options: indexServiceOptionsOf,
  needs: { liteClient: optional(liteClientKey), bus: busKey, store: storeKey },
  async start(ctx) {
    const o = ctx.options;
    // the host's store (closed by the host, after this module)
    const store = await registerIndexer(ctx.needs.store);
    // a key index that is new beside stored rows (or of an older format) is filled from them in the
    // background; until then the v3 reads go to ClickHouse
    const stopRebuild = new AbortController();
    let keyIndex = store.keys ? (store.keys.complete ? "complete" : "rebuilding") : "off";
    const keysReady = store.keys
      ? prepareKeyIndex(
          store,
          store.keys,
          (p) => {
            keyIndex = `rebuilding: ${p.transactions} of ${p.total} transactions`;
            if (p.transactions % 100_000 < 5_000) ctx.log.info(p, "key index: rebuilding from ClickHouse");
          },
          stopRebuild.signal,
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
    let sender: SendClient | undefined;
    const send = () => {
      if (sender) return sender;
      const transport = ctx.transportOf?.(Send);
      if (!transport) throw apiError(503, "the send service is not reachable from the indexer (run them in one process, or give the indexer --upstream send=URL)");
      return (sender = sendClient(transport));
    };
    const lite = ctx.needs.liteClient;
    let run: IndexerRun | undefined;
    try {
      if (lite && o.follow) {
        run = await runIndexer({ lite, store, bus: ctx.needs.bus, network: o.network, from: o.from, startAtHead: o.startAtHead, parseWorkers: o.parseWorkers, log: ctx.log });
      }
    } catch (e) {
      stopRebuild.abort();
      await keysReady;
      throw e;
    }
    const clickhouse = watchClickHouse(store, o.clickhouseProbe);
    const metrics = new Registry();
    const readers = store.keys && o.keyReaders.threads > 0 ? KeyReaders.start({ dir: store.keys.dir, ...o.keyReaders, log: ctx.log, registry: metrics }) : undefined;
    // the Streaming API's events, rendered here once from the bus (a failure to subscribe leaves API v3 answering)
    const stream = new StreamRenderer({ bus: ctx.needs.bus, store, network: o.network, log: ctx.log, registry: metrics });
    await stream.start().catch((err: unknown) => ctx.log.warn({ err }, "stream: not subscribed to the events it renders; the Streaming API has no events from this process"));
    return {
      impls: v3Implementations(store, liteProxy, readers, send, pendingSource(() => ctx.transportOf?.(Pending))),
      metrics,
      health: () => {
        const s = run?.status();
        const ch = clickhouse.health();
        // API v3 cannot answer without ClickHouse: unavailable, not degraded
        const reasons = ch.state === "up" ? [] : [`clickhouse (${ch.mode}): ${ch.error ?? "down"}; API v3 cannot answer`];
        return { ok: ch.state === "up", reasons, detail: { following: s?.following ?? false, lastIndexedSeqno: s?.lastIndexedSeqno ?? 0, headSeqno: s?.headSeqno ?? 0, keyIndex, keyReaders: readers ? { threads: o.keyReaders.threads, ...readers.stats } : "off", clickhouse: { ...ch } } };
      },
      async close() {
        await stream.stop();
        await readers?.close();
        clickhouse.stop();
        stopRebuild.abort();
        await keysReady;
        await run?.stop();
      },
    };
  },
});
