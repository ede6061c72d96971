// The v3 requests the key index answers (store/key-index): a lookup by key with at most an lt range
// and a page. Each function returns undefined when the request has a filter only ClickHouse can
// apply, or the index is not complete yet; the caller then queries ClickHouse. Both answer the same
// (services/indexer/test/key-index.test.ts compares them on every account of an indexed chain).
// The address book of every answer comes from the book step (../book-step.ts), which reads the key
// index's code hashes as well.
import { create } from "@bufbuild/protobuf";
import {
  type AdjacentTransactionsRequest,
  type GetMessagesRequest,
  type Message,
  type MessagesResponse,
  MessagesResponseSchema,
  type GetTransactionsRequest,
  type Transaction,
  type TransactionsByMasterchainBlockRequest,
  type TransactionsByMessageRequest,
  type TransactionsResponse,
  TransactionsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { apiError } from "@tongate/runtime";
import type { DecodedKeys } from "@tongate/store";
import { byLtThenHash, type KeyIndex, sortByLt } from "../../store/key-index/key-index.js";
import type { IndexStore as Store } from "../../store/index-store.js";
import { b64Hash, DEFAULT_LIMIT, isAsc, nextCursor, pageOf, rawAddress } from "../params.js";

const TX_KEY = ["string", "string"] as const;

/**
 * What a key lookup reads: the store's key index, the indexer's tables and the decoder's (only that,
 * so that a key reader in a thread of its own, api/key-readers, runs the same functions).
 */
export type KeySource = Pick<Store, "keys" | "decoded">;

/** The store's key index when reads may use it. */
export const usableKeys = (store: KeySource): KeyIndex | undefined => (store.keys?.complete ? store.keys : undefined);

/** The decoder's key-index tables when reads may use them (complete, and kept by a decoder). */
export const usableDecoded = (store: KeySource): DecodedKeys | undefined => (store.decoded?.usable ? store.decoded : undefined);

/** The response for these transactions (the book step adds the address book, from the key index too). */
function keyIndexResponse(transactions: Transaction[], cursor?: string): TransactionsResponse {
  return create(TransactionsResponseSchema, { transactions, nextCursor: cursor });
}

const txKey = (t: Transaction): string[] => [String(t.lt), t.account];

/** /transactions of one account (lt range, page, cursor) or of one hash. */
export function transactionsFromKeys(store: KeySource, req: GetTransactionsRequest): TransactionsResponse | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
  const others = req.excludeAccount.length || req.startUtime !== undefined || req.endUtime !== undefined || req.workchain !== undefined;
  if (others || req.shard !== undefined || req.seqno !== undefined || req.mcSeqno !== undefined) return undefined;
  const asc = isAsc(req.sort);
  const p = pageOf("transactions", asc, req, TX_KEY);
  const startLt = max(req.startLt, req.lt);
  const endLt = min(req.endLt, req.lt);
  if (req.hash !== undefined) {
    if (req.account.length > 1 || p.after) return undefined;
    const t = keys.byTransactionHash(b64Hash(req.hash));
    const account = req.account.length ? rawAddress(req.account[0]!) : undefined;
    const match = t && (account === undefined || t.account === account) && (startLt === undefined || t.lt >= startLt) && (endLt === undefined || t.lt <= endLt);
    const page = match ? [t].slice(p.offset, p.offset + p.limit) : [];
    return keyIndexResponse(page, nextCursor("transactions", asc, p, page, txKey));
  }
  if (req.account.length !== 1) return undefined;
  const account = rawAddress(req.account[0]!);
  // a cursor names (lt, account) and the page goes on after it in the (lt, account ascending)
  // order: within one account, after an lt — that lt itself included when this account sorts after its
  let afterLt: bigint | undefined;
  if (p.after) {
    const lt = BigInt(p.after[0]!);
    afterLt = account > String(p.after[1]) ? (asc ? lt - 1n : lt + 1n) : lt;
  }
  return keyIndexPage(keys, account, asc, p.limit, p.offset, startLt, endLt, afterLt);
}

function keyIndexPage(keys: KeyIndex, account: string, asc: boolean, limit: number, offset: number, startLt: bigint | undefined, endLt: bigint | undefined, afterLt: bigint | undefined): TransactionsResponse {
  const page = keys.accountPage(account, { asc, limit, offset, startLt, endLt, afterLt });
  return keyIndexResponse(page, nextCursor("transactions", asc, { limit, offset, after: undefined }, page, txKey));
}

/** /transactionsByMasterchainBlock by offset (a cursor goes to ClickHouse). */
export function transactionsByMasterchainBlockFromKeys(store: KeySource, req: TransactionsByMasterchainBlockRequest): TransactionsResponse | undefined {
  const keys = usableKeys(store);
  if (!keys || req.cursor !== undefined) return undefined;
  const asc = isAsc(req.sort);
  const p = pageOf("transactionsByMasterchainBlock", asc, req, TX_KEY);
  const page = keys.mcBlockPage(req.seqno, asc, p.limit, p.offset);
  // a block without transactions here may still be indexed: ClickHouse tells that from a 404
  if (!page) return undefined;
  return keyIndexResponse(page, nextCursor("transactionsByMasterchainBlock", asc, p, page, txKey));
}

/** /transactionsByMessage by message hash (body hash and opcode go to ClickHouse). */
export function transactionsByMessageFromKeys(store: KeySource, req: TransactionsByMessageRequest): TransactionsResponse | undefined {
  const keys = usableKeys(store);
  if (!keys || req.msgHash === undefined || req.bodyHash !== undefined || req.opcode !== undefined) return undefined;
  const offset = req.offset ?? 0;
  const all = keys.byMessageHash(b64Hash(req.msgHash), req.direction === "in" || req.direction === "out" ? req.direction : undefined);
  // a transaction both received and sent it (a message to itself) is listed once
  const seen = new Set<string>();
  const unique = all.filter((t) => (seen.has(t.hash) ? false : (seen.add(t.hash), true)));
  return keyIndexResponse(unique.slice(offset, offset + (req.limit ?? DEFAULT_LIMIT)));
}

/** /adjacentTransactions: the sender of its inbound message and the receivers of its outbound ones, lt ascending. */
export function adjacentTransactionsFromKeys(store: KeySource, req: AdjacentTransactionsRequest): TransactionsResponse | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
  const hash = b64Hash(req.hash);
  const tx = keys.byTransactionHash(hash);
  if (!tx) throw apiError(404, `transaction ${hash} is not indexed`);
  const found = new Map<string, Transaction>();
  const add = (list: Transaction[]) => {
    for (const t of list) if (t.hash !== hash) found.set(t.hash, t);
  };
  if (req.direction !== "out" && tx.inMsg) add(keys.byMessageHash(tx.inMsg.hash, "out"));
  if (req.direction !== "in") for (const m of tx.outMsgs) add(keys.byMessageHash(m.hash, "in"));
  if (!found.size) throw apiError(404, `no adjacent transactions of ${hash} are indexed`);
  return keyIndexResponse(sortByLt([...found.values()], true));
}

const max = (a: bigint | undefined, b: bigint | undefined): bigint | undefined => (a === undefined ? b : b === undefined ? a : a > b ? a : b);
const min = (a: bigint | undefined, b: bigint | undefined): bigint | undefined => (a === undefined ? b : b === undefined ? a : a < b ? a : b);

/**
 * /messages by message hashes, or by one source or destination address (with an lt range, page or
 * cursor); any other filter goes to ClickHouse.
 */
export function messagesFromKeys(store: KeySource, req: GetMessagesRequest): MessagesResponse | undefined {
  const keys = usableKeys(store);
  if (!keys) return undefined;
  const others = req.bodyHash !== undefined || req.opcode !== undefined || req.startUtime !== undefined || req.endUtime !== undefined || req.direction !== undefined;
  if (others || req.excludeExternals || req.onlyExternals) return undefined;
  const bySource = req.source !== undefined && req.source !== "null";
  const byDestination = req.destination !== undefined && req.destination !== "null";
  const byHash = req.msgHash.length > 0;
  if (Number(bySource) + Number(byDestination) + Number(byHash) !== 1 || req.source === "null" || req.destination === "null") return undefined;
  const asc = isAsc(req.sort);
  const p = pageOf("messages", asc, req, ["string", "string"]);
  let page: { hash: string; lt: bigint }[];
  if (byHash) {
    if (req.startLt !== undefined || req.endLt !== undefined || p.after) return undefined;
    const found = [...new Set(req.msgHash.map(b64Hash))].flatMap((h) => {
      const m = keys.message(h);
      return m ? [{ hash: h, lt: m.message.createdLt ?? 0n }] : [];
    });
    page = found.sort(byLtThenHash(asc)).slice(p.offset, p.offset + p.limit);
  } else {
    const account = rawAddress(bySource ? req.source! : req.destination!);
    const after: [bigint, string] | undefined = p.after ? [BigInt(p.after[0]!), String(p.after[1])] : undefined;
    page = keys.addressMessages(account, bySource ? "source" : "destination", { asc, limit: p.limit, offset: p.offset, startLt: req.startLt, endLt: req.endLt, after });
  }
  const messages: Message[] = [];
  for (const k of page) {
    const m = keys.message(k.hash);
    if (!m) continue;
    messages.push({ ...m.message, inMsgTxHash: m.inTx, outMsgTxHash: m.outTx });
  }
  return create(MessagesResponseSchema, {
    messages,
    nextCursor: nextCursor("messages", asc, p, page, (k) => [String(k.lt), k.hash]),
  });
}
