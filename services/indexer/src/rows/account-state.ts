// Account states after a block, as far as the block alone determines them.
//
// Each AccountBlock's state_update gives the hash of the account cell after the block; the block's
// own state_update (MERKLE_UPDATE ShardState) carries the new ShardAccounts entries of the accounts
// the block changed, with unchanged sub-trees pruned. From it: balance, status, frozen hash, code
// and data hashes (a pruned cell's hash(0) is its real hash), last transaction; the code/data BoCs
// only when the cells are present in the update: a Merkle update prunes every cell that is anywhere
// in the old state, so unchanged code/data, and also the code of a deploy whose code some other
// account already has (e.g. a new jetton wallet), come without their BoC (null).
//
// The follower fills those BoCs before storing the rows (follower/account-bocs.ts): from code/data
// it has seen, or the cell as the update has it (`partials`) with its pruned branches put back,
// else from the account's latest stored state, else from the liteserver, checked against these
// hashes.
import { type Cell, CellType, loadAccount } from "@ton/core";
import { accountNoneCell } from "@tongate/block";
import type { BlockView } from "./block-view.js";
import { findLeaf, skipCurrencyCollection } from "./hashmap.js";
import type { AccountStateRow, AccountStatus, PartialBocs, TransactionRow, TransactionStateRow } from "./types.js";
import { b64, b64Big, bocB64, extraCurrencies, rawAddress } from "./util.js";

const SHARD_STATE_UNSPLIT = 0x9023afe2;
/** split_state#5f327da5 left:^ShardStateUnsplit right:^ShardStateUnsplit = ShardState. */
const SPLIT_STATE = 0x5f327da5;
const NONE_HASH = accountNoneCell().hash();
const NONE_HASH_B64 = b64(NONE_HASH);

function hash0(c: Cell): Buffer {
  return c.hash(0);
}

/** A cell without pruned branches below it (level 0 inside the Merkle update) can be serialised. */
function complete(c: Cell): boolean {
  return c.type === CellType.Ordinary && c.level() === 0;
}

/**
 * The new state's ShardAccounts (HashmapAugE 256 ShardAccount DepthBalanceInfo) of a block's
 * MERKLE_UPDATE, as the slice after its ahme_root bit, or null when the update has none to read.
 */
function newShardAccounts(update: Cell): Cell | null {
  if (update.type !== CellType.MerkleUpdate || update.refs.length !== 2) return null;
  return shardAccountsOf(update.refs[1]);
}

/**
 * The old state's ShardAccounts of a block's MERKLE_UPDATE (the accounts as they were before the
 * block): one ShardStateUnsplit, or after a merge a split_state of the two merged states (left, then
 * right child), whose accounts dictionaries hold disjoint accounts.
 */
function oldShardAccounts(update: Cell): (Cell | null)[] {
  if (update.type !== CellType.MerkleUpdate || update.refs.length !== 2) return [];
  const old = update.refs[0];
  if (old.type === CellType.Ordinary && old.bits.length === 32 && old.refs.length === 2 && old.beginParse().loadUint(32) === SPLIT_STATE) {
    return old.refs.map(shardAccountsOf);
  }
  return [shardAccountsOf(old)];
}

/** The ShardAccounts root of a ShardStateUnsplit cell of a Merkle update, or null. */
function shardAccountsOf(state: Cell): Cell | null {
  if (state.type !== CellType.Ordinary || state.refs.length < 2 || state.refs[1].type !== CellType.Ordinary) return null;
  if (state.beginParse().loadUint(32) !== SHARD_STATE_UNSPLIT) return null;
  const s = state.refs[1].beginParse();
  if (!s.loadBit()) return null;
  const root = s.loadRef();
  return root.type === CellType.Ordinary ? root : null;
}

/** The Account cell of `accountId` in ShardAccounts `root` (null: absent, or pruned in the update). */
function accountCell(root: Cell | null, accountId: Buffer): Cell | null {
  if (!root) return null;
  try {
    const leaf = findLeaf(root.beginParse(), 256, accountId);
    if (!leaf) return null;
    // depth_balance$_ split_depth:(#<= 30) balance:CurrencyCollection, then account_descr$_ account:^Account ...
    leaf.skip(5);
    skipCurrencyCollection(leaf);
    return leaf.loadRef();
  } catch {
    return null;
  }
}

/**
 * The account state rows of a block: each changed account's new ShardAccounts entry, looked up by
 * its key in the block's state update (only the cells on those paths are read). `partials` gets the
 * code/data the update has with pruned branches (the BoCs their rows lack).
 */
export function accountStateRows(block: Pick<BlockView, "info" | "stateUpdate" | "accountBlocks">, txs: TransactionRow[], partials?: PartialBocs[]): AccountStateRow[] {
  const workchain = block.info.shard.workchainId;
  const lastTx = new Map<string, TransactionRow>();
  for (const t of txs) lastTx.set(t.account, t);

  const accounts = newShardAccounts(block.stateUpdate);
  const out: AccountStateRow[] = [];
  for (const ab of block.accountBlocks) {
    const account = rawAddress(workchain, ab.accountAddr);
    const last = lastTx.get(account) ?? null;
    const base = {
      account,
      last_trans_hash: last ? last.hash : null,
      last_trans_lt: last ? last.lt : null,
      timestamp: last ? last.now : block.info.genUtime,
    };
    const cell = accountCell(accounts, ab.accountAddr);
    if (!cell) {
      if (ab.newHash.equals(NONE_HASH)) out.push(nonexist(NONE_HASH_B64, base));
      continue;
    }
    if (cell.type !== CellType.Ordinary) continue; // pruned (not expected for a changed account)
    const { row, code, data } = accountRowAndCells(cell, base, true);
    out.push(row);
    if (partials) {
      const p = { state: row.hash, code: row.code_boc === null ? partialBoc(code) : null, data: row.data_boc === null ? partialBoc(data) : null };
      if (p.code !== null || p.data !== null) partials.push(p);
    }
  }
  return out;
}

/**
 * Sets `states` on a block's transactions (ordered by account, then lt): the account's state before
 * its first transaction in the block (the old side of the block's Merkle update) and after its last
 * one (`after`, the block's account state rows). These are all the states a block determines: a
 * state between two transactions of one account in the block is known by its hash only. Stored with
 * the transaction, they save a page of transactions the lookup in `account_states`.
 */
export function setTransactionStates(block: Pick<BlockView, "stateUpdate">, txs: readonly TransactionRow[], after: readonly AccountStateRow[]): void {
  const afterByHash = new Map(after.map((r) => [r.hash, r]));
  let old: (Cell | null)[] | undefined;
  for (let i = 0; i < txs.length; i++) {
    const t = txs[i]!;
    const states: TransactionStateRow[] = [];
    if (i === 0 || txs[i - 1]!.account !== t.account) {
      if (old === undefined) old = oldShardAccounts(block.stateUpdate);
      const before = stateBefore(old, t);
      if (before) states.push(before);
    }
    const a = afterByHash.get(t.account_state_hash_after);
    if (a && a.last_trans_hash === t.hash) states.push(transactionState(a));
    t.states = states;
  }
}

/** The account's state before the block, when the old state has it with the hash `t` names. */
function stateBefore(old: readonly (Cell | null)[], t: TransactionRow): TransactionStateRow | null {
  const base = { account: t.account, last_trans_hash: null, last_trans_lt: null, timestamp: 0 };
  if (t.account_state_hash_before === NONE_HASH_B64) return transactionState(nonexist(t.account_state_hash_before, base));
  const id = Buffer.from(t.account.slice(t.account.indexOf(":") + 1), "hex");
  let cell: Cell | null = null;
  for (const accounts of old) cell ??= accountCell(accounts, id);
  if (!cell || cell.type !== CellType.Ordinary || b64(hash0(cell)) !== t.account_state_hash_before) return null;
  return transactionState(accountRow(cell, base, false));
}

/** The fields of an account state a transaction object shows (an explicit literal: rows/message.ts). */
export function transactionState(r: AccountStateRow): TransactionStateRow {
  return {
    hash: r.hash,
    balance: r.balance,
    balance_extra_currencies: r.balance_extra_currencies,
    account_status: r.account_status,
    frozen_hash: r.frozen_hash,
    code_hash: r.code_hash,
    data_hash: r.data_hash,
  };
}

export type AccountStateBase = Pick<AccountStateRow, "account" | "last_trans_hash" | "last_trans_lt" | "timestamp">;

function nonexist(hash: string, base: AccountStateBase): AccountStateRow {
  // an explicit literal, not a spread (rows/message.ts messageRow says why)
  return {
    hash,
    account: base.account,
    last_trans_hash: base.last_trans_hash,
    last_trans_lt: base.last_trans_lt,
    timestamp: base.timestamp,
    balance: "0",
    balance_extra_currencies: {},
    account_status: "nonexist",
    frozen_hash: null,
    code_hash: null,
    data_hash: null,
    code_boc: null,
    data_boc: null,
  };
}

/**
 * An Account cell (complete, or with pruned branches from a Merkle update) → AccountStateRow;
 * `bocs` false leaves the code/data BoCs out (null) without serialising them.
 */
export function accountRow(cell: Cell, base: AccountStateBase, bocs = true): AccountStateRow {
  return accountRowAndCells(cell, base, bocs).row;
}

/**
 * The BoC of a cell the update has with pruned branches below it; null when it is complete, itself
 * pruned (nothing but its hash to carry), or absent.
 */
function partialBoc(c: Cell | null): string | null {
  return c && c.type === CellType.Ordinary && c.level() > 0 ? bocB64(c) : null;
}

function accountRowAndCells(cell: Cell, base: AccountStateBase, bocs: boolean): { row: AccountStateRow; code: Cell | null; data: Cell | null } {
  const hash = b64(hash0(cell));
  const s = cell.beginParse();
  if (!s.loadBit()) return { row: nonexist(hash, base), code: null, data: null };
  const acc = loadAccount(s);
  const st = acc.storage.state;
  let status: AccountStatus = "uninit";
  let frozen_hash: string | null = null;
  let code: Cell | null = null;
  let data: Cell | null = null;
  if (st.type === "active") {
    status = "active";
    code = st.state.code ?? null;
    data = st.state.data ?? null;
  } else if (st.type === "frozen") {
    status = "frozen";
    frozen_hash = b64Big(st.stateHash);
  }
  const row: AccountStateRow = {
    hash,
    account: base.account,
    last_trans_hash: base.last_trans_hash,
    last_trans_lt: base.last_trans_lt,
    timestamp: base.timestamp,
    balance: acc.storage.balance.coins.toString(),
    balance_extra_currencies: extraCurrencies(acc.storage.balance),
    account_status: status,
    frozen_hash,
    code_hash: code ? b64(hash0(code)) : null,
    data_hash: data ? b64(hash0(data)) : null,
    code_boc: bocs && code && complete(code) ? bocB64(code) : null,
    data_boc: bocs && data && complete(data) ? bocB64(data) : null,
  };
  return { row, code, data };
}
