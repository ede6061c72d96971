// Message queues: getOutMsgQueueSizes, getBlockOutMsgQueueSize, getDispatchQueueInfo,
// getDispatchQueueMessages, and nonfinal.getPendingShardBlocks. localnet delivers every message within
// the blocks that emit it, so its queues are empty; the answers still read the real OutMsgQueueInfo of
// the states (and prove it when asked). Pending shard blocks are those of a seal's pending window.
import { type Cell, type Slice } from "@ton/core";
import { loadMsgEnvelope, loadOutMsgQueueInfo, SHARD_FULL, shardHashesList, shardIntersects } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import { cellEdge, dictExtreme, type DictEntry, dictNearest, unpackState, Usage } from "./cells.js";
import { type Ctx, fatal, isValidFull, multiBoc, stateRootProof, tlId, unsignedShard, WORKCHAIN_INVALID, type TlBlockId } from "./context.js";
import type { LiteHandler } from "./dispatch.js";

/** Collator::get_skip_externals_queue_size(): above this queue size the collator skips external messages. */
export const SKIP_EXTERNALS_QUEUE_SIZE = 8000;

interface QueueParts {
  u: Usage;
  /** out_msg_queue_extra, if the state has it. */
  extra: { dispatchQueue: Cell | null; outQueueSize: bigint | null } | null;
}

/** A state's OutMsgQueueInfo, read through `u`: _ out_queue proc_info extra:(Maybe OutMsgQueueExtra). */
function readQueueInfo(rec: BlockRecord): QueueParts {
  const u = new Usage(rec.stateRoot);
  const s = u.load(unpackState(u, rec.stateRoot).outMsgQueueInfo);
  s.loadMaybeRef(); // out_queue: HashmapAugE 352 EnqueuedMsg uint64
  s.skip(64);
  s.loadMaybeRef(); // proc_info: HashmapE 96 ProcessedUpto
  if (!s.loadBit()) return { u, extra: null };
  if (s.loadUint(4) !== 0) throw fatal("cannot unpack OutMsgQueueExtra");
  const dispatchQueue = s.loadMaybeRef(); // HashmapAugE 256 AccountDispatchQueue uint64
  s.skip(64);
  return { u, extra: { dispatchQueue, outQueueSize: s.loadBit() ? s.loadUintBig(48) : null } };
}

/** _ messages:(HashmapE 64 EnqueuedMsg) count:uint48 = AccountDispatchQueue (after the uint64 extra of its leaf). */
function accountQueue(v: Slice): { messages: Cell | null; count: bigint } {
  v.skip(64);
  return { messages: v.loadMaybeRef(), count: v.loadUintBig(48) };
}

/** mode.0 ? wc shard: whether a block of (wc, shard) is asked for (every block without mode.0). */
function shardFilter(q: TlObject): (wc: number, shard: bigint) => boolean {
  if (((q.mode as number) & 1) === 0) return () => true;
  const filter = { wc: q.wc as number, shard: unsignedShard(q.shard as bigint) };
  return (wc, shard) => {
    if (filter.wc !== wc || filter.wc === WORKCHAIN_INVALID) return false;
    try {
      return shardIntersects(filter.shard, shard);
    } catch {
      return false; // not a shard id
    }
  };
}

const requireBlock = (ctx: Ctx, id: TlBlockId) => {
  if (!isValidFull(id)) throw fatal("invalid BlockIdExt");
  return ctx.findBlock(id);
};

const proofOf = (ctx: Ctx, rec: BlockRecord, q: QueueParts) => multiBoc([stateRootProof(ctx, rec), q.u.proof()]);

export function queueHandlers(ctx: Ctx): Record<string, LiteHandler> {
  return {
    "liteServer.getOutMsgQueueSizes": (q) => {
      const matches = shardFilter(q);
      const last = ctx.last();
      const blocks: BlockRecord[] = [];
      if (matches(-1, SHARD_FULL)) blocks.push(last);
      for (const s of shardHashesList(last.block.extra.custom!.shardHashes)) {
        if (!matches(s.workchainId, s.shard)) continue;
        const top = ctx.findBlock({ workchain: s.workchainId, shard: s.shard, seqno: s.descr.seqNo, root_hash: s.descr.rootHash, file_hash: s.descr.fileHash });
        blocks.push(top);
      }
      return {
        kind: "liteServer.outMsgQueueSizes",
        shards: blocks.map((b) => ({
          kind: "liteServer.outMsgQueueSize",
          id: tlId(b),
          size: loadOutMsgQueueInfo(b.stateRoot.refs[0]!.beginParse()).outQueue.size,
        })),
        ext_msg_queue_size_limit: SKIP_EXTERNALS_QUEUE_SIZE,
      };
    },

    "liteServer.getBlockOutMsgQueueSize": (q) => {
      const mode = q.mode as number;
      const rec = requireBlock(ctx, q.id as TlBlockId);
      const parts = readQueueInfo(rec);
      if (!parts.extra || parts.extra.outQueueSize === null) throw fatal("no out_msg_queue_size in shard state");
      return {
        kind: "liteServer.blockOutMsgQueueSize",
        mode,
        id: tlId(rec),
        size: parts.extra.outQueueSize,
        ...(mode & 1 ? { proof: proofOf(ctx, rec, parts) } : {}),
      };
    },

    "liteServer.getDispatchQueueInfo": (q) => {
      const mode = q.mode as number;
      const rec = requireBlock(ctx, q.id as TlBlockId);
      if ((q.max_accounts as number) <= 0) throw fatal("invalid max_accounts");
      const parts = readQueueInfo(rec);
      const { u } = parts;
      const root = parts.extra?.dispatchQueue ?? null;
      let remaining = Math.min(q.max_accounts as number, 64);
      let allowEq = (mode & 2) === 0;
      let key = mode & 2 ? BigInt("0x" + (q.after_addr as Buffer).toString("hex")) : 0n;
      let complete = false;
      const queues: TlObject[] = [];
      for (;;) {
        const v: DictEntry | null = root ? dictNearest(u, cellEdge(u, root), 256, key, true, allowEq) : null;
        allowEq = false;
        if (!v) {
          complete = true;
          break;
        }
        if (remaining === 0) break;
        remaining--;
        key = v.key;
        const aq = accountQueue(v.value);
        const min = aq.messages ? dictExtreme(u, cellEdge(u, aq.messages), 64, true).key : 0n;
        const max = aq.messages ? dictExtreme(u, cellEdge(u, aq.messages), 64, false).key : 0n;
        queues.push({ kind: "liteServer.accountDispatchQueueInfo", addr: Buffer.from(key.toString(16).padStart(64, "0"), "hex"), size: aq.count, min_lt: min, max_lt: max });
      }
      return {
        kind: "liteServer.dispatchQueueInfo",
        mode,
        id: tlId(rec),
        account_dispatch_queues: queues,
        complete,
        ...(mode & 1 ? { proof: proofOf(ctx, rec, parts) } : {}),
      };
    },

    "liteServer.getDispatchQueueMessages": (q) => {
      const mode = q.mode as number;
      const rec = requireBlock(ctx, q.id as TlBlockId);
      if ((q.max_messages as number) <= 0) throw fatal("invalid max_messages");
      const oneAccount = (mode & 2) !== 0;
      const withBoc = (mode & 4) !== 0;
      const parts = readQueueInfo(rec);
      const { u } = parts;
      const root = parts.extra?.dispatchQueue ?? null;
      const orig = BigInt("0x" + (q.addr as Buffer).toString("hex"));
      let addr = orig;
      let lt = BigInt.asUintN(64, (q.after_lt as bigint) < 0n ? 0n : (q.after_lt as bigint));
      let remaining = Math.min(q.max_messages as number, withBoc ? 16 : 64);
      let complete = false;
      let first = true;
      const messages: TlObject[] = [];
      const cells: Cell[] = [];
      while (remaining > 0) {
        const v = root ? dictNearest(u, cellEdge(u, root), 256, addr, true, first) : null;
        if (!v || (oneAccount && v.key !== orig)) {
          complete = true;
          break;
        }
        addr = v.key;
        const aq = accountQueue(v.value);
        for (;;) {
          const m = aq.messages ? dictNearest(u, cellEdge(u, aq.messages), 64, lt, true, false) : null;
          if (!m) break;
          lt = m.key;
          if (remaining === 0) break;
          remaining--;
          m.value.skip(64); // EnqueuedMsg: enqueued_lt, then ^MsgEnvelope
          const env = loadMsgEnvelope(u.load(m.value.loadRef()));
          cells.push(env.msg);
          const md = env.metadata;
          messages.push({
            kind: "liteServer.dispatchQueueMessage",
            addr: Buffer.from(addr.toString(16).padStart(64, "0"), "hex"),
            lt,
            hash: env.msg.hash(),
            metadata: md
              ? { kind: "liteServer.transactionMetadata", mode: 0, depth: md.depth, initiator: { kind: "liteServer.accountId", workchain: md.initiatorAddr.workChain, id: md.initiatorAddr.hash }, initiator_lt: md.initiatorLt }
              : { kind: "liteServer.transactionMetadata", mode: 0, depth: -1, initiator: { kind: "liteServer.accountId", workchain: WORKCHAIN_INVALID, id: Buffer.alloc(32) }, initiator_lt: -1n },
          });
        }
        first = false;
        lt = 0n;
      }
      return {
        kind: "liteServer.dispatchQueueMessages",
        mode,
        id: tlId(rec),
        messages,
        complete,
        ...(mode & 1 ? { proof: proofOf(ctx, rec, parts) } : {}),
        ...(withBoc ? { messages_boc: multiBoc(cells) } : {}),
      };
    },

    // The shard blocks a seal serves during its pending window (signed, not committed yet); localnet
    // has one validator, so no block is ever a candidate collecting signatures.
    "liteServer.nonfinal.getPendingShardBlocks": (q) => {
      const matches = shardFilter(q);
      return {
        kind: "liteServer.nonfinal.pendingShardBlocks",
        signed_blocks: ctx.chain.pendingShardBlocks.filter((b) => matches(b.id.workchain, b.id.shard)).map(tlId),
        candidates: [],
      };
    },
  };
}
