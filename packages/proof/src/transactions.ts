// Transactions: liteServer.transactionInfo (getOneTransaction), liteServer.transactionList (getTransactions),
// liteServer.blockTransactions / blockTransactionsExt (listBlockTransactions[Ext] with want_proof).
import { type Cell, type Slice, CellType } from "@ton/core";
import { blockIdToString, shardContainsAccount, shardU64 } from "./blockid.js";
import { deserializeBoc, hex, openCell } from "./cells.js";
import { type AccountAddress, accountToString, checkAccountAddress, expectTrustedId } from "./common.js";
import { type DictItem, dictItems, dictLookup, itemRange, loadHashmapERoot } from "./dict.js";
import { fail, guard } from "./errors.js";
import { type ProvenBlockRoot, checkBlockRootProofBoc } from "./header.js";
import { loadProvenBlockExtra, skipCurrencyCollection } from "./state.js";
import {
  type LiteServerBlockTransactions,
  type LiteServerBlockTransactionsExt,
  type LiteServerTransactionInfo,
  type LiteServerTransactionList,
  type TonNodeBlockIdExt,
  checkBlockId,
  checkShape,
} from "./tl.js";

/** The leading fields of a Transaction (transaction$0111 account_addr lt prev_trans_hash prev_trans_lt now). */
export interface TransactionHead {
  account: Buffer;
  lt: bigint;
  prevTransHash: Buffer;
  prevTransLt: bigint;
  now: number;
}

export function loadTransactionHead(cell: Cell, what: string): TransactionHead {
  return guard(what, () => {
    const s = openCell(cell, what);
    const tag = s.loadUint(4);
    if (tag !== 0b0111) fail(`${what}: not a Transaction (tag ${tag})`);
    return { account: s.loadBuffer(32), lt: s.loadUintBig(64), prevTransHash: s.loadBuffer(32), prevTransLt: s.loadUintBig(64), now: s.loadUint(32) };
  });
}

/** A full (unpruned) transaction cell from a BoC root. */
function fullCell(cell: Cell, what: string): Cell {
  if (cell.type !== CellType.Ordinary || cell.level() !== 0) fail(`${what}: not a full transaction cell`);
  return cell;
}

/** AccountBlock after the leaf's extra: acc_trans#5 account_addr transactions:(HashmapAug 64 ^Transaction CC) …; returns the slice at the inline dictionary. */
function openAccountBlock(value: Slice, account: bigint, what: string): Slice {
  skipCurrencyCollection(value); // ShardAccountBlocks leaf extra
  const tag = value.loadUint(4);
  if (tag !== 5) fail(`${what}: AccountBlock has bad tag ${tag}`);
  const addr = value.loadUintBig(256);
  if (addr !== account) fail(`${what}: AccountBlock under key ${account.toString(16)} is for account ${addr.toString(16)}`);
  return value;
}

/** The ^Transaction of an AccountTransactions leaf (after its CurrencyCollection extra). */
function transactionRef(value: Slice): Cell {
  skipCurrencyCollection(value);
  return value.loadRef();
}

function accountBlocksRoot(block: ProvenBlockRoot, what: string): Cell | null {
  const extra = loadProvenBlockExtra(block, what);
  return loadHashmapERoot(openCell(extra.accountBlocks, `${what}: ShardAccountBlocks`));
}

// ---------------------------------------------------------------------------------------------------------
// getOneTransaction

export interface VerifiedTransactionInfo {
  blockId: TonNodeBlockIdExt;
  /** The transaction (full cell), or null when the block is proven to have no transaction of the account at that lt. */
  transaction: Cell | null;
  hash: Buffer | null;
}

/**
 * Verifies a liteServer.transactionInfo for (account, lt) in the trusted block: proof is a Merkle proof of
 * the block reaching ShardAccountBlocks[account].transactions[lt]; the transaction BoC hashes to the proven
 * ^Transaction (or is empty and the proof shows there is none).
 */
export function verifyTransactionInfo(
  answer: LiteServerTransactionInfo | object,
  trusted: TonNodeBlockIdExt,
  request: { account: AccountAddress; lt: bigint },
): VerifiedTransactionInfo {
  const what = "liteServer.transactionInfo";
  const a = checkShape<LiteServerTransactionInfo>(answer, what, { id: "id", proof: "bytes", transaction: "bytes" });
  checkAccountAddress(request.account, what);
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    const acc = request.account;
    if (acc.workchain !== a.id.workchain || !shardContainsAccount(shardU64(a.id), acc.id)) {
      fail(`${what}: block ${blockIdToString(a.id)} cannot contain account ${accountToString(acc)}`);
    }
    const block = checkBlockRootProofBoc(a.proof, a.id, `${what}: proof`);
    const accKey = BigInt("0x" + hex(acc.id));
    const root = accountBlocksRoot(block, `${what}: proof`);
    let txRef: Cell | null = null;
    if (root) {
      const r = dictLookup(root, 256, accKey, `${what}: ShardAccountBlocks`);
      if (r.type === "pruned") fail(`${what}: the ShardAccountBlocks path to ${accountToString(acc)} is pruned in the proof`);
      if (r.type === "found") {
        const txs = openAccountBlock(r.value, accKey, `${what}: proof`);
        const t = dictLookup(txs, 64, BigInt.asUintN(64, request.lt), `${what}: AccountBlock.transactions`);
        if (t.type === "pruned") fail(`${what}: the transactions path to lt ${request.lt} is pruned in the proof`);
        if (t.type === "found") txRef = transactionRef(t.value);
      }
    }
    if (!txRef) {
      if (a.transaction.length !== 0) fail(`${what}: the proof shows no transaction of ${accountToString(acc)} at lt ${request.lt} in the block, but one was returned`);
      return { blockId: a.id, transaction: null, hash: null };
    }
    if (a.transaction.length === 0) fail(`${what}: the proof shows a transaction of ${accountToString(acc)} at lt ${request.lt}, but none was returned`);
    const [tx] = deserializeBoc(a.transaction, `${what}: transaction`, 1);
    fullCell(tx, `${what}: transaction`);
    if (!tx.hash().equals(txRef.hash(0))) fail(`${what}: transaction hash mismatch: Merkle proof expects ${hex(txRef.hash(0))} but received data has ${hex(tx.hash())}`);
    const head = loadTransactionHead(tx, `${what}: transaction`);
    if (!head.account.equals(acc.id) || head.lt !== request.lt) fail(`${what}: transaction is of ${hex(head.account)} lt ${head.lt}, not the requested one`);
    return { blockId: a.id, transaction: tx, hash: tx.hash() };
  });
}

// ---------------------------------------------------------------------------------------------------------
// getTransactions

export interface VerifiedTransaction extends TransactionHead {
  /** The block the server says holds the transaction: NOT proven by this answer (liteServer.transactionList carries no Merkle proof). */
  blockIdUnverified: TonNodeBlockIdExt;
  hash: Buffer;
  cell: Cell;
}

/**
 * Verifies a liteServer.transactionList (getTransactions). The answer has no Merkle proof: the chain is
 * anchored at the requested (lt, hash) — take them from a proven ShardAccount (last_trans_lt/hash) or a
 * proven transaction — and each transaction must hash to the previous one's prev_trans_hash, have the
 * expected lt, and belong to the account. The block ids are the server's word (see blockIdUnverified).
 */
export function verifyTransactionList(
  answer: LiteServerTransactionList | object,
  request: { account: AccountAddress; lt: bigint; hash: Buffer; count?: number },
): VerifiedTransaction[] {
  const what = "liteServer.transactionList";
  const a = checkShape<LiteServerTransactionList>(answer, what, { ids: "vector", transactions: "bytes" });
  checkAccountAddress(request.account, what);
  return guard(what, () => {
    if (a.ids.length === 0) fail(`${what}: transaction list must be non-empty`);
    if (request.count !== undefined && a.ids.length > request.count) fail(`${what}: ${a.ids.length} transactions returned for a request of ${request.count}`);
    const roots = deserializeBoc(a.transactions, `${what}: transactions`);
    if (roots.length !== a.ids.length) fail(`${what}: transaction list size ${roots.length} must be equal to the size of block id list ${a.ids.length}`);
    const out: VerifiedTransaction[] = [];
    let lt = request.lt;
    let hash = request.hash;
    roots.forEach((root, i) => {
      const w = `${what}: transaction #${i}`;
      const blockId = checkBlockId(a.ids[i], `${what}: ids[${i}]`);
      fullCell(root, w);
      if (!root.hash().equals(hash)) fail(`${w}: transaction hash mismatch: expected ${hex(hash)}, found ${hex(root.hash())}`);
      const head = loadTransactionHead(root, w);
      if (head.lt !== lt) fail(`${w}: transaction lt mismatch: expected ${lt}, found ${head.lt}`);
      if (!head.account.equals(request.account.id)) fail(`${w}: transaction of account ${hex(head.account)}, not ${hex(request.account.id)}`);
      if (blockId.workchain !== request.account.workchain || !shardContainsAccount(shardU64(blockId), request.account.id)) {
        fail(`${w}: block ${blockIdToString(blockId)} cannot contain account ${accountToString(request.account)}`);
      }
      if (head.prevTransLt >= head.lt) fail(`${w}: prev_trans_lt ${head.prevTransLt} is not below lt ${head.lt}`);
      out.push({ ...head, blockIdUnverified: blockId, hash: root.hash(), cell: root });
      lt = head.prevTransLt;
      hash = head.prevTransHash;
    });
    return out;
  });
}

// ---------------------------------------------------------------------------------------------------------
// listBlockTransactions[Ext]

/** A proven transaction or a pruned stretch of the (account, lt) key space; keys are account << 64 | lt. */
type TxEntry = { type: "tx"; key: bigint; account: bigint; lt: bigint; hash: Buffer } | { type: "gap"; min: bigint; max: bigint };

const LT_MAX = (1n << 64n) - 1n;

/** Every transaction of the proven ShardAccountBlocks, in (account, lt) order, with pruned stretches. */
function provenTransactions(block: ProvenBlockRoot, what: string): TxEntry[] {
  const root = accountBlocksRoot(block, what);
  if (!root) return [];
  const out: TxEntry[] = [];
  const gap = (item: Extract<DictItem, { type: "pruned" }>, bits: number, base: bigint, shift: bigint, fill: bigint) => {
    const [lo, hi] = itemRange(item, bits);
    out.push({ type: "gap", min: base | (lo << shift), max: base | (hi << shift) | fill });
  };
  for (const acc of dictItems(root, 256, `${what}: ShardAccountBlocks`)) {
    if (acc.type === "pruned") {
      gap(acc, 256, 0n, 64n, LT_MAX);
      continue;
    }
    const txs = openAccountBlock(acc.value, acc.key, `${what}: ShardAccountBlocks`);
    for (const t of dictItems(txs, 64, `${what}: AccountBlock.transactions`)) {
      if (t.type === "pruned") {
        gap(t, 64, acc.key << 64n, 0n, 0n);
        continue;
      }
      const ref = transactionRef(t.value);
      out.push({ type: "tx", key: (acc.key << 64n) | t.key, account: acc.key, lt: t.key, hash: ref.hash(0) });
    }
  }
  return out;
}

export interface BlockTransactionsRequest {
  /** mode.6: newest first. Defaults to the mode of the returned ids (or false). */
  reverse?: boolean;
  /** mode.7: start strictly after this (account, lt) in the listing order. Omitted: from the beginning. */
  after?: { account: Buffer; lt: bigint };
}

export interface ProvenTransactionId {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

const MAX_ANSWER_TRANSACTIONS = 256;

/**
 * Checks that `returned` is exactly the run of proven transactions the liteserver's traversal produces:
 * from the start point (the request's, or — without a request — the first returned one), each next proven
 * entry is the next returned transaction, with nothing pruned in between; and the incomplete flag / the end
 * of the list agree with the proof.
 */
function checkListing(
  entries: TxEntry[],
  returned: { key: bigint; hash: Buffer }[],
  reqCount: number,
  incomplete: boolean,
  request: BlockTransactionsRequest | undefined,
  reverse: boolean,
  what: string,
): void {
  const seq = reverse ? [...entries].reverse() : entries;
  const fmt = (k: bigint) => `${(k >> 64n).toString(16).padStart(64, "0")}:${k & LT_MAX}`;
  let idx: number;
  if (request) {
    if (request.after) {
      const ak = (BigInt("0x" + hex(request.after.account)) << 64n) | BigInt.asUintN(64, request.after.lt);
      idx = seq.findIndex((e) => (reverse ? (e.type === "tx" ? e.key : e.min) < ak : (e.type === "tx" ? e.key : e.max) > ak));
    } else {
      idx = 0;
    }
    if (idx < 0) idx = seq.length;
  } else if (returned.length > 0) {
    idx = seq.findIndex((e) => e.type === "tx" && e.key === returned[0].key);
    if (idx < 0) fail(`${what}: transaction ${fmt(returned[0].key)} is not in the proof`);
  } else {
    idx = seq.length;
  }
  returned.forEach((r, i) => {
    const e = seq[idx];
    if (!e) fail(`${what}: the proof shows no more transactions, but the answer lists ${fmt(r.key)} (#${i})`);
    if (e.type === "gap") fail(`${what}: transactions before #${i} (${fmt(r.key)}) are pruned in the proof: cannot check that none is skipped`);
    if (e.key !== r.key) fail(`${what}: by the proof the next transaction is ${fmt(e.key)}, but the answer lists ${fmt(r.key)} (#${i})`);
    if (!e.hash.equals(r.hash)) fail(`${what}: transaction ${fmt(r.key)} hash mismatch: Merkle proof expects ${hex(e.hash)}, answer has ${hex(r.hash)}`);
    idx++;
  });
  const limit = Math.min(reqCount, MAX_ANSWER_TRANSACTIONS);
  if (returned.length > limit) fail(`${what}: ${returned.length} transactions returned for req_count ${reqCount}`);
  if (returned.length === limit) {
    if (!incomplete) fail(`${what}: ${returned.length} = req_count transactions returned, so incomplete must be true`);
    return;
  }
  if (incomplete) fail(`${what}: fewer transactions (${returned.length}) than req_count (${reqCount}) but incomplete is true`);
  const next = seq[idx];
  if (next?.type === "gap") fail(`${what}: the answer ends the list but the proof prunes the rest of the block's transactions`);
  if (next) fail(`${what}: the answer ends the list but the proof has a further transaction ${fmt(next.key)}`);
}

export interface VerifiedBlockTransactions {
  id: TonNodeBlockIdExt;
  incomplete: boolean;
  ids: ProvenTransactionId[];
}

/**
 * Verifies a liteServer.blockTransactions with a proof (want_proof, mode.5): every listed (account, lt,
 * hash) is a proven ^Transaction of ShardAccountBlocks, and the list is the gap-free run the liteserver's
 * traversal yields (from `request`'s start, in its order), with `incomplete` matching.
 */
export function verifyBlockTransactions(
  answer: LiteServerBlockTransactions | object,
  trusted: TonNodeBlockIdExt,
  request?: BlockTransactionsRequest,
): VerifiedBlockTransactions {
  const what = "liteServer.blockTransactions";
  const a = checkShape<LiteServerBlockTransactions>(answer, what, { id: "id", req_count: "int", incomplete: "bool", ids: "vector", proof: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    if (a.proof.length === 0) fail(`${what}: no proof (request it with want_proof, mode.5)`);
    const block = checkBlockRootProofBoc(a.proof, a.id, `${what}: proof`);
    const ids: ProvenTransactionId[] = a.ids.map((t, i) => {
      if (!(Buffer.isBuffer(t.account) && typeof t.lt === "bigint" && Buffer.isBuffer(t.hash))) {
        fail(`${what}: ids[${i}] lacks account, lt or hash (mode ${t.mode} must have bits 0, 1, 2)`);
      }
      return { account: t.account, lt: BigInt.asUintN(64, t.lt), hash: t.hash };
    });
    const reverse = request?.reverse ?? (a.ids.length > 0 && (a.ids[0].mode & 64) !== 0);
    const returned = ids.map((t) => ({ key: (BigInt("0x" + hex(t.account)) << 64n) | t.lt, hash: t.hash }));
    checkListing(provenTransactions(block, `${what}: proof`), returned, a.req_count, a.incomplete, request, reverse, what);
    return { id: a.id, incomplete: a.incomplete, ids };
  });
}

export interface VerifiedBlockTransactionsExt {
  id: TonNodeBlockIdExt;
  incomplete: boolean;
  transactions: { account: Buffer; lt: bigint; hash: Buffer; cell: Cell }[];
}

/** Like verifyBlockTransactions, for liteServer.blockTransactionsExt (full transaction BoCs instead of ids). */
export function verifyBlockTransactionsExt(
  answer: LiteServerBlockTransactionsExt | object,
  trusted: TonNodeBlockIdExt,
  request?: BlockTransactionsRequest,
): VerifiedBlockTransactionsExt {
  const what = "liteServer.blockTransactionsExt";
  const a = checkShape<LiteServerBlockTransactionsExt>(answer, what, { id: "id", req_count: "int", incomplete: "bool", transactions: "bytes", proof: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    if (a.proof.length === 0) fail(`${what}: no proof (request it with want_proof, mode.5)`);
    const block = checkBlockRootProofBoc(a.proof, a.id, `${what}: proof`);
    const roots = a.transactions.length === 0 ? [] : deserializeBoc(a.transactions, `${what}: transactions`);
    const txs = roots.map((root, i) => {
      fullCell(root, `${what}: transaction #${i}`);
      const head = loadTransactionHead(root, `${what}: transaction #${i}`);
      return { account: head.account, lt: head.lt, hash: root.hash(), cell: root };
    });
    const returned = txs.map((t) => ({ key: (BigInt("0x" + hex(t.account)) << 64n) | t.lt, hash: t.hash }));
    checkListing(provenTransactions(block, `${what}: proof`), returned, a.req_count, a.incomplete, request, request?.reverse ?? false, what);
    return { id: a.id, incomplete: a.incomplete, transactions: txs };
  });
}
