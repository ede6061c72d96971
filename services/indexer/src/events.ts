// The indexer's events: `tongate.<network>.blocks.indexed` (tongate.indexer.v1.BlocksIndexed),
// published on the event bus (@tongate/runtime: in process, or NATS JetStream) after each
// masterchain block's rows and checkpoint are stored, through an outbox (BlocksIndexedPublisher):
// indexing never waits for the bus. The message id is `<subject>:<mc seqno>`, so the same block
// published twice (after a crash) is stored once by JetStream.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type BlockRef, BlockRefSchema, type BlocksIndexed, BlocksIndexedSchema } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";
import { type EventBus, subjectToken } from "@tongate/runtime";
import type { StoredMcBlock } from "./follower/index-range.js";
import type { BlockRow } from "./rows/types.js";
import { CheckpointOutbox, type OutboxOptions, type Store } from "@tongate/store";

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

export type PublisherOptions = OutboxOptions;

/**
 * Publishes the blocks.indexed events of one network on a bus, every masterchain block once and in
 * order, without ever holding indexing up: @tongate/store's CheckpointOutbox, whose events are
 * rebuilt from the rows stored with the follower's checkpoint.
 */
export class BlocksIndexedPublisher extends CheckpointOutbox {
  constructor(bus: EventBus, network: string, store: Store, o: PublisherOptions = {}) {
    super(bus, blocksIndexedSubject(network), store, async (seqno, stored) => {
      const e = await storedBlocksIndexed(store, seqno, stored);
      return e && encodeBlocksIndexed(e);
    }, o);
  }

  /** For IndexRangeOptions/FollowOptions.onStored: records the block; its event is published in the background. */
  readonly onStored = (b: StoredMcBlock): Promise<void> => {
    this.stored(b.mcSeqno, encodeBlocksIndexed(blocksIndexed(b)));
    return Promise.resolve();
  };
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
