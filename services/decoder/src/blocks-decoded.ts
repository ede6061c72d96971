// The decoder's event: `tongate.<network>.blocks.decoded` (tongate.decoder.v1.BlocksDecoded) after
// each masterchain block's decoded rows, actions and checkpoint are stored — the traces the block
// completed or classified again, and the jetton wallets whose state it changed — through the
// store's CheckpointOutbox (cursor `outbox:<subject>`, message id `<subject>:<mc seqno>`): the
// decoder never waits for the bus, and an event a crash left unpublished is rebuilt from the rows.
import { create, toBinary } from "@bufbuild/protobuf";
import { type BlocksDecoded, BlocksDecodedSchema } from "@tongate/proto/gen/tongate/decoder/v1/events_pb.js";
import { blocksDecodedSubject } from "@tongate/proto/subjects.js";
import type { EventBus } from "@tongate/runtime";
import { CheckpointOutbox, DECODER_CHECKPOINT, type OutboxOptions, select, type Store } from "@tongate/store";

const sorted = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

export function blocksDecoded(mcSeqno: number, genUtime: number, traceIds: Iterable<string>, jettonWallets: Iterable<string>): BlocksDecoded {
  return create(BlocksDecodedSchema, { mcSeqno, genUtime, traceIds: sorted(traceIds), jettonWallets: sorted(jettonWallets) });
}

export const encodeBlocksDecoded = (e: BlocksDecoded): Uint8Array => toBinary(BlocksDecodedSchema, e);

/** The event of block `mcSeqno` rebuilt from the decoder's rows (null: the indexer has no such block). */
export async function storedBlocksDecoded(store: Store, mcSeqno: number): Promise<BlocksDecoded | null> {
  const [block] = await select<{ gen_utime: number }>(store, "SELECT gen_utime FROM blocks FINAL WHERE workchain = -1 AND seqno = {n:UInt32} LIMIT 1", { n: mcSeqno });
  if (!block) return null;
  const [traces, wallets] = await Promise.all([
    select<{ trace_id: string }>(store, "SELECT DISTINCT trace_id FROM trace_classifications WHERE version = {n:UInt32}", { n: mcSeqno }),
    select<{ address: string }>(store, "SELECT DISTINCT address FROM jetton_wallets WHERE mc_seqno = {n:UInt32}", { n: mcSeqno }),
  ]);
  return blocksDecoded(mcSeqno, Number(block.gen_utime), traces.map((t) => t.trace_id), wallets.map((w) => w.address));
}

/** Publishes blocks.decoded, every decoded block once and in order (a CheckpointOutbox). */
export class BlocksDecodedPublisher extends CheckpointOutbox {
  constructor(
    bus: EventBus,
    network: string,
    private readonly rows: Store,
    o: OutboxOptions = {},
  ) {
    super(
      bus,
      blocksDecodedSubject(network),
      rows,
      async (seqno) => {
        const e = await storedBlocksDecoded(rows, seqno);
        return e && encodeBlocksDecoded(e);
      },
      o,
    );
  }

  /**
   * Block `mcSeqno` is decoded and checkpointed: its event, from what the decoder has at hand (the
   * block's time read from the store; without it the event is rebuilt from the rows when it is sent).
   */
  async decoded(mcSeqno: number, traceIds: readonly string[], jettonWallets: readonly string[]): Promise<void> {
    const [block] = await select<{ gen_utime: number }>(this.rows, "SELECT gen_utime FROM blocks FINAL WHERE workchain = -1 AND seqno = {n:UInt32} LIMIT 1", { n: mcSeqno }).catch(() => []);
    this.stored(mcSeqno, block ? encodeBlocksDecoded(blocksDecoded(mcSeqno, Number(block.gen_utime), traceIds, jettonWallets)) : undefined);
  }

  /** Continues from the cursor up to the decoder's checkpoint (what a crash or an outage left unpublished). */
  resumeDecoded(): Promise<number | null> {
    return this.resume(DECODER_CHECKPOINT);
  }
}
