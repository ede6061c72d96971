// The indexer's events: `tongate.<network>.blocks.indexed` (tongate.indexer.v1.BlocksIndexed),
// published on the event bus (@tongate/runtime: in process, or NATS JetStream) after each
// masterchain block's rows and checkpoint are stored. The message id is `<subject>:<mc seqno>`,
// so the same block published twice (re-published at start, see republishLast) is stored once
// by JetStream.
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { type BlockRef, BlockRefSchema, type BlocksIndexed, BlocksIndexedSchema } from "@tongate/proto/gen/tongate/indexer/v1/events_pb.js";
import { type EventBus, subjectToken } from "@tongate/runtime";
import type { StoredMcBlock } from "./follower/index-range.js";
import type { BlockRow } from "./rows/types.js";
import { getCheckpoint } from "./store/insert.js";
import type { Store } from "./store/store.js";

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

/**
 * Publishes the blocks.indexed events of one network on a bus, every masterchain block once and in
 * order: a block whose predecessors' events were not published (a publish that failed, a crash
 * between the checkpoint and the publish) has them published first, rebuilt from the store.
 */
export class BlocksIndexedPublisher {
  readonly subject: string;
  /** the last seqno published (undefined: none yet) */
  private last: number | undefined;

  constructor(
    private readonly bus: EventBus,
    network: string,
    private readonly store: Store,
  ) {
    this.subject = blocksIndexedSubject(network);
  }

  private async send(e: BlocksIndexed): Promise<void> {
    const seqno = e.masterchain!.seqno;
    await this.bus.publish(this.subject, encodeBlocksIndexed(e), { id: `${this.subject}:${seqno}` });
    this.last = seqno;
  }

  /** For IndexRangeOptions/FollowOptions.onStored. */
  readonly onStored = async (b: StoredMcBlock): Promise<void> => {
    if (this.last !== undefined) {
      for (let seqno = this.last + 1; seqno < b.mcSeqno; seqno++) {
        const e = await storedBlocksIndexed(this.store, seqno, b.headSeqno);
        if (e) await this.send(e);
      }
    }
    await this.send(blocksIndexed(b));
  };

  /**
   * Publishes the event of the last checkpointed block again, from the store (a crash may have
   * come between its checkpoint and its publish; JetStream drops it if it was published), and
   * continues from there. Returns its seqno, or null without a checkpoint.
   */
  async republishLast(checkpoint: string, headSeqno?: number): Promise<number | null> {
    const seqno = await getCheckpoint(this.store, checkpoint);
    if (seqno === null || seqno < 1) return null;
    const e = await storedBlocksIndexed(this.store, seqno, headSeqno);
    if (e) await this.send(e);
    return seqno;
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
