// Block → index rows: pure functions from a block BoC to the rows the store inserts (./types.ts).
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import { shardIdOf } from "@tongate/block";
import { accountStateRows, setTransactionStates } from "./account-state.js";
import { blockRow, signedShard } from "./block.js";
import { readBlock } from "./block-view.js";
import { cellsFromBoc } from "./boc.js";
import { masterchainShards, type ShardTopRow } from "./shards.js";
import { transactionRows } from "./transaction.js";
import type { BlockRows, MessageContentRow, PartialBocs } from "./types.js";

export * from "./types.js";
export { blockRow, prevBlocks, signedShard } from "./block.js";
export { readBlock, type BlockView, type AccountBlockView } from "./block-view.js";
export { transactionRows, describe, type TransactionContext } from "./transaction.js";
export { cellsFromBoc } from "./boc.js";
export { masterchainShards, type ShardTopRow } from "./shards.js";
export { TraceAssembler, type TraceBatch } from "./trace.js";
export { accountRow, accountStateRows, type AccountStateBase } from "./account-state.js";
export { messageRow, parseMessageCell, transactionMessageCells, bodyOpcode } from "./message.js";

export interface BlockRowsContext {
  /** masterchain seqno that commits the block (a masterchain block's own seqno is used for it) */
  mcSeqno: number;
  /** file hash when the BoC is not the block file as the liteserver serves it (default: sha256 of the BoC) */
  fileHash?: Buffer;
  /**
   * The block's id from the (verified) masterchain: the BoC must hash to its file_hash, and then its
   * root_hash is the block's without rehashing the tree. Sound: a BlockIdExt names both hashes
   * (validators sign root_hash and file_hash together), and the file hash is the SHA-256 of exactly
   * these bytes, which determine every cell; a BoC of another tree would need a SHA-256 collision.
   * Without it the root hash is computed from every cell (the whole state update included).
   */
  id?: { root_hash: Buffer; file_hash: Buffer };
  /** BoC reader (default: cellsFromBoc, the lazy reader of ./boc.ts) */
  parseBoc?: (boc: Buffer) => Cell[];
  /** when given, filled with each message body's cell by its hash (for rendering: ../store/key-index/render.ts) */
  bodyCells?: Map<string, Cell>;
}

/** blockRows and, for a masterchain block, its shard tops ([] for a shard block). */
export function blockRowsAndTops(blockBoc: Buffer, ctx: BlockRowsContext): { rows: BlockRows; tops: ShardTopRow[] } {
  const fileHash = createHash("sha256").update(blockBoc).digest();
  if (ctx.id && !fileHash.equals(ctx.id.file_hash)) throw new Error(`block BoC: file hash ${fileHash.toString("hex")} differs from the block id's`);
  // the file hash of the id vouches for every byte: the BoC's CRC would check nothing more
  const root = (ctx.parseBoc ?? ((boc: Buffer) => cellsFromBoc(boc, { checkCrc: !ctx.id })))(blockBoc)[0];
  const block = readBlock(root);
  const info = block.info;
  const workchain = info.shard.workchainId;
  const ref = { workchain, shard: signedShard(shardIdOf(info.shard)), seqno: info.seqNo };
  const mcSeqno = info.notMaster ? ctx.mcSeqno : info.seqNo;

  const rows: BlockRows = { blocks: [], transactions: [], messages: [], contents: [], accountStates: [] };
  const contents = new Map<string, MessageContentRow>();
  for (const ab of block.accountBlocks) {
    for (const tx of ab.transactions) {
      const r = transactionRows(tx, { block: ref, mcSeqno, bodyCells: ctx.bodyCells });
      rows.transactions.push(r.transaction);
      for (const m of r.messages) rows.messages.push(m);
      for (const c of r.contents) contents.set(c.hash, c);
    }
  }
  rows.contents = [...contents.values()];
  rows.blocks.push(
    blockRow(block, {
      mcSeqno,
      rootHash: ctx.id ? ctx.id.root_hash : root.hash(),
      fileHash: ctx.fileHash ?? fileHash,
      txCount: rows.transactions.length,
    }),
  );
  const partials: PartialBocs[] = [];
  rows.accountStates = accountStateRows(block, rows.transactions, partials);
  if (partials.length) rows.partialBocs = partials;
  setTransactionStates(block, rows.transactions, rows.accountStates);
  return { rows, tops: masterchainShards(block) };
}

/**
 * Rows of one block: the block, its transactions ordered by (account, lt), their in/out messages,
 * message bodies / StateInits once by hash, and the account states the block alone determines.
 */
export function blockRows(blockBoc: Buffer, ctx: BlockRowsContext): BlockRows {
  return blockRowsAndTops(blockBoc, ctx).rows;
}
