// Block → index rows: pure functions from a block BoC to the rows the store inserts (./types.ts).
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import { parseBlock, shardIdOf } from "@tongate/block";
import { accountStateRows } from "./account-state.js";
import { blockRow, signedShard } from "./block.js";
import { cellsFromBoc } from "./boc.js";
import { transactionRows } from "./transaction.js";
import type { BlockRows, MessageContentRow } from "./types.js";

export * from "./types.js";
export { blockRow, prevBlocks, signedShard } from "./block.js";
export { transactionRows, describe, type TransactionContext } from "./transaction.js";
export { cellsFromBoc } from "./boc.js";
export { masterchainShards, type ShardTopRow } from "./shards.js";
export { TraceAssembler, type TraceBatch } from "./trace.js";
export { accountRow, accountStateRows, type AccountStateBase } from "./account-state.js";
export { messageRow, parseMessageCell, transactionMessageCells, normalizedExternalHash, bodyOpcode } from "./message.js";

export interface BlockRowsContext {
  /** masterchain seqno that commits the block (a masterchain block's own seqno is used for it) */
  mcSeqno: number;
  /** file hash when the BoC is not the block file as the liteserver serves it (default: sha256 of the BoC) */
  fileHash?: Buffer;
  /** BoC reader (default: cellsFromBoc, the fast reader of ./boc.ts) */
  parseBoc?: (boc: Buffer) => Cell[];
}

/**
 * Rows of one block: the block, its transactions ordered by (account, lt), their in/out messages,
 * message bodies / StateInits once by hash, and the account states the block alone determines.
 */
export function blockRows(blockBoc: Buffer, ctx: BlockRowsContext): BlockRows {
  const root = (ctx.parseBoc ?? cellsFromBoc)(blockBoc)[0];
  const block = parseBlock(root);
  const info = block.info;
  const workchain = info.shard.workchainId;
  const ref = { workchain, shard: signedShard(shardIdOf(info.shard)), seqno: info.seqNo };
  const mcSeqno = info.notMaster ? ctx.mcSeqno : info.seqNo;

  const rows: BlockRows = { blocks: [], transactions: [], messages: [], contents: [], accountStates: [] };
  const contents = new Map<string, MessageContentRow>();
  const accounts = [...block.extra.accountBlocks.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of accounts) {
    const ab = block.extra.accountBlocks.get(key)!.value;
    const lts = [...ab.transactions.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const lt of lts) {
      const tx = ab.transactions.get(lt)!.value;
      const r = transactionRows(tx.raw, { block: ref, mcSeqno }, tx);
      rows.transactions.push(r.transaction);
      rows.messages.push(...r.messages);
      for (const c of r.contents) contents.set(c.hash, c);
    }
  }
  rows.contents = [...contents.values()];
  rows.blocks.push(
    blockRow(block, {
      mcSeqno,
      rootHash: root.hash(),
      fileHash: ctx.fileHash ?? createHash("sha256").update(blockBoc).digest(),
      txCount: rows.transactions.length,
    }),
  );
  rows.accountStates = accountStateRows(block, rows.transactions);
  return rows;
}
