// AccountBlock / ShardAccountBlocks: the transactions of a block, per account.
import {
  type Builder,
  type CurrencyCollection,
  type Dictionary,
  type DictionaryValue,
  type HashUpdate,
  type Slice,
  type Transaction,
  Dictionary as Dict,
  loadHashUpdate,
  loadTransaction,
  storeHashUpdate,
  beginCell,
} from "@ton/core";
import { storeBits256 } from "./blockid.js";
import { currencyCollectionAug } from "./currency.js";
import { type AugValue, buildHashmapAug, emptyAugDict, hashmapAugExtra, loadHashmapAug, loadHashmapAugE, storeHashmapAugE, valueCodec } from "./dict.js";
import { KEY_256, keyToHash } from "./messages.js";

export const KEY_LT = Dict.Keys.BigUint(64);

/**
 * `^Transaction` values. Loading uses @ton/core's loadTransaction; storing writes the transaction's
 * `raw` cell (the exact on-chain cell): @ton/core's storeTransaction is not byte-exact for every
 * transaction (its storeMessage re-decides inline vs ref for message bodies), so re-encoding would
 * change transaction hashes. A Transaction object obtained from loadTransaction (e.g. from an
 * emulator's BoC) always carries `raw`.
 */
export const transactionRefValue: DictionaryValue<Transaction> = {
  parse: (s) => loadTransaction(s.loadRef().beginParse()),
  serialize: (tx, b) => void b.storeRef(tx.raw),
};

/** transactions:(HashmapAug 64 ^Transaction CurrencyCollection), keyed by lt, extra = total_fees. */
export type AccountTransactions = Dictionary<bigint, AugValue<Transaction, CurrencyCollection>>;

/**
 * acc_trans#5 account_addr:bits256 transactions:(HashmapAug 64 ^Transaction CurrencyCollection)
 *   state_update:^(HASH_UPDATE Account) = AccountBlock.
 */
export interface AccountBlock {
  accountAddr: Buffer;
  transactions: AccountTransactions;
  stateUpdate: HashUpdate;
}

export function loadAccountBlock(s: Slice): AccountBlock {
  const tag = s.loadUint(4);
  if (tag !== 5) throw new Error(`AccountBlock: bad tag ${tag}`);
  const accountAddr = s.loadBuffer(32);
  // HashmapAug (non-E): the root edge is inline in this cell.
  const transactions = loadHashmapAug(s.asCell(), KEY_LT, transactionRefValue, currencyCollectionAug);
  // @ton/core's loader consumed nothing from `s` (loadDirect works on a copy); skip the edge ourselves.
  skipHashmapAugEdgeRefs(s);
  const stateUpdate = loadHashUpdate(s.loadRef().beginParse());
  return { accountAddr, transactions, stateUpdate };
}

// The transactions HashmapAug sits inline, followed by ^(HASH_UPDATE Account). Its root node is
// either a leaf (label, extra, ^Transaction) or a fork (label, 2 refs, extra); in both cases the
// HASH_UPDATE is the last reference of the cell.
function skipHashmapAugEdgeRefs(s: Slice): void {
  while (s.remainingRefs > 1) s.loadRef();
  s.skip(s.remainingBits);
}

export function storeAccountBlock(src: AccountBlock) {
  return (b: Builder): void => {
    b.storeUint(5, 4);
    storeBits256(b, src.accountAddr, "AccountBlock.account_addr");
    const { root } = buildHashmapAug(src.transactions, KEY_LT, transactionRefValue, currencyCollectionAug);
    b.storeSlice(root.beginParse());
    b.storeRef(beginCell().store(storeHashUpdate(src.stateUpdate)).endCell());
  };
}

/** Sum of the transactions' extras (total fees): the AccountBlock's extra in ShardAccountBlocks. */
export function accountBlockFees(src: AccountBlock): CurrencyCollection {
  return hashmapAugExtra(src.transactions, currencyCollectionAug);
}

export const accountBlockValue: DictionaryValue<AccountBlock> = valueCodec(loadAccountBlock, storeAccountBlock);

/** _ (HashmapAugE 256 AccountBlock CurrencyCollection) = ShardAccountBlocks; keyed by account id. */
export type ShardAccountBlocks = Dictionary<bigint, AugValue<AccountBlock, CurrencyCollection>>;

export function loadShardAccountBlocks(s: Slice): ShardAccountBlocks {
  return loadHashmapAugE(s, KEY_256, accountBlockValue, currencyCollectionAug).dict;
}

export function storeShardAccountBlocks(src: ShardAccountBlocks) {
  return storeHashmapAugE(src, KEY_256, accountBlockValue, currencyCollectionAug);
}

export function emptyShardAccountBlocks(): ShardAccountBlocks {
  return emptyAugDict(KEY_256, accountBlockValue, currencyCollectionAug);
}

/** An empty per-account transaction dictionary (for building an AccountBlock). */
export function emptyAccountTransactions(): AccountTransactions {
  return emptyAugDict(KEY_LT, transactionRefValue, currencyCollectionAug);
}

/**
 * Builds the AccountBlock for a list of transactions of one account (extras = each tx's
 * total_fees, as the collator does) with the given state update.
 */
export function makeAccountBlock(accountAddr: Buffer, txs: Transaction[], stateUpdate: HashUpdate): AccountBlock {
  const transactions = emptyAccountTransactions();
  for (const tx of txs) transactions.set(tx.lt, { extra: tx.totalFees, value: tx });
  return { accountAddr, transactions, stateUpdate };
}

/** All transactions of a ShardAccountBlocks, ordered by (account, lt). */
export function blockTransactions(blocks: ShardAccountBlocks): Transaction[] {
  const accounts = [...blocks.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: Transaction[] = [];
  for (const acc of accounts) {
    const ab = blocks.get(acc)!.value;
    const lts = [...ab.transactions.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const lt of lts) out.push(ab.transactions.get(lt)!.value);
  }
  return out;
}

export { keyToHash as accountKeyToBuffer };
