// The indexer's one routine, run by `tongate index` (a range with --to, or following the head) and by
// the indexer service inside `start`, `serve` and `gateway` (following): masterchain blocks and the
// shard blocks they commit, read through a liteserver pool, into the store, with a blocks.indexed
// event on the bus after each masterchain block.
import { setTimeout as sleep } from "node:timers/promises";
import type { EventBus, Logger } from "@tongate/runtime";
import { BlocksIndexedPublisher } from "./events.js";
import { followChain } from "./follower/follow.js";
import { FOLLOWER_CHECKPOINT, indexRange, type IndexRangeResult, type StoredMcBlock } from "./follower/index-range.js";
import { type LiteClient, masterchainHead } from "./follower/lite.js";
import { ParsePool } from "./follower/parse-pool.js";
import type { IndexerMetrics } from "./metrics.js";
import { getCheckpoint } from "@tongate/store";
import type { IndexStore as Store } from "./store/index-store.js";

export interface IndexerConfig {
  /** The liteservers the blocks are read from (a LiteserverPool). */
  lite: LiteClient;
  /** The store, open and migrated (openIndexStore); the caller closes it. */
  store: Store;
  /** Where blocks.indexed events go; none published without one. */
  bus?: EventBus;
  /** The <network> of the event subject tongate.<network>.blocks.indexed. */
  network: string;
  /** First masterchain seqno (default: after the checkpoint, else 1, or the head with startAtHead). */
  from?: number;
  /** Last masterchain seqno: index from..to and stop. Without it, follow the head until stopped. */
  to?: number;
  /** Following a fresh index (no checkpoint, no `from`) starts at the chain's head, not at block 1: a real network's history is long. */
  startAtHead?: boolean;
  /** Worker threads parsing blocks ahead of the inserts (0 or absent: the main thread). */
  parseWorkers?: number;
  /** Masterchain blocks fetched and parsed ahead (indexRange's default when absent). */
  prefetch?: number;
  metrics?: IndexerMetrics;
  log: Logger;
  /** Wait between attempts to learn the head for startAtHead (ms). */
  retryMs?: number;
}

export interface IndexerStatus {
  following: boolean;
  lastIndexedSeqno: number;
  headSeqno: number;
}

export interface IndexerRun {
  /** Settles when the range is indexed (its result), or when following has stopped (undefined). */
  readonly done: Promise<IndexRangeResult | undefined>;
  status(): IndexerStatus;
  /** Stops following (or the range) and waits until it has. */
  stop(): Promise<void>;
}

/**
 * Starts indexing. It resolves once the events of what is already stored are on the bus (a crash
 * between a checkpoint and its event left one unpublished); the chain is read in the background, so a
 * liteserver that cannot be reached delays indexing, never the caller.
 */
export async function runIndexer(config: IndexerConfig): Promise<IndexerRun> {
  const { lite, store, log, metrics } = config;
  const publisher = config.bus ? new BlocksIndexedPublisher(config.bus, config.network, config.store, { log, metrics }) : undefined;
  if (publisher) {
    log.debug({ subject: publisher.subject }, "publishing events");
    // the events a crash or an outage left unpublished go out in the background
    await publisher.resume(FOLLOWER_CHECKPOINT);
  }
  const stop = new AbortController();
  const { signal } = stop;
  const status: IndexerStatus = { following: config.to === undefined, lastIndexedSeqno: 0, headSeqno: 0 };
  const parser = config.parseWorkers ? ParsePool.create(config.parseWorkers) : undefined;
  const onStored = async (b: StoredMcBlock) => {
    status.lastIndexedSeqno = b.mcSeqno;
    status.headSeqno = b.headSeqno;
    metrics?.stored(b);
    // recorded only: the outbox publishes it, so a bus that is down never holds indexing up
    await publisher?.onStored(b);
  };

  const range = async (to: number): Promise<IndexRangeResult> => {
    const head = (await masterchainHead(lite)).seqno;
    status.headSeqno = head;
    metrics?.setHead(head);
    const r = await indexRange(lite, store, {
      from: config.from,
      to,
      signal,
      parse: parser?.parse,
      prefetch: config.prefetch,
      onProgress: (p) => log.info(p, "indexed"),
      onStored: (b) => onStored({ ...b, headSeqno: Math.max(head, b.mcSeqno) }),
    });
    log.info({ from: r.from, last: r.last, blocks: r.blocks, transactions: r.transactions }, "range indexed");
    return r;
  };

  const follow = async (): Promise<undefined> => {
    let from = config.from;
    if (from === undefined && config.startAtHead && (await getCheckpoint(store, FOLLOWER_CHECKPOINT)) === null) {
      while (!signal.aborted && from === undefined) {
        from = await masterchainHead(lite).then(
          (h) => h.seqno,
          async (err: unknown) => {
            log.warn({ err }, "the chain's head is unknown yet; retrying");
            await sleep(config.retryMs ?? 2000, undefined, { signal }).catch(() => undefined);
            return undefined;
          },
        );
      }
    }
    if (signal.aborted) return undefined;
    await followChain(lite, store, {
      from,
      signal,
      parse: parser?.parse,
      prefetch: config.prefetch,
      onStored,
      log: (line, p, level) => log[level](p, line),
      onError: (err) => {
        metrics?.failed(err);
        log.warn({ err }, "indexing failed; retrying");
      },
    });
    return undefined;
  };

  const ranged = async (to: number): Promise<IndexRangeResult> => {
    const r = await range(to);
    // a range is done once its events are on the bus too
    await publisher?.flush(signal);
    return r;
  };
  const done = (config.to === undefined ? follow() : ranged(config.to)).finally(async () => {
    status.following = false;
    await parser?.close();
    await publisher?.stop();
  });
  // following retries what fails; what escapes is a bug, said once here (a range's caller awaits `done`)
  if (config.to === undefined) done.catch((err: unknown) => log.error({ err }, "indexer stopped"));
  return {
    done,
    status: () => ({ ...status }),
    async stop() {
      stop.abort();
      await done.then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
