// Code and data BoCs of account states that a block's Merkle update prunes.
//
// A block carries only the cells its transactions changed: an account whose code or data did not
// change comes with their hashes but without their BoCs (rows/account-state.ts). Before the rows
// are stored, each missing BoC is taken from, in order:
//   0. the BoC cache: the code/data last seen for the account in rows this indexer stored or is
//      storing (a group of masterchain blocks is inserted at once, so a state of the group's
//      previous block is not in the store yet), when its hash is the same;
//   1. the account's latest stored state, when its code/data hash is the same (the account was
//      seen before, by an earlier run, and kept its code/data);
//   2. the liteserver: the account's state in the masterchain block (liteServer.getAccountState),
//      used only when its code/data cell hashes to exactly the hash the block gave, so a BoC is
//      stored only if the block itself vouches for it.
// What neither gives stays null (an account that changed again later in the same batch: its later
// row carries the state). One liteserver call per account seen for the first time.
import { Cell, loadAccount } from "@ton/core";
import { LiteServerError } from "@tongate/liteclient";
import type { AccountStateRow } from "../rows/types.js";
import { bocB64, cellHash } from "../rows/util.js";
import { select, type Store } from "@tongate/store";
import { type BlockIdExt, type LiteClient, tlBlockId } from "./lite.js";

export interface AccountBocsOptions {
  /** liteserver calls at once (default 16) */
  concurrency?: number;
  timeoutMs?: number;
  /** code/data seen in earlier rows (filled and updated by each call) */
  cache?: AccountBocCache;
}

interface Boc {
  hash: string;
  boc: string;
}

/**
 * The latest code and data BoC seen per account, for the next blocks' pruned states: most states
 * that lack a BoC belong to an account of a recent block (a wallet keeps its code). Least recently
 * seen accounts are dropped beyond `maxAccounts`.
 */
export class AccountBocCache {
  readonly #accounts = new Map<string, { code: Boc | null; data: Boc | null }>();
  constructor(readonly maxAccounts = 100_000) {}

  get(account: string): { code: Boc | null; data: Boc | null } | undefined {
    return this.#accounts.get(account);
  }

  /** Records the BoCs `rows` carry (in order: a later row of an account wins). */
  remember(rows: readonly AccountStateRow[]): void {
    for (const r of rows) {
      const prev = this.#accounts.get(r.account);
      const code = r.code_hash !== null && r.code_boc !== null ? { hash: r.code_hash, boc: r.code_boc } : (prev?.code ?? null);
      const data = r.data_hash !== null && r.data_boc !== null ? { hash: r.data_hash, boc: r.data_boc } : (prev?.data ?? null);
      this.#accounts.delete(r.account); // re-inserted last: Map order is recency
      this.#accounts.set(r.account, { code, data });
    }
    for (const oldest of this.#accounts.keys()) {
      if (this.#accounts.size <= this.maxAccounts) break;
      this.#accounts.delete(oldest);
    }
  }
}

type Missing = AccountStateRow & { code_hash: string | null; data_hash: string | null };

const lacks = (r: AccountStateRow): boolean => (r.code_hash !== null && r.code_boc === null) || (r.data_hash !== null && r.data_boc === null);

function fill(r: AccountStateRow, code: { hash: string; boc: string } | null, data: { hash: string; boc: string } | null): void {
  if (r.code_boc === null && code && code.hash === r.code_hash) r.code_boc = code.boc;
  if (r.data_boc === null && data && data.hash === r.data_hash) r.data_boc = data.boc;
}

/** Fills the missing code/data BoCs of `rows` in place (see the module comment). */
export async function completeAccountBocs(lite: LiteClient, store: Store, mcBlock: BlockIdExt, rows: AccountStateRow[], options: AccountBocsOptions = {}): Promise<void> {
  const cache = options.cache;
  // in order, so that a row also takes what an earlier row of the same batch carried
  if (cache) {
    for (const r of rows) {
      const c = lacks(r) ? cache.get(r.account) : undefined;
      if (c) fill(r, c.code, c.data);
      cache.remember([r]);
    }
  }
  const missing = rows.filter(lacks) as Missing[];
  if (!missing.length) return;
  const accounts = [...new Set(missing.map((r) => r.account))];
  const latest = await select<{ account: string; code_hash: string | null; code_boc: string | null; data_hash: string | null; data_boc: string | null }>(
    store,
    "SELECT account, code_hash, code_boc, data_hash, data_boc FROM latest_account_states FINAL WHERE account IN {a:Array(String)}",
    { a: accounts },
  );
  const known = new Map(latest.map((l) => [l.account, l]));
  for (const r of missing) {
    const l = known.get(r.account);
    if (l) fill(r, l.code_hash && l.code_boc ? { hash: l.code_hash, boc: l.code_boc } : null, l.data_hash && l.data_boc ? { hash: l.data_hash, boc: l.data_boc } : null);
  }
  const ask = [...new Set(missing.filter(lacks).map((r) => r.account))];
  const concurrency = options.concurrency ?? 16;
  for (let i = 0; i < ask.length; i += concurrency) {
    await Promise.all(
      ask.slice(i, i + concurrency).map(async (account) => {
        const state = await liteAccountCells(lite, mcBlock, account, options.timeoutMs);
        if (!state) return;
        for (const r of missing) if (r.account === account) fill(r, state.code, state.data);
      }),
    );
  }
  cache?.remember(rows);
}

/** The code and data of an account's state in a masterchain block, as hash and base64 BoC. */
async function liteAccountCells(
  lite: LiteClient,
  mcBlock: BlockIdExt,
  account: string,
  timeoutMs?: number,
): Promise<{ code: { hash: string; boc: string } | null; data: { hash: string; boc: string } | null } | undefined> {
  const [wc, hex] = account.split(":") as [string, string];
  let r;
  try {
    r = await lite.query(
      { kind: "liteServer.getAccountState", id: tlBlockId(mcBlock), account: { kind: "liteServer.accountId", workchain: Number(wc), id: Buffer.from(hex, "hex") } },
      { timeoutMs },
    );
  } catch (e) {
    // A non-archival liteserver no longer has the state of an old block (TON's "state already
    // gc'd"): the code and data stay unfilled, as the block left them, and indexing goes on.
    if (e instanceof LiteServerError && /state already gc'd/.test(e.message)) return undefined;
    throw e;
  }
  if (!r.state?.length) return undefined;
  // Account: account_none$0, or account$1 and its fields
  const slice = Cell.fromBoc(Buffer.from(r.state))[0]!.beginParse();
  if (!slice.loadBit()) return undefined;
  const acc = loadAccount(slice);
  const st = acc.storage.state;
  if (st.type !== "active") return undefined;
  // the same BoC form as the rows' own (rows/util.ts)
  const cell = (c: Cell | null | undefined) => (c ? { hash: cellHash(c), boc: bocB64(c) } : null);
  return { code: cell(st.state.code), data: cell(st.state.data) };
}
