// Code and data BoCs of account states that a block's Merkle update prunes.
//
// A block carries only the cells its transactions changed: an account whose code or data did not
// change comes with their hashes but without their BoCs (rows/account-state.ts), and so does any
// cell that is anywhere in the old state — the code of a new jetton wallet or NFT item (its
// siblings have it), or a ref of a changed data cell (the wallet code a jetton wallet's data holds,
// an NFT item's content). Before the rows are stored, each missing BoC is taken from, in order:
//   0. the BoC cache: the code/data last seen for the account in rows this indexer stored or is
//      storing (a group of masterchain blocks is inserted at once, so a state of the group's
//      previous block is not in the store yet), when its hash is the same; or any code seen with
//      that hash (a contract deployed many times shares its code);
//   1. the cell as the update has it (rows' `partialBocs`), its pruned branches put back from code
//      seen by hash and from the account's previous code and data; kept only when the result
//      hashes to the row's hash;
//   2. the account's latest stored state, when its code/data hash is the same (the account was
//      seen before, by an earlier run, and kept its code/data);
//   3. the liteserver: the account's state in the masterchain block (liteServer.getAccountState),
//      used only when its code/data cell hashes to exactly the hash the block gave, so a BoC is
//      stored only if the block itself vouches for it.
// What none gives stays null (an account that changed again later in the same batch: its later
// row carries the state). The liteserver is the last resort: each call is a Merkle proof of the
// shard state for it, and on a chain of token transfers nearly every account state lacks a BoC,
// which 0 and 1 explain but for the first account of each code.
import { Cell, CellType, loadAccount } from "@ton/core";
import { LiteServerError } from "@tongate/liteclient";
import type { AccountStateRow, PartialBocs } from "../rows/types.js";
import { b64, bocB64, cellHash } from "../rows/util.js";
import { select, type Store } from "@tongate/store";
import { type BlockIdExt, type LiteClient, tlBlockId } from "./lite.js";

export interface AccountBocsOptions {
  /** liteserver calls at once (default 16) */
  concurrency?: number;
  timeoutMs?: number;
  /** code/data seen in earlier rows (filled and updated by each call) */
  cache?: AccountBocCache;
  /** the rows' code/data as the block has them, with pruned branches (BlockRows.partialBocs) */
  partials?: readonly PartialBocs[];
}

interface Boc {
  hash: string;
  boc: string;
}

/** A code BoC seen, and its cells once a pruned branch needed them. */
interface Code extends Boc {
  cell?: Cell;
}

/**
 * The latest code and data BoC seen per account, for the next blocks' pruned states: most states
 * that lack a BoC belong to an account of a recent block (a wallet keeps its code). And the code
 * seen, by hash: a new account's code is usually another's. Least recently seen accounts are
 * dropped beyond `maxAccounts`, codes beyond `maxCodes`.
 */
export class AccountBocCache {
  readonly #accounts = new Map<string, { code: Boc | null; data: Boc | null }>();
  readonly #codes = new Map<string, Code>();
  constructor(
    readonly maxAccounts = 100_000,
    readonly maxCodes = 4_096,
  ) {}

  get(account: string): { code: Boc | null; data: Boc | null } | undefined {
    return this.#accounts.get(account);
  }

  /** A code seen with this hash (base64). */
  code(hash: string): Code | undefined {
    const c = this.#codes.get(hash);
    if (c) touch(this.#codes, hash, c);
    return c;
  }

  /** Records the BoCs `rows` carry (in order: a later row of an account wins). */
  remember(rows: readonly AccountStateRow[]): void {
    for (const r of rows) {
      const prev = this.#accounts.get(r.account);
      const code = r.code_hash !== null && r.code_boc !== null ? { hash: r.code_hash, boc: r.code_boc } : (prev?.code ?? null);
      const data = r.data_hash !== null && r.data_boc !== null ? { hash: r.data_hash, boc: r.data_boc } : (prev?.data ?? null);
      touch(this.#accounts, r.account, { code, data });
      if (code && !this.#codes.has(code.hash)) this.#codes.set(code.hash, { hash: code.hash, boc: code.boc });
    }
    trim(this.#accounts, this.maxAccounts);
    trim(this.#codes, this.maxCodes);
  }
}

/** Moves `key` to the end (Map order is recency). */
function touch<V>(m: Map<string, V>, key: string, value: V): void {
  m.delete(key);
  m.set(key, value);
}

function trim(m: Map<string, unknown>, max: number): void {
  for (const oldest of m.keys()) {
    if (m.size <= max) break;
    m.delete(oldest);
  }
}

const fromB64Boc = (boc: string): Cell => Cell.fromBoc(Buffer.from(boc, "base64"))[0]!;

/** Every cell of a tree by its hash (base64). */
function cellsByHash(root: Cell, into: Map<string, Cell>): void {
  const key = cellHash(root);
  if (into.has(key)) return;
  into.set(key, root);
  for (const r of root.refs) cellsByHash(r, into);
}

/**
 * The complete cell of a partial one (a cell of the update, with pruned branches): each pruned
 * branch replaced by the cell `find` has for its hash; null when one is unknown.
 */
function unprune(c: Cell, find: (hash: string) => Cell | undefined): Cell | null {
  if (c.level() === 0) return c;
  if (c.type === CellType.PrunedBranch) return find(b64(c.hash(0))) ?? null;
  if (c.type !== CellType.Ordinary) return null;
  const refs: Cell[] = [];
  for (const r of c.refs) {
    const full = unprune(r, find);
    if (!full) return null;
    refs.push(full);
  }
  return new Cell({ bits: c.bits, refs });
}

/**
 * Fills `r`'s missing code/data from the cells the update has of them (`partial`): their pruned
 * branches are code seen by hash, or cells of the account's previous code and data.
 */
function completeFromPartial(r: AccountStateRow, partial: PartialBocs, cache: AccountBocCache): void {
  let own: Map<string, Cell> | undefined;
  const find = (hash: string): Cell | undefined => {
    const code = cache.code(hash);
    if (code) return (code.cell ??= fromB64Boc(code.boc));
    if (!own) {
      own = new Map();
      const prev = cache.get(r.account);
      for (const b of [prev?.code, prev?.data]) if (b) cellsByHash(fromB64Boc(b.boc), own);
    }
    return own.get(hash);
  };
  const complete = (boc: string | null, hash: string | null): string | null => {
    if (boc === null || hash === null) return null;
    const full = unprune(fromB64Boc(boc), find);
    // the block vouches for the hash: a cell that hashes to it is the one
    return full && cellHash(full) === hash ? bocB64(full) : null;
  };
  if (r.code_boc === null) r.code_boc = complete(partial.code, r.code_hash);
  if (r.data_boc === null) r.data_boc = complete(partial.data, r.data_hash);
}

type Missing = AccountStateRow & { code_hash: string | null; data_hash: string | null };

const lacks = (r: AccountStateRow): boolean => (r.code_hash !== null && r.code_boc === null) || (r.data_hash !== null && r.data_boc === null);

function fill(r: AccountStateRow, code: { hash: string; boc: string } | null, data: { hash: string; boc: string } | null): void {
  if (r.code_boc === null && code && code.hash === r.code_hash) r.code_boc = code.boc;
  if (r.data_boc === null && data && data.hash === r.data_hash) r.data_boc = data.boc;
}

/** Fills the missing code/data BoCs of `rows` in place (see the module comment). */
export async function completeAccountBocs(lite: LiteClient, store: Store, mcBlock: BlockIdExt, rows: AccountStateRow[], options: AccountBocsOptions = {}): Promise<void> {
  const cache = options.cache ?? new AccountBocCache();
  const partials = new Map((options.partials ?? []).map((p) => [p.state, p]));
  // in order, so that a row also takes what an earlier row of the same batch carried
  for (const r of rows) {
    if (lacks(r)) {
      const c = cache.get(r.account);
      if (c) fill(r, c.code, c.data);
      if (r.code_boc === null && r.code_hash !== null) fill(r, cache.code(r.code_hash) ?? null, null);
      const partial = partials.get(r.hash);
      if (partial && lacks(r)) completeFromPartial(r, partial, cache);
    }
    cache.remember([r]);
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
  cache.remember(rows);
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
