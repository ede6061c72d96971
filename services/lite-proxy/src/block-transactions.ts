// The transactions of one block in (account, lt) order, as listBlockTransactions(Ext) pages them (at most
// 256 per answer): `count` of them after an optional (account, lt) cursor, with whether more follow. Every
// answer carries a Merkle proof of the block's account blocks (want_proof), checked against the block id.
import type { Cell } from "@ton/core";
import { verifyBlockTransactions, verifyBlockTransactionsExt } from "@tongate/proof";
import { blockName, orNotFound } from "./block-lookup.js";
import { tlBlockId, type BlockIdExt } from "@tongate/liteclient";
import { verified } from "./chain.js";
import type { PoolSession } from "@tongate/liteclient";

/** A position in a block's listing: strictly after this account's transaction at this lt. */
export interface TxPosition {
  account: Buffer;
  lt: bigint;
}

export interface BlockTxId extends TxPosition {
  hash: Buffer;
  /** The liteserver's liteServer.transactionId mode (which fields it filled). */
  mode: number;
}

export interface BlockTx extends TxPosition {
  hash: Buffer;
  cell: Cell;
}

const PAGE = 256;
const FIELDS = 7; // mode bits 0-2: account, lt, hash
const WANT_PROOF = 32;
const AFTER = 128;

/** Fetches pages until `count` items are listed or the block has no more. */
async function listing<T extends TxPosition>(count: number, after: TxPosition | undefined, page: (n: number, after?: TxPosition) => Promise<{ items: T[]; incomplete: boolean }>) {
  const items: T[] = [];
  let incomplete = true;
  while (items.length < count && incomplete) {
    const p = await page(Math.min(PAGE, count - items.length), after);
    items.push(...p.items);
    incomplete = p.incomplete;
    if (p.items.length === 0) break;
    after = p.items.at(-1);
  }
  return { items, incomplete };
}

const query = <K extends "liteServer.listBlockTransactions" | "liteServer.listBlockTransactionsExt">(kind: K, id: BlockIdExt, n: number, after?: TxPosition) => ({
  kind,
  id: tlBlockId(id),
  mode: FIELDS | WANT_PROOF | (after ? AFTER : 0),
  count: n,
  after: after ? { kind: "liteServer.transactionId3" as const, account: after.account, lt: after.lt } : undefined,
  want_proof: true,
});

/** Short ids (account, lt, hash) of the block's transactions. */
export function blockTransactionIds(s: PoolSession, method: string, id: BlockIdExt, count: number, after?: TxPosition): Promise<{ items: BlockTxId[]; incomplete: boolean }> {
  return listing(count, after, async (n, a) => {
    const answer = (await orNotFound(s.query(query("liteServer.listBlockTransactions", id, n, a)), `block ${blockName(id)}`));
    const v = verified(method, () => verifyBlockTransactions(answer, id, { after: a }));
    // Without want_proof, which tonlib does not ask for: the mode toncenter shows (7, or 135 after a cursor).
    return { items: v.ids.map((t, i) => ({ ...t, mode: answer.ids[i]!.mode & ~WANT_PROOF })), incomplete: v.incomplete };
  });
}

/** The block's transactions, whole. */
export function blockTransactions(s: PoolSession, method: string, id: BlockIdExt, count: number, after?: TxPosition): Promise<{ items: BlockTx[]; incomplete: boolean }> {
  return listing(count, after, async (n, a) => {
    const answer = await orNotFound(s.query(query("liteServer.listBlockTransactionsExt", id, n, a)), `block ${blockName(id)}`);
    const v = verified(method, () => verifyBlockTransactionsExt(answer, id, { after: a }));
    return { items: v.transactions, incomplete: v.incomplete };
  });
}
