// Shared pieces of the v3 queries: a bound-parameter SQL builder, the parts every transaction
// object needs (messages, contents, account states) and the address book.
import { create } from "@bufbuild/protobuf";
import { type AddressBookRow, AddressBookRowSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { LruMap } from "@tongate/runtime";
import { walletByCodeHash } from "@tongate/contracts";
import { formatFriendly } from "@tongate/ton";
import type { MessageRow, TransactionStateRow } from "../../rows/types.js";
import type { StoredTransaction } from "../../store/queries.js";
import { select, type Store } from "../../store/store.js";
import { messageKey, type TransactionParts } from "../models.js";

/**
 * Point lookups in the tables whose rows never change once written (a re-inserted block writes the
 * same rows again) deduplicate with LIMIT 1 BY their key instead of FINAL: the same answer, without
 * FINAL's merge of every column of the selected granules (×4 faster on bench:indexer-queries).
 * Tables whose rows are versioned (latest_account_states, traces, checkpoints) are read with FINAL.
 */
export const ONCE_BY = {
  messages: "LIMIT 1 BY msg_hash, direction, tx_hash",
  account_states: "LIMIT 1 BY hash",
  message_contents: "LIMIT 1 BY hash",
} as const;

/**
 * WHERE conditions with their bound values. The SQL text is assembled only from fixed fragments of
 * this module's callers; every value travels as a query parameter.
 */
export class Where {
  readonly conds: string[] = [];
  readonly params: Record<string, unknown> = {};
  private n = 0;

  /** `prefix` keeps the parameter names of two builders of one query apart. */
  constructor(private readonly prefix = "p") {}

  /** Adds `sql` with `{}` placeholders replaced by fresh parameters of `type`, one per value. */
  add(sql: string, ...values: [type: string, value: unknown][]): this {
    let i = 0;
    this.conds.push(sql.replace(/\{\}/g, () => this.param(...values[i++]!)));
    return this;
  }

  /** A fresh parameter bound to `value`, as its `{name:Type}` placeholder. */
  param(type: string, value: unknown): string {
    const name = `${this.prefix}${this.n++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  get sql(): string {
    return this.conds.length ? `WHERE ${this.conds.join(" AND ")}` : "";
  }
}

/**
 * Everything the transaction objects of these rows need: their messages (stored with each row,
 * migrations/0004), the bodies/StateInits of those, the before/after account states, and the
 * address book of every account and message address. Each is a point lookup by key (embedded chDB
 * runs one query at a time, so a subquery that re-reads a table costs more than waiting for it).
 */
export async function transactionParts(
  store: Store,
  txs: readonly StoredTransaction[],
  { addressBook = true }: { addressBook?: boolean } = {},
): Promise<TransactionParts & { addressBook: Record<string, AddressBookRow> }> {
  if (!txs.length) return { messages: new Map(), contents: new Map(), states: new Map(), addressBook: {} };
  // the states stored with each row (migrations/0004); rows stored before it look theirs up
  const states = new Map<string, TransactionStateRow>();
  const stateHashes = new Set<string>();
  for (const t of txs) {
    if (t.states) {
      for (const s of JSON.parse(t.states) as TransactionStateRow[]) states.set(s.hash, s);
    } else {
      stateHashes.add(t.account_state_hash_before);
      stateHashes.add(t.account_state_hash_after);
    }
  }
  const accounts = [...new Set(txs.map((t) => t.account))];
  const messages = await messagesOf(store, txs);
  // the contents and the address book by the keys the messages name (a point lookup each)
  const addresses = new Set<string>(accounts);
  for (const x of messages) for (const a of [x.source, x.destination]) if (a) addresses.add(a);
  const codes: CodeHashLookup = !addressBook
    ? { found: new Map(), missing: [], at: 0 }
    : store.keys?.complete
      ? { found: store.keys.codeHashes(addresses), missing: [], at: 0 }
      : cachedCodeHashes(store, [...addresses]);
  const [looked, contents] = await Promise.all([statesAndCodes(store, accounts, [...stateHashes], codes.missing), contentsOf(store, messages)]);
  rememberCodeHashes(store, codes, looked.codeRows);
  for (const s of looked.states) states.set(s.hash, s);
  return {
    messages: new Map(messages.map((x) => [messageKey(x.msg_hash, x.direction, x.tx_hash), x])),
    contents,
    states,
    addressBook: addressBook ? bookOf(addresses, codes.found) : {},
  };
}

/**
 * The message rows of these transactions: from each row's `messages` column, and for rows stored
 * before migrations/0004 (the column is '') from `messages` by hash.
 */
async function messagesOf(store: Store, txs: readonly StoredTransaction[]): Promise<MessageRow[]> {
  const messages: MessageRow[] = [];
  const older = new Set<string>();
  for (const t of txs) {
    if (t.messages) {
      messages.push(...(JSON.parse(t.messages) as MessageRow[]));
    } else {
      if (t.in_msg_hash !== null) older.add(t.in_msg_hash);
      for (const h of t.out_msg_hashes) older.add(h);
    }
  }
  if (older.size) {
    const own = new Set(txs.map((t) => t.hash));
    for (const r of await messagesByHash(store, [...older])) if (own.has(r.tx_hash)) messages.push(r);
  }
  return messages;
}

/** Both stored sides (the rows in `messages`) of these messages. */
export function messagesByHash(store: Store, hashes: readonly string[]): Promise<MessageRow[]> {
  return select<MessageRow>(store, `SELECT * FROM messages WHERE msg_hash IN {h:Array(String)} ${ONCE_BY.messages}`, { h: hashes });
}

// The two branches of statesAndCodes: the fields a transaction shows of a state (TransactionStateRow),
// and an account's latest code hash in the same columns.
const STATES_BRANCH = `SELECT 'state' AS kind, hash, account, toString(balance) AS balance, balance_extra_currencies,
    toString(account_status) AS account_status, frozen_hash, code_hash, data_hash
  FROM (SELECT * FROM account_states WHERE account IN {a:Array(String)} AND hash IN {h:Array(String)} ${ONCE_BY.account_states})`;

const CODES_BRANCH = `SELECT 'code' AS kind, '' AS hash, account, '0' AS balance, CAST(map(), 'Map(String, UInt128)') AS balance_extra_currencies,
    '' AS account_status, CAST(NULL, 'Nullable(String)') AS frozen_hash, code_hash, CAST(NULL, 'Nullable(String)') AS data_hash
  FROM latest_account_states FINAL WHERE account IN {c:Array(String)}`;

type CodeRow = { account: string; code_hash: string | null };

/**
 * The before/after states of a page and the latest code hashes of the accounts the address book
 * still needs, in one query (UNION ALL; each query costs chDB a few ms before it reads anything).
 */
async function statesAndCodes(
  store: Store,
  accounts: readonly string[],
  stateHashes: readonly string[],
  codeAccounts: readonly string[],
): Promise<{ states: TransactionStateRow[]; codeRows: CodeRow[] }> {
  // only the branches with keys: a branch with an empty IN list still costs chDB its table read
  const branches = [stateHashes.length ? STATES_BRANCH : "", codeAccounts.length ? CODES_BRANCH : ""].filter(Boolean);
  if (!branches.length) return { states: [], codeRows: [] };
  const rows = await select<TransactionStateRow & CodeRow & { kind: "state" | "code" }>(store, branches.join("\nUNION ALL\n"), { a: accounts, h: stateHashes, c: codeAccounts });
  const states: TransactionStateRow[] = [];
  const codeRows: CodeRow[] = [];
  for (const { kind, ...r } of rows) {
    if (kind === "state") states.push(r);
    else codeRows.push(r);
  }
  return { states, codeRows };
}

/**
 * Bodies and StateInits by hash, kept in memory: a content is addressed by its own hash, so an
 * entry never goes stale, and the common ones (empty bodies, comments, wallet code) repeat.
 */
const contentCache = new LruMap<string, string>(20_000);
const CONTENT_CACHE_MAX_BYTES = 16 * 1024;

/** Bodies and StateInits of these messages by hash (base64 BoC). */
export async function contentsOf(store: Store, messages: readonly MessageRow[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const missing = new Set<string>();
  for (const m of messages) {
    for (const h of [m.body_hash, m.init_state_hash]) {
      if (h === null || out.has(h)) continue;
      const boc = contentCache.get(h);
      if (boc !== undefined) out.set(h, boc);
      else missing.add(h);
    }
  }
  if (!missing.size) return out;
  const rows = await select<{ hash: string; boc: string }>(store, `SELECT hash, boc FROM message_contents WHERE hash IN {h:Array(String)} ${ONCE_BY.message_contents}`, {
    h: [...missing],
  });
  for (const r of rows) {
    out.set(r.hash, r.boc);
    if (r.boc.length <= CONTENT_CACHE_MAX_BYTES) contentCache.set(r.hash, r.boc);
  }
  return out;
}

/**
 * The latest code hash per account, remembered for CODE_HASH_TTL_MS per store: the address book
 * only tells wallets and undeployed accounts from other contracts, which changes with a deploy or
 * a destruction, so an answer up to that old is good enough and saves a query per page.
 */
const CODE_HASH_TTL_MS = 2000;
const codeHashCache = new WeakMap<Store, LruMap<string, { code: string | null; at: number }>>();

interface CodeHashLookup {
  found: Map<string, string | null>;
  missing: string[];
  at: number;
}

/** The code hashes of these accounts the cache still has; the others are `missing`. */
function cachedCodeHashes(store: Store, accounts: readonly string[]): CodeHashLookup {
  let cache = codeHashCache.get(store);
  if (!cache) codeHashCache.set(store, (cache = new LruMap(50_000)));
  const at = Date.now();
  const found = new Map<string, string | null>();
  const missing: string[] = [];
  for (const a of accounts) {
    const hit = cache.get(a);
    if (hit && at - hit.at < CODE_HASH_TTL_MS) found.set(a, hit.code);
    else missing.push(a);
  }
  return { found, missing, at };
}

/** Completes a lookup with the rows read for its missing accounts (an absent row: no code). */
function rememberCodeHashes(store: Store, lookup: CodeHashLookup, rows: readonly CodeRow[]): void {
  if (!lookup.missing.length) return;
  const read = new Map(rows.map((r) => [r.account, r.code_hash]));
  const cache = codeHashCache.get(store)!;
  for (const a of lookup.missing) {
    const code = read.get(a) ?? null;
    lookup.found.set(a, code);
    cache.set(a, { code, at: lookup.at });
  }
}

/** code_hash of the latest state of each account (null: no code, or not indexed). */
export async function codeHashes(store: Store, accounts: readonly string[]): Promise<Map<string, string | null>> {
  // the key index is written with each block: current, no cache needed
  if (store.keys?.complete) return store.keys.codeHashes(accounts);
  const lookup = cachedCodeHashes(store, accounts);
  if (lookup.missing.length) rememberCodeHashes(store, lookup, (await statesAndCodes(store, [], [], lookup.missing)).codeRows);
  return lookup.found;
}

/** Wallet interfaces by toncenter's names (ton-index-go detect): "wallet v4 r2" → "wallet_v4r2". */
export const walletInterface = (type: string): string => type.replace(/^wallet /, "wallet_").replace(/ /g, "");

/**
 * toncenter's address_book for raw addresses: the user-friendly form is non-bounceable for
 * wallets and for accounts without code (not deployed), bounceable otherwise; the interfaces known
 * without the decoder are the wallets'. Keys are the addresses as given.
 */
export async function addressBook(store: Store, addresses: Iterable<string | null | undefined>): Promise<Record<string, AddressBookRow>> {
  const keys = [...new Set([...addresses].filter((a): a is string => !!a))];
  if (!keys.length) return {};
  return bookOf(keys, await codeHashes(store, keys));
}

/** The address book of `addresses` from their code hashes (an address without a latest state has no code). */
export function bookOf(addresses: Iterable<string | null | undefined>, codeHash: ReadonlyMap<string, string | null>): Record<string, AddressBookRow> {
  const book: Record<string, AddressBookRow> = {};
  for (const a of addresses) {
    if (!a || book[a]) continue;
    const [wc, hex] = a.split(":") as [string, string];
    const code = codeHash.get(a) ?? null;
    const wallet = walletByCodeHash(code);
    book[a] = create(AddressBookRowSchema, {
      userFriendly: formatFriendly(Number(wc), Buffer.from(hex, "hex"), { bounceable: code !== null && !wallet }),
      interfaces: wallet ? [walletInterface(wallet.type)] : [],
    });
  }
  return book;
}
