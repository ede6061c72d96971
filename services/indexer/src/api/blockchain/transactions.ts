// /transactions, /transactionsByMasterchainBlock, /transactionsByMessage, /adjacentTransactions, and
// the store's plain reads of an account's history and of a transaction by hash.
import { create } from "@bufbuild/protobuf";
import {
  type AdjacentTransactionsRequest,
  type GetTransactionsRequest,
  type TransactionsByMasterchainBlockRequest,
  type TransactionsByMessageRequest,
  type TransactionsResponse,
  TransactionsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { apiError } from "@tongate/runtime";
import type { MessageRow } from "../../rows/types.js";
import { b64Hash, DEFAULT_LIMIT, isAsc, nextCursor, opcodeOf, type Page, pageOf, rawAddress, signedShardOf } from "../params.js";
import { select, type Store, type StoredTransaction, Where } from "../sql.js";
import { transactionOf } from "./models.js";
import { transactionParts } from "./parts.js";

/** Full transaction objects for stored rows (the book step adds the address book). */
export async function transactionsResponse(store: Store, txs: readonly StoredTransaction[], cursor?: string): Promise<TransactionsResponse> {
  const parts = await transactionParts(store, txs);
  return create(TransactionsResponseSchema, { transactions: txs.map((t) => transactionOf(t, parts)), nextCursor: cursor });
}

/**
 * One page of transactions in (lt, account) order — lt {sort} then account ascending, as toncenter;
 * (lt, account) is unique, so pages neither repeat nor skip rows.
 */
async function page(store: Store, w: Where, asc: boolean, p: Page, endpoint: string): Promise<TransactionsResponse> {
  if (p.after) {
    const [lt, account] = p.after;
    w.add(`(lt ${asc ? ">" : "<"} {} OR (lt = {} AND account > {}))`, ["UInt64", lt], ["UInt64", lt], ["String", account]);
  }
  const txs = await select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL ${w.sql} ORDER BY lt ${asc ? "ASC" : "DESC"}, account ASC
     LIMIT ${w.param("UInt32", p.limit)} OFFSET ${w.param("UInt32", p.offset)}`,
    w.params,
  );
  return transactionsResponse(store, txs, nextCursor(endpoint, asc, p, txs, (t) => [t.lt, t.account]));
}

const TX_KEY = ["string", "string"] as const;

export async function transactions(store: Store, req: GetTransactionsRequest): Promise<TransactionsResponse> {
  const asc = isAsc(req.sort);
  const p = pageOf("transactions", asc, req, TX_KEY);
  const w = new Where();
  // one account: an equality, which ClickHouse turns into a primary-key range even with FINAL
  if (req.account.length === 1) w.add("account = {}", ["String", rawAddress(req.account[0]!)]);
  else if (req.account.length) w.add("account IN {}", ["Array(String)", req.account.map(rawAddress)]);
  if (req.excludeAccount.length) w.add("account NOT IN {}", ["Array(String)", req.excludeAccount.map(rawAddress)]);
  if (req.hash !== undefined) w.add("(account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash = {})", ["String", b64Hash(req.hash)]);
  if (req.lt !== undefined) w.add("lt = {}", ["UInt64", String(req.lt)]);
  if (req.startLt !== undefined) w.add("lt >= {}", ["UInt64", String(req.startLt)]);
  if (req.endLt !== undefined) w.add("lt <= {}", ["UInt64", String(req.endLt)]);
  if (req.startUtime !== undefined) w.add("now >= {}", ["UInt32", req.startUtime]);
  if (req.endUtime !== undefined) w.add("now <= {}", ["UInt32", req.endUtime]);
  if (req.workchain !== undefined) w.add("block_workchain = {}", ["Int32", req.workchain]);
  if (req.shard !== undefined) w.add("block_shard = {}", ["Int64", signedShardOf("shard", req.shard)]);
  if (req.seqno !== undefined) w.add("block_seqno = {}", ["UInt32", req.seqno]);
  if (req.mcSeqno !== undefined) {
    w.add("(account, lt) IN (SELECT account, lt FROM transactions_by_block FINAL WHERE mc_seqno = {})", ["UInt32", req.mcSeqno]);
  }
  return page(store, w, asc, p, "transactions");
}

export async function transactionsByMasterchainBlock(store: Store, req: TransactionsByMasterchainBlockRequest): Promise<TransactionsResponse> {
  const asc = isAsc(req.sort);
  const p = pageOf("transactionsByMasterchainBlock", asc, req, TX_KEY);
  const known = await select<{ n: string }>(store, "SELECT count() AS n FROM masterchain_block_shards FINAL WHERE mc_seqno = {mc:UInt32}", { mc: req.seqno });
  if (Number(known[0]?.n ?? 0) === 0) throw apiError(404, `masterchain block ${req.seqno} is not indexed`);
  const w = new Where().add("(account, lt) IN (SELECT account, lt FROM transactions_by_block FINAL WHERE mc_seqno = {})", ["UInt32", req.seqno]);
  return page(store, w, asc, p, "transactionsByMasterchainBlock");
}

/** Transactions that received (in) or sent (out) the message; msg_hash also matches the TEP-467 normalised hash. */
export async function transactionsByMessage(store: Store, req: TransactionsByMessageRequest): Promise<TransactionsResponse> {
  const w = new Where();
  // an opcode names what a transaction received, as toncenter reads it
  const direction = req.opcode !== undefined ? "in" : req.direction;
  if (req.msgHash !== undefined) {
    const h = b64Hash(req.msgHash);
    w.add("(msg_hash = {} OR hash_norm = {})", ["String", h], ["String", h]);
  }
  if (req.bodyHash !== undefined) w.add("body_hash = {}", ["String", b64Hash(req.bodyHash)]);
  if (req.opcode !== undefined) w.add("opcode = {}", ["Int32", opcodeOf("opcode", req.opcode)]);
  if (direction !== undefined) w.add("direction = {}", ["String", direction]);
  const keys = await select<Pick<MessageRow, "tx_hash">>(
    store,
    `SELECT DISTINCT tx_hash, tx_lt FROM messages FINAL ${w.sql} ORDER BY tx_lt DESC, tx_hash
     LIMIT ${w.param("UInt32", req.limit ?? DEFAULT_LIMIT)} OFFSET ${w.param("UInt32", req.offset ?? 0)}`,
    w.params,
  );
  return transactionsResponse(store, await byHashes(store, keys.map((k) => k.tx_hash), "DESC"));
}

async function byHashes(store: Store, hashes: string[], dir: "ASC" | "DESC"): Promise<StoredTransaction[]> {
  if (!hashes.length) return [];
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash IN {h:Array(String)})
     ORDER BY lt ${dir}, account`,
    { h: hashes },
  );
}

/**
 * The transaction that sent this one's inbound message (direction in) and those that received its
 * outbound messages (out); both without a direction. Ordered by lt; 404 when there are none.
 */
export async function adjacentTransactions(store: Store, req: AdjacentTransactionsRequest): Promise<TransactionsResponse> {
  const hash = b64Hash(req.hash);
  const [tx] = await byHashes(store, [hash], "ASC");
  if (!tx) throw apiError(404, `transaction ${hash} is not indexed`);
  const wanted: { msg: string; side: "in" | "out" }[] = [];
  // the sender of our inbound message has it as an out row; receivers of our outbound ones as in rows
  if (req.direction !== "out" && tx.in_msg_hash !== null) wanted.push({ msg: tx.in_msg_hash, side: "out" });
  if (req.direction !== "in") for (const h of tx.out_msg_hashes) wanted.push({ msg: h, side: "in" });
  const rows = wanted.length
    ? await select<Pick<MessageRow, "tx_hash" | "direction" | "msg_hash">>(
        store,
        "SELECT tx_hash, direction, msg_hash FROM messages FINAL WHERE msg_hash IN {m:Array(String)} AND tx_hash != {self:String}",
        { m: wanted.map((x) => x.msg), self: hash },
      )
    : [];
  const hashes = rows.filter((r) => wanted.some((x) => x.msg === r.msg_hash && x.side === r.direction)).map((r) => r.tx_hash);
  const txs = await byHashes(store, [...new Set(hashes)], "ASC");
  if (!txs.length) throw apiError(404, `no adjacent transactions of ${hash} are indexed`);
  return transactionsResponse(store, txs);
}

/** An account's transactions, newest first (lt is unique per account). */
export function transactionsByAccount(
  store: Store,
  account: string,
  opts: { limit?: number; offset?: number; beforeLt?: string } = {},
): Promise<StoredTransaction[]> {
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE account = {account:String} AND ({before_lt:Nullable(UInt64)} IS NULL OR lt < {before_lt:Nullable(UInt64)})
     ORDER BY lt DESC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { account, before_lt: opts.beforeLt ?? null, limit: opts.limit ?? 10, offset: opts.offset ?? 0 },
  );
}

/** Transactions by hash (normally one; a hash is not a key of the chain, so all matches). */
export function transactionsByHash(store: Store, hash: string): Promise<StoredTransaction[]> {
  return select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_hash FINAL WHERE hash = {hash:String})
     ORDER BY lt, account`,
    { hash },
  );
}
