// The indexer's events: `tongate.<network>.blocks.indexed` (tongate.indexer.v1.BlocksIndexed),
// published on the event bus (@tongate/runtime: in process, or NATS JetStream) after each
// masterchain block's rows and checkpoint are stored, through an outbox (BlocksIndexedPublisher):
// indexing never waits for the bus. The message id is `<subject>:<mc seqno>`, so the same block
// published twice (after a crash) is stored once by JetStream.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type BlockRef, BlockRefSchema, type BlocksIndexed, BlocksIndexedSchema } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";
import { type EventBus, type Logger, subjectToken } from "@tongate/runtime";
import type { StoredMcBlock } from "./follower/index-range.js";
import type { BlockRow } from "./rows/types.js";
import { getCheckpoint, setCheckpoint, type Store } from "@tongate/store";

export type { BlocksIndexed } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";

export const blocksIndexedSubject = (network: string): string => `tongate.${subjectToken(network)}.blocks.indexed`;

type RefRow = Pick<BlockRow, "workchain" | "shard" | "seqno" | "root_hash" | "file_hash">;

const ref = (b: RefRow): BlockRef =>
  create(BlockRefSchema, {
    workchain: b.workchain,
    shard: BigInt(b.shard),
    seqno: b.seqno,
    rootHash: new Uint8Array(Buffer.from(b.root_hash, "base64")),
    fileHash: new Uint8Array(Buffer.from(b.file_hash, "base64")),
  });

/** The event of a stored masterchain block (its blocks: the masterchain block first). */
export function blocksIndexed(b: Pick<StoredMcBlock, "blocks" | "transactions" | "genUtime" | "mcSeqno" | "headSeqno">, nowMs = Date.now()): BlocksIndexed {
  const [mc, ...shards] = b.blocks;
  if (!mc || mc.workchain !== -1 || mc.seqno !== b.mcSeqno) throw new Error(`blocksIndexed: the first block is not masterchain block ${b.mcSeqno}`);
  return create(BlocksIndexedSchema, {
    masterchain: ref(mc),
    shardBlocks: shards.map(ref),
    transactionCount: b.transactions,
    genUtime: b.genUtime,
    lagBlocks: Math.max(0, b.headSeqno - b.mcSeqno),
    lagSeconds: Math.max(0, nowMs / 1000 - b.genUtime),
  });
}

export const encodeBlocksIndexed = (e: BlocksIndexed): Uint8Array => toBinary(BlocksIndexedSchema, e);
export const decodeBlocksIndexed = (data: Uint8Array): BlocksIndexed => fromBinary(BlocksIndexedSchema, data);

/** Waits between attempts to publish while the bus fails: doubling from 100 ms to 2 s. */
const retryDelay = (attempt: number) => Math.min(2000, 100 * 2 ** Math.min(attempt, 5));
/** The published cursor is written at most this often while events flow (and whenever the outbox empties). */
const CURSOR_EVERY_MS = 200;
/** Events kept in memory for publishing; older unpublished ones are rebuilt from the store. */
const MAX_PENDING = 10_000;

export interface PublisherOptions {
  log?: Logger;
  metrics?: { outbox(depth: number, lagSeconds: number): void };
}

/**
 * Publishes the blocks.indexed events of one network on a bus, every masterchain block once and in
 * order, without ever holding indexing up (issue 16): an outbox. The store is the outbox — a block's
 * event is rebuilt from the rows stored with its checkpoint — and the checkpoint `outbox:<subject>`
 * is the last seqno published. `onStored` only records that a block is stored; a loop publishes
 * what follows the cursor, retrying with backoff while the bus fails (NATS down), each with the
 * message id `<subject>:<seqno>` so JetStream drops the re-publish of an event published just
 * before a crash (the cursor trails the publishes by at most CURSOR_EVERY_MS).
 */
export class BlocksIndexedPublisher {
  readonly subject: string;
  /** the last seqno published (undefined: none yet, the first stored block is the first event) */
  private published: number | undefined;
  /** the last seqno stored */
  private stored: number | undefined;
  /** events of stored blocks not yet published, and when each block was stored */
  private readonly pending = new Map<number, BlocksIndexed>();
  private readonly storedAt = new Map<number, number>();
  private running: Promise<void> | undefined;
  private stopped = false;
  private cursorWrittenAt = 0;
  private cursorWritten: number | undefined;
  private failing = false;
  private readonly wake = new Set<() => void>();
  /** since when events have been waiting (undefined: none wait) */
  private behindSince: number | undefined;

  constructor(
    private readonly bus: EventBus,
    network: string,
    private readonly store: Store,
    private readonly o: PublisherOptions = {},
  ) {
    this.subject = blocksIndexedSubject(network);
  }

  /** The checkpoint holding the last seqno published. */
  get cursor(): string {
    return `outbox:${this.subject}`;
  }

  /** Events stored and not yet published. */
  get depth(): number {
    return this.stored === undefined || this.published === undefined ? 0 : Math.max(0, this.stored - this.published);
  }

  /** For IndexRangeOptions/FollowOptions.onStored: records the block; its event is published in the background. */
  readonly onStored = (b: StoredMcBlock): Promise<void> => {
    // a block stored again at or below the cursor is a deliberate re-index: its events go out again
    if (this.published === undefined || b.mcSeqno <= this.published) this.published = b.mcSeqno - 1;
    if (this.pending.size < MAX_PENDING) this.pending.set(b.mcSeqno, blocksIndexed(b));
    if (this.storedAt.size < MAX_PENDING * 10) this.storedAt.set(b.mcSeqno, Date.now());
    this.stored = Math.max(this.stored ?? 0, b.mcSeqno);
    this.kick();
    return Promise.resolve();
  };

  /**
   * Continues from the cursor up to the block under `checkpoint` (events a crash or an outage left
   * unpublished). Without a cursor (an index written before the outbox) the last checkpointed
   * block's event is published again, as before. Returns the checkpointed seqno, or null.
   */
  async resume(checkpoint: string): Promise<number | null> {
    const seqno = await getCheckpoint(this.store, checkpoint);
    if (seqno === null || seqno < 1) return null;
    const cursor = await getCheckpoint(this.store, this.cursor);
    this.published = cursor === null ? seqno - 1 : Math.min(cursor, seqno);
    this.cursorWritten = cursor ?? undefined;
    this.stored = Math.max(this.stored ?? 0, seqno);
    this.kick();
    return seqno;
  }

  /** Resolves once every event stored so far is published (it waits for the bus), or `signal` aborts. */
  async flush(signal?: AbortSignal): Promise<void> {
    while (this.depth > 0 && !this.stopped && !signal?.aborted) {
      await new Promise<void>((r) => {
        this.wake.add(r);
        setTimeout(r, 200).unref();
      });
    }
  }

  /** Stops publishing; the cursor is written. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const w of this.wake) w();
    await this.running;
    await this.writeCursor(true).catch((err: unknown) => this.o.log?.warn({ err }, "blocks.indexed: the outbox cursor was not written"));
  }

  private kick(): void {
    this.report();
    if (this.running || this.stopped) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
      if (this.depth > 0 && !this.stopped) this.kick();
    });
  }

  private async drain(): Promise<void> {
    for (let attempt = 0; this.depth > 0 && !this.stopped; ) {
      const seqno = this.published! + 1;
      try {
        const e = this.pending.get(seqno) ?? (await storedBlocksIndexed(this.store, seqno, this.stored));
        // a block not stored (a range that began above it) has no event
        if (e) await this.bus.publish(this.subject, encodeBlocksIndexed(e), { id: `${this.subject}:${seqno}` });
        this.published = seqno;
        this.pending.delete(seqno);
        this.storedAt.delete(seqno);
        attempt = 0;
        if (this.failing) {
          this.failing = false;
          this.o.log?.info({ subject: this.subject, seqno, pending: this.depth }, "blocks.indexed: publishing again");
        }
        await this.writeCursor(this.depth === 0);
        this.report();
      } catch (err) {
        if (!this.failing) {
          this.failing = true;
          this.o.log?.warn({ err, subject: this.subject, seqno }, "blocks.indexed: the bus does not take events; they wait in the outbox (indexing goes on)");
        }
        this.report();
        await new Promise((r) => setTimeout(r, retryDelay(attempt++)));
      }
    }
    for (const w of this.wake) w();
    this.wake.clear();
  }

  private async writeCursor(now: boolean): Promise<void> {
    if (this.published === undefined || this.published === this.cursorWritten) return;
    if (!now && Date.now() - this.cursorWrittenAt < CURSOR_EVERY_MS) return;
    const seqno = this.published;
    this.cursorWrittenAt = Date.now();
    await setCheckpoint(this.store, this.cursor, seqno);
    this.cursorWritten = seqno;
  }

  private report(): void {
    const depth = this.depth;
    if (depth === 0) this.behindSince = undefined;
    else this.behindSince ??= Date.now();
    const oldest = (this.published === undefined ? undefined : this.storedAt.get(this.published + 1)) ?? this.behindSince;
    this.o.metrics?.outbox(depth, depth > 0 && oldest !== undefined ? (Date.now() - oldest) / 1000 : 0);
  }
}

/** The event of masterchain block `seqno` rebuilt from the store (null when it is not stored). */
export async function storedBlocksIndexed(store: Store, seqno: number, headSeqno = seqno): Promise<BlocksIndexed | null> {
  const rs = await store.client.query({
    query: `SELECT workchain, shard, seqno, root_hash, file_hash, gen_utime, tx_count FROM blocks FINAL
            WHERE (workchain, shard, seqno) IN (SELECT workchain, shard, seqno FROM masterchain_block_shards FINAL WHERE mc_seqno = {n:UInt32})
            ORDER BY workchain, shard, seqno`,
    query_params: { n: seqno },
    format: "JSONEachRow",
  });
  const rows = await rs.json<RefRow & { gen_utime: number; tx_count: number }>();
  const mc = rows.find((r) => r.workchain === -1 && r.seqno === seqno);
  if (!mc) return null;
  const blocks = [mc, ...rows.filter((r) => r !== mc)];
  return blocksIndexed({ blocks: blocks as BlockRow[], transactions: rows.reduce((n, r) => n + Number(r.tx_count), 0), genUtime: mc.gen_utime, mcSeqno: seqno, headSeqno });
}
