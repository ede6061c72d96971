// The decoder as a hosted module: on the process's store (registering its own tables), with the
// host's emulator pool and, when there is one, its liteserver pool (the config and libraries that
// get-methods of unknown code need). Under `tongate start` it runs beside the indexer on the same
// chDB; alone, `tongate serve --service decoder --clickhouse-url …` takes the same path against a
// ClickHouse server.
import { fileURLToPath } from "node:url";
import { create } from "@bufbuild/protobuf";
import { emulatorKey } from "@tongate/emulator";
import { liteClientKey } from "@tongate/liteclient";
import { Decoder, GetStatusResponseSchema } from "@tongate/proto/gen/tongate/decoder/v1/decoder_pb.js";
import { busKey, defineService, eventNetworkOf, optional } from "@tongate/runtime";
import { DecodedKeys, storeKey } from "@tongate/store";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import { ChainContext } from "./chain-context.js";
import { ItemContents } from "./item-content.js";
import { MetadataWorker } from "./metadata-worker.js";
import { metadataFlags, metadataOptionsOf } from "./metadata-options.js";
import { DECODER_KEY_INDEX, prepareDecodedKeys } from "./keys.js";
import { StateReader } from "./read-state.js";
import { BlocksDecodedPublisher } from "./blocks-decoded.js";
import { DecoderRun } from "./run.js";
import { Verdicts } from "./verdicts.js";

/** The decoder's ClickHouse tables. */
export const DECODER_MIGRATIONS = fileURLToPath(new URL("./store/migrations/", import.meta.url));

/** Blocks behind the indexer past which /healthz says the decoder is degraded. */
const LAG_DEGRADED = 100;

export const decoderService = defineService({
  name: "decoder",
  service: Decoder,
  flags: [
    { name: "decode", default: "on", description: "decoder: on: decode every indexed block (interfaces, jetton and NFT state and events); off: register its tables only" },
    ...metadataFlags,
  ],
  options: (o) => ({ decode: o.decode !== "off" && o.decode !== false, metadata: metadataOptionsOf(o), network: eventNetworkOf(o) }),
  needs: { store: storeKey, emulator: emulatorKey, liteClient: optional(liteClientKey), bus: optional(busKey) },
  async start(ctx) {
    const store = ctx.needs.store;
    const reg = await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS, keyIndex: DECODER_KEY_INDEX });
    const keys = reg.keys && DecodedKeys.of(reg.keys);
    const chain = new ChainContext(ctx.needs.liteClient, ctx.needs.emulator);
    const metrics = new Registry();
    const blocks = new Counter({ name: "tongate_decoder_blocks_total", help: "masterchain blocks decoded", registers: [metrics] });
    const seconds = new Histogram({ name: "tongate_decoder_block_seconds", help: "time to decode and write one masterchain block", buckets: [0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [metrics] });
    const traces = new Counter({ name: "tongate_decoder_traces_classified_total", help: "traces classified, by why: completed (a block completed them) or reclassified (a wallet or item they touch was confirmed later)", labelNames: ["reason"], registers: [metrics] });
    const tracesFailed = new Counter({ name: "tongate_decoder_traces_failed_total", help: "traces the classifier failed on (one unknown action each) or did not classify (broken: above 4,000 transactions)", labelNames: ["state"], registers: [metrics] });
    const classifySeconds = new Histogram({ name: "tongate_decoder_classify_seconds", help: "time to classify and write one masterchain block's traces", buckets: [0.001, 0.005, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [metrics] });
    const worker = ctx.options.decode && ctx.options.metadata.fetch ? new MetadataWorker({ ...ctx.options.metadata.fetcher, store, keys, log: ctx.log }) : undefined;
    // blocks.decoded after each block's checkpoint, through an outbox (never awaited on the bus)
    const bus = ctx.needs.bus;
    const outboxDepth = new Gauge({ name: "tongate_decoder_outbox_depth", help: "blocks.decoded events stored and not yet published", registers: [metrics] });
    const publisher = bus && ctx.options.decode ? new BlocksDecodedPublisher(bus, ctx.options.network, store, { log: ctx.log, metrics: { outbox: (depth) => outboxDepth.set(depth) } }) : undefined;
    const run = new DecoderRun({
      store,
      keys,
      reader: new StateReader(chain),
      verdicts: new Verdicts(store, chain),
      itemContents: new ItemContents(store, chain),
      bus: ctx.needs.bus,
      log: ctx.log,
      onBlock: (_mc, ms) => {
        blocks.inc();
        seconds.observe(ms / 1000);
      },
      onClassified: (c) => {
        traces.inc({ reason: "completed" }, c.classified);
        traces.inc({ reason: "reclassified" }, c.reclassified);
        tracesFailed.inc({ state: "failed" }, c.failed);
        tracesFailed.inc({ state: "broken" }, c.broken);
        classifySeconds.observe(c.ms / 1000);
      },
      onRows: worker && ((rows) => worker.enqueue(rows.token_metadata.map((t) => t.uri))),
      onDecoded: publisher && ((mc, traceIds, wallets) => publisher.decoded(mc, traceIds, wallets)),
    });
    if (worker) {
      new Gauge({ name: "tongate_decoder_metadata_waiting", help: "content URIs waiting for a fetch", registers: [metrics], collect() { this.set(worker.status().waiting); } });
      new Gauge({ name: "tongate_decoder_metadata_running", help: "content URIs being fetched", registers: [metrics], collect() { this.set(worker.status().running); } });
      new Gauge({ name: "tongate_decoder_metadata_fetched", help: "content URIs fetched since start", registers: [metrics], collect() { this.set(worker.status().fetched); } });
      new Gauge({
        name: "tongate_decoder_metadata_failed",
        help: "content URI fetches that failed since start, by kind (timeout, too_large, invalid_json, refused, …)",
        labelNames: ["kind"],
        registers: [metrics],
        collect() {
          for (const [kind, n] of Object.entries(worker.status().failed)) this.set({ kind }, n);
        },
      });
    }
    new Gauge({ name: "tongate_decoder_decoded_seqno", help: "the last masterchain block decoded", registers: [metrics], collect() { this.set(run.status().decodedSeqno); } });
    new Gauge({ name: "tongate_decoder_lag_blocks", help: "masterchain blocks the indexer has stored and the decoder has not decoded", registers: [metrics], collect() { this.set(run.status().lagBlocks); } });
    new Gauge({ name: "tongate_decoder_transient_retries", help: "attempts at a block given up for a transient failure (the emulator busy or slow, the liteserver away) and made again, since start", registers: [metrics], collect() { this.set(run.status().transientRetries); } });
    // the key tables are brought to the checkpoint (rebuilt from ClickHouse if need be) before the
    // first block is decoded; meanwhile the decoder waits and API v3 reads ClickHouse
    const stopPrepare = new AbortController();
    let keyIndex = keys ? "preparing" : "off";
    const started = !ctx.options.decode
      ? Promise.resolve(keys?.setLive(false))
      : (keys ? prepareDecodedKeys(store, keys, (signal) => reg.prepareKeys({ signal, onProgress: (p) => (keyIndex = `preparing: ${p.done} rows`) }), stopPrepare.signal) : Promise.resolve(true)).then(async (ready) => {
          if (!ready) return;
          if (keys) keyIndex = "complete";
          await publisher?.resumeDecoded();
          await run.start();
          worker?.start();
        });
    let startError: string | undefined;
    started.catch((err: unknown) => {
      startError = err instanceof Error ? err.message : String(err);
      if (keyIndex.startsWith("preparing")) keyIndex = "failed";
      ctx.log.error({ err }, "decoder: did not start (its key-index tables or its checkpoint could not be read); it does not decode");
    });
    if (!chain.canRun) ctx.log.info("decoder: no liteserver in this process: contracts of unknown code are not read, wallets and items wait for a verdict");
    return {
      metrics,
      health: () => {
        const s = run.status();
        const reasons = [];
        if (ctx.options.decode && s.lagBlocks > LAG_DEGRADED) reasons.push(`decoder: ${s.lagBlocks} blocks behind the indexer; API v3's jetton and NFT answers are as of block ${s.decodedSeqno}`);
        if (s.lastError) reasons.push(`decoder: ${s.lastError}`);
        if (startError !== undefined) reasons.push(`decoder: did not start, it does not decode: ${startError}`);
        const metadataFetch = worker ? { ...worker.status(), lastError: worker.status().lastError ?? null } : "off";
        return { ok: true, degraded: reasons.length > 0, reasons, detail: { ...s, keyIndex, lastError: s.lastError ?? null, metadataFetch } };
      },
      impl: {
        getStatus: () => {
          const s = run.status();
          return create(GetStatusResponseSchema, {
            running: s.running,
            decodedSeqno: s.decodedSeqno,
            indexedSeqno: s.indexedSeqno,
            lagBlocks: s.lagBlocks,
            blocksDecoded: BigInt(s.blocksDecoded),
            accountsFailed: BigInt(s.accountsFailed),
            lastError: s.lastError ?? "",
            transientRetries: BigInt(s.transientRetries),
            tracesClassified: BigInt(s.tracesClassified),
            tracesReclassified: BigInt(s.tracesReclassified),
            tracesFailed: BigInt(s.tracesFailed),
            tracesBroken: BigInt(s.tracesBroken),
            classifyMs: BigInt(s.classifyMs),
          });
        },
      },
      async close() {
        stopPrepare.abort();
        await started.catch(() => undefined);
        await run.stop();
        await publisher?.stop();
        await worker?.close();
        // no longer kept current: readers go to ClickHouse until a decoder writes them again
        await keys?.setLive(false);
      },
    };
  },
});
