// Time, version, masterchain info, blocks and their headers, lookups, shards of a masterchain
// block, sending messages and account transactions.
import { beginCell } from "@ton/core";
import type { TxRecord } from "../chain/account-history.js";
import type { BlockRecord } from "../chain/chain.js";
import { unpackBlock, unpackBlockExtra, unpackMcBlockExtra, Usage } from "./cells.js";
import { type Ctx, blockHeaderProof, boc, blockName, fatal, multiBoc, tlBlockId, tlId, unsignedShard, type TlAccountId, type TlBlockId, type TlBlockIdShort } from "./context.js";
import type { LiteHandler } from "./dispatch.js";
import { notInDb } from "./errors.js";

export const LITESERVER_VERSION = 0x101;
export const LITESERVER_CAPABILITIES = 7n;

/**
 * get_block_by_seqno / _by_lt / _by_unix_time for lookupBlock(WithProof): mode 1 seqno, 2 the first block
 * ending at or after lt, 4 the first block generated at or after utime.
 */
export function lookupBlockRecord(ctx: Ctx, mode: number, id: TlBlockIdShort, lt: bigint | undefined, utime: number | undefined): BlockRecord {
  if (!((1 << (mode & 7)) & 0x16)) throw fatal("exactly one of mode.0, mode.1 and mode.2 bits must be set");
  const rec = mode & 1 ? ctx.blockBySeqno(id.workchain, unsignedShard(id.shard), id.seqno) : ctx.blockByLtOrUtime(id.workchain, unsignedShard(id.shard), mode & 2 ? { lt: lt! } : { utime: utime! });
  if (!rec) throw notInDb(mode & 1 ? blockName(id) : `block of workchain ${id.workchain} with ${mode & 2 ? `lt ${lt}` : `utime ${utime}`}`);
  return rec;
}

export function coreHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const { chain } = ctx;
  const zero = () => ({ kind: "tonNode.zeroStateIdExt", workchain: -1, root_hash: chain.mcZero.rootHash, file_hash: chain.mcZero.fileHash });
  const blockOfTx = (t: TxRecord) => {
    const b = chain.block(t.block);
    if (!b) throw notInDb(blockName(t.block));
    return tlBlockId(b.id);
  };

  return {
    "liteServer.getTime": () => ({ kind: "liteServer.currentTime", now: ctx.clock() }),

    "liteServer.getVersion": () => ({ kind: "liteServer.version", mode: 0, version: LITESERVER_VERSION, capabilities: LITESERVER_CAPABILITIES, now: ctx.clock() }),

    "liteServer.getMasterchainInfo": () => {
      const b = ctx.last();
      return { kind: "liteServer.masterchainInfo", last: tlId(b), state_root_hash: b.meta.stateHash, init: zero() };
    },

    "liteServer.getMasterchainInfoExt": (q) => {
      const b = ctx.last();
      return {
        kind: "liteServer.masterchainInfoExt",
        mode: q.mode as number,
        version: LITESERVER_VERSION,
        capabilities: LITESERVER_CAPABILITIES,
        last: tlId(b),
        last_utime: b.genUtime,
        now: ctx.clock(),
        state_root_hash: b.meta.stateHash,
        init: zero(),
      };
    },

    "liteServer.getBlock": (q) => {
      const rec = ctx.findBlock(q.id as TlBlockId);
      return { kind: "liteServer.blockData", id: tlId(rec), data: rec.boc };
    },

    "liteServer.getBlockHeader": (q) => {
      const rec = ctx.findBlock(q.id as TlBlockId);
      return { kind: "liteServer.blockHeader", id: tlId(rec), mode: q.mode as number, header_proof: boc(blockHeaderProof(ctx, rec)) };
    },

    "liteServer.lookupBlock": (q) => {
      const mode = q.mode as number;
      const rec = lookupBlockRecord(ctx, mode, q.id as TlBlockIdShort, q.lt as bigint | undefined, q.utime as number | undefined);
      return { kind: "liteServer.blockHeader", id: tlId(rec), mode, header_proof: boc(blockHeaderProof(ctx, rec)) };
    },

    "liteServer.getAllShardsInfo": (q) => {
      const mc = ctx.mcBlock(q.id as TlBlockId);
      // The proof reaches McBlockExtra (whose shard_hashes the data is); the data is that HashmapE 32
      // ^(BinTree ShardDescr) in a cell of its own.
      const u = new Usage(mc.root);
      const extra = unpackBlockExtra(u, unpackBlock(u, mc.root).extra);
      const shardHashes = unpackMcBlockExtra(u, extra.custom!).shardHashes;
      const data = beginCell().storeMaybeRef(shardHashes).endCell();
      return { kind: "liteServer.allShardsInfo", id: tlId(mc), proof: boc(u.proof()), data: boc(data) };
    },

    "liteServer.sendMessage": async (q) => {
      await chain.sendExternal(q.body as Buffer);
      return { kind: "liteServer.sendMsgStatus", status: 1 };
    },

    "liteServer.getTransactions": (q) => {
      const acc = q.account as TlAccountId;
      if (acc.workchain === -0x80000000) throw fatal("invalid workchain specified");
      const first = chain.transaction(acc.workchain, acc.id, q.lt as bigint);
      if (!first || !first.hash.equals(q.hash as Buffer)) throw notInDb(`transaction ${q.lt} of account ${acc.workchain}:${acc.id.toString("hex")}`);
      const txs = chain.transactionsFrom(acc.workchain, acc.id, q.lt as bigint, Math.min(Math.max(q.count as number, 1), 16));
      return { kind: "liteServer.transactionList", ids: txs.map(blockOfTx), transactions: multiBoc(txs.map((t) => t.cell)) };
    },
  };
}
