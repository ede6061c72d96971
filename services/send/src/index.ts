// send: external messages broadcast to the chain's liteservers (API v2's sendBoc and
// sendBocReturnHash, v3's /message through them), each one accepted also emulated into a pending
// trace with its actions (pending/), served by tongate.send.v1.Pending with the emulation of a
// message that is not sent. Without a chain the methods answer 501.
import { fromBinary, type JsonValue } from "@bufbuild/protobuf";
import { Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { emulatorKey } from "@tongate/emulator";
import { blockConfig, liteClientKey, PendingBlocks, type LiteserverPool } from "@tongate/liteclient";
import { BlocksIndexedSchema } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";
import { busKey, defineModule, eventNetworkOf, ifOpened, implement, optional, subscribeWhenUp, type RawOptions } from "@tongate/runtime";
import { deliveredMessages, storeKey } from "@tongate/store";
import type { EmulationDeps } from "./pending/emulate.js";
import { PendingEngine, PENDING_DEFAULTS } from "./pending/engine.js";
import { PendingEvents } from "./pending/events.js";
import { FinalityTracker } from "./pending/finality.js";
import { PendingMetrics } from "./pending/metrics.js";
import { NatsPendingStore } from "./pending/nats-pending-store.js";
import { MemoryPendingStore, type PendingStore } from "./pending/pending-store.js";
import { pendingMethods } from "./pending/rpc.js";
import { warmEmulator } from "./pending/warm-up.js";
import { sendMethods } from "./send.js";

/** A service that accepted a message this recently prefetches each new block's config. */
const BUSY_MS = 60_000;

/** How long the start waits for the emulator's warm-up at most. */
const WARM_UP_MS = 3_000;

/** Pending traces kept in this process at most (the oldest forgotten first). */
const MEMORY_PENDING_TRACES = 10_000;

interface SendOptions {
  natsUrl: string | undefined;
  /** the <network> of the pending.traces subject */
  network: string;
}

/**
 * Reads each new masterchain block's config as the pool sees the block (the emulations share it,
 * blockConfig keeps the newest few): the first message after a block does not wait for it. Only
 * while messages come (`busy`): a proof-checked config is ~100 ms of CPU, not spent on every block
 * of an idle service.
 */
function prefetchConfigs(pool: LiteserverPool, busy: () => boolean): () => void {
  const onBlock = () => {
    if (!busy()) return;
    const s = pool.session();
    void s
      .query({ kind: "liteServer.getMasterchainInfo" })
      .then((info) => blockConfig(s, info.last))
      .catch(() => undefined);
  };
  pool.on("consensus", onBlock);
  return () => pool.off("consensus", onBlock);
}

const optionsOf = (o: RawOptions): SendOptions => ({ natsUrl: typeof o["nats-url"] === "string" && o["nats-url"] ? o["nats-url"] : undefined, network: eventNetworkOf(o) });

export const sendService = defineModule({
  name: "send",
  services: [Send, Pending],
  // the chain's flags (--network, --global-config) are the pool's, read by the host's provision
  options: optionsOf,
  // the store only when this process has it (the indexer and the decoder): the decoder's facts for the classifier
  needs: { liteClient: optional(liteClientKey), emulator: emulatorKey, store: ifOpened(storeKey), bus: busKey },
  async start(ctx) {
    const pool = ctx.needs.liteClient;
    // the first send finds the consensus known (the pool is the host's, shared with lite-proxy) and
    // the emulator's processes started: a cold start takes seconds, past what a client waits for its pending trace
    if (pool) await Promise.all([pool.started, ctx.needs.emulator.warm().catch((e: unknown) => ctx.log.warn({ err: e }, "the emulator's processes did not start"))]);
    // before the service answers (bounded), so that its queries are not mixed with a client's
    if (pool) await warmEmulator(pool, ctx.needs.emulator, 2, WARM_UP_MS).catch((err: unknown) => ctx.log.debug({ err }, "pending: the emulator's warm-up failed"));
    const deps: EmulationDeps | undefined = pool ? { pool, emulator: ctx.needs.emulator, store: ctx.needs.store } : undefined;
    // distributed (--nats-url): shared by the replicas in JetStream KV; embedded: this process's memory
    const nats = ctx.options.natsUrl ? await NatsPendingStore.connect({ url: ctx.options.natsUrl, log: ctx.log, ttlMs: PENDING_DEFAULTS.ttlMs, maxLocal: MEMORY_PENDING_TRACES }) : undefined;
    // what this process keeps itself (with NATS: while NATS is down)
    const local = nats?.local ?? new MemoryPendingStore(MEMORY_PENDING_TRACES);
    const store: PendingStore = nats ?? local;
    const metrics = new PendingMetrics(() => store.count());
    // each transition on the bus (pending.traces), never awaited by a send
    const events = new PendingEvents(ctx.needs.bus, ctx.options.network, ctx.log, metrics.events);
    // a trace that neither lands nor is invalidated is forgotten at its TTL (the replica that kept it counts it)
    local.expired = (e) => {
      metrics.transitions.inc({ to: "invalidated", reason: "ttl" });
      events.invalidated(e.trace, "ttl");
      ctx.log.info({ traceId: Buffer.from(e.trace.traceId).toString("hex") }, "pending: trace invalidated: not on chain within its TTL");
    };
    // finality: the chain's signed shard blocks, watched only while traces are pending (the watcher
    // polls the liteservers), and the indexer's blocks.indexed events
    const indexStore = ctx.needs.store;
    const finality = new FinalityTracker(store, metrics, ctx.log, Date.now, async (hashes) => {
      const s = await indexStore();
      return new Set(s ? (await deliveredMessages(s, hashes)).keys() : []);
    }, events);
    let watcher: PendingBlocks | undefined;
    const watch = () => {
      if (watcher || !pool) return;
      watcher = new PendingBlocks(pool);
      finality.attach(watcher);
      watcher.on("warning", (err) => ctx.log.debug({ err }, "pending blocks: a poll failed"));
    };
    const unwatch = async () => {
      const w = watcher;
      watcher = undefined;
      await w?.close();
    };
    const sweep = setInterval(() => {
      local.expire();
      if (watcher && store.count() === 0) void unwatch();
    }, 5_000).unref();
    const engine = deps ? new PendingEngine(deps, store, metrics, ctx.log, PENDING_DEFAULTS, watch, events) : undefined;
    const stopPrefetch = pool && engine ? prefetchConfigs(pool, () => Date.now() - engine.lastAcceptedAt < BUSY_MS) : undefined;
    const onIndexed = (data: Uint8Array): Promise<void> => {
      let seqno: number;
      try {
        seqno = fromBinary(BlocksIndexedSchema, data).masterchain?.seqno ?? 0;
      } catch (err) {
        ctx.log.warn({ err }, "pending: a blocks.indexed event that does not decode");
        return Promise.resolve();
      }
      return finality.indexed(seqno);
    };
    let told = false;
    const indexed = subscribeWhenUp(ctx.needs.bus, "tongate.*.blocks.indexed", (m) => onIndexed(m.data), {
      onRetry: (err) => {
        if (!told) ctx.log.warn({ err }, "pending: not subscribed to blocks.indexed yet (asking again until the bus takes it); meanwhile traces are finalized by the masterchain blocks that commit them");
        told = true;
      },
    });
    return {
      impls: [
        implement(Send, sendMethods(pool, engine && ((m, sent) => engine.accepted(m, sent)))),
        implement(Pending, pendingMethods(deps, engine)),
      ],
      metrics: metrics.registry,
      health: () => {
        const detail: JsonValue = { pending: store.count(), ...(nats ? { nats: nats.health() } : {}) };
        if (!pool) return { ok: true, detail };
        const status = pool.status();
        const reasons = status.alive > 0 ? [] : [`send: none of ${status.total} liteservers is alive; sendBoc cannot broadcast`];
        return { ok: status.alive > 0, reasons, detail };
      },
      async close() {
        clearInterval(sweep);
        stopPrefetch?.();
        await unwatch();
        await indexed.unsubscribe().catch(() => undefined);
        await engine?.drain();
        await finality.settled();
        await events.flush(AbortSignal.timeout(1_000));
        await events.stop();
        await store.close();
      },
    };
  },
});
