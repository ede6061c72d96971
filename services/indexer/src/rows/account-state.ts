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
// TODO(issue 6, shard state): full code/data BoCs of accounts whose code/data did not change need the
// shard state. Plan: keep the latest ShardStateUnsplit per shard (fetched once with
// liteServer.getState / getShardAccountCell at the start, then advanced with applyMerkleUpdate from
// @tongate/block per block), and fill code_boc/data_boc from it; cheaper for code: the store keeps
// code BoCs once by hash, so a pruned code whose hash is known needs nothing more. Until then null.
import { type Cell, CellType, loadAccount } from "@ton/core";
import { type Block, accountNoneCell, loadShardAccountsPartial } from "@tongate/block";
import type { AccountStateRow, AccountStatus, TransactionRow } from "./types.js";
import { b64, b64Big, bocB64, extraCurrencies, rawAddress } from "./util.js";

const SHARD_STATE_UNSPLIT = 0x9023afe2;

function hash0(c: Cell): Buffer {
  return c.hash(0);
}

/** A cell without pruned branches below it (level 0 inside the Merkle update) can be serialised. */
function complete(c: Cell): boolean {
  return c.type === CellType.Ordinary && c.level() === 0;
}

export function accountStateRows(block: Block, txs: TransactionRow[]): AccountStateRow[] {
  const workchain = block.info.shard.workchainId;
  const lastTx = new Map<string, TransactionRow>();
  for (const t of txs) lastTx.set(t.account, t);

  const root = block.stateUpdate.new;
  let accounts: ReturnType<typeof loadShardAccountsPartial>["accounts"] | null = null;
  try {
    if (root.type === CellType.Ordinary) {
      const s = root.beginParse();
      if (s.loadUint(32) === SHARD_STATE_UNSPLIT && root.refs.length >= 2 && root.refs[1].type === CellType.Ordinary) {
        accounts = loadShardAccountsPartial(root.refs[1].beginParse()).accounts;
      }
    }
  } catch {
    accounts = null;
  }
  const noneHash = accountNoneCell().hash();
  const out: AccountStateRow[] = [];
  const keys = [...block.extra.accountBlocks.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const key of keys) {
    const ab = block.extra.accountBlocks.get(key)!.value;
    const account = rawAddress(workchain, ab.accountAddr);
    const last = lastTx.get(account) ?? null;
    const base = {
      account,
      last_trans_hash: last ? last.hash : null,
      last_trans_lt: last ? last.lt : null,
      timestamp: last ? last.now : block.info.genUtime,
    };
    const entry = accounts?.get(key)?.value;
    if (!entry) {
      if (ab.stateUpdate.newHash.equals(noneHash)) out.push(nonexist(b64(noneHash), base));
      continue;
    }
    if (entry.account.type !== CellType.Ordinary) continue; // pruned (not expected for a changed account)
    out.push(accountRow(entry.account, base));
  }
  return out;
}

export type AccountStateBase = Pick<AccountStateRow, "account" | "last_trans_hash" | "last_trans_lt" | "timestamp">;

function nonexist(hash: string, base: AccountStateBase): AccountStateRow {
  return {
    hash,
    ...base,
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

/** An Account cell (complete, or with pruned branches from a Merkle update) → AccountStateRow. */
export function accountRow(cell: Cell, base: AccountStateBase): AccountStateRow {
  const hash = b64(hash0(cell));
  const s = cell.beginParse();
  if (!s.loadBit()) return nonexist(hash, base);
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
  return {
    hash,
    ...base,
    balance: acc.storage.balance.coins.toString(),
    balance_extra_currencies: extraCurrencies(acc.storage.balance),
    account_status: status,
    frozen_hash,
    code_hash: code ? b64(hash0(code)) : null,
    data_hash: data ? b64(hash0(data)) : null,
    code_boc: code && complete(code) ? bocB64(code) : null,
    data_boc: data && complete(data) ? bocB64(data) : null,
  };
}
