// Shared pieces of the v3 queries: a bound-parameter SQL builder, the parts every transaction
// object needs (messages, contents, account states) and the address book.
import { create } from "@bufbuild/protobuf";
import { type AddressBookRow, AddressBookRowSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { formatFriendly, walletByCodeHash } from "@tongate/ton";
import type { AccountStateRow, MessageRow } from "../../rows/types.js";
import type { StoredTransaction } from "../../store/queries.js";
import type { Store } from "../../store/store.js";
import { messageKey, type TransactionParts } from "../models.js";

export async function select<T>(store: Store, query: string, query_params: Record<string, unknown>): Promise<T[]> {
  const rs = await store.client.query({ query, query_params, format: "JSONEachRow" });
  return rs.json<T>();
}

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
    this.conds.push(
      sql.replace(/\{\}/g, () => {
        const [type, value] = values[i++]!;
        const name = `${this.prefix}${this.n++}`;
        this.params[name] = value;
        return `{${name}:${type}}`;
      }),
    );
    return this;
  }

  param(type: string, value: unknown): string {
    const name = `${this.prefix}${this.n++}`;
    this.params[name] = value;
    return `{${name}:${type}}`;
  }

  get sql(): string {
    return this.conds.length ? `WHERE ${this.conds.join(" AND ")}` : "";
  }
}

/** Messages, their bodies/StateInits and the before/after account states of these transactions. */
export async function transactionParts(store: Store, txs: readonly StoredTransaction[]): Promise<TransactionParts> {
  const msgHashes = new Set<string>();
  const stateHashes = new Set<string>();
  for (const t of txs) {
    if (t.in_msg_hash !== null) msgHashes.add(t.in_msg_hash);
    for (const h of t.out_msg_hashes) msgHashes.add(h);
    stateHashes.add(t.account_state_hash_before);
    stateHashes.add(t.account_state_hash_after);
  }
  const txHashes = txs.map((t) => t.hash);
  const [messages, states] = await Promise.all([
    msgHashes.size
      ? select<MessageRow>(store, "SELECT * FROM messages FINAL WHERE msg_hash IN {m:Array(String)} AND tx_hash IN {t:Array(String)}", {
          m: [...msgHashes],
          t: txHashes,
        })
      : Promise.resolve([]),
    stateHashes.size
      ? select<AccountStateRow>(
          store,
          `SELECT hash, account, balance, balance_extra_currencies, account_status, frozen_hash, code_hash, data_hash,
                  NULL AS code_boc, NULL AS data_boc, last_trans_hash, last_trans_lt, timestamp
           FROM account_states FINAL WHERE hash IN {h:Array(String)}`,
          { h: [...stateHashes] },
        )
      : Promise.resolve([]),
  ]);
  return {
    messages: new Map(messages.map((m) => [messageKey(m.msg_hash, m.direction, m.tx_hash), m])),
    contents: await messageContents(store, messages),
    states: new Map(states.map((s) => [s.hash, s])),
  };
}

/** Bodies and StateInits of these messages by hash (base64 BoC). */
export async function messageContents(store: Store, messages: readonly MessageRow[]): Promise<Map<string, string>> {
  const hashes = new Set<string>();
  for (const m of messages) {
    hashes.add(m.body_hash);
    if (m.init_state_hash !== null) hashes.add(m.init_state_hash);
  }
  if (!hashes.size) return new Map();
  const rows = await select<{ hash: string; boc: string }>(store, "SELECT hash, boc FROM message_contents FINAL WHERE hash IN {h:Array(String)}", { h: [...hashes] });
  return new Map(rows.map((r) => [r.hash, r.boc]));
}

/** Wallet interfaces by toncenter's names (ton-index-go detect): "wallet v4 r2" → "wallet_v4r2". */
export const walletInterface = (type: string): string => type.replace(/^wallet /, "wallet_").replace(/ /g, "");

/**
 * toncenter's address_book for raw addresses: the user-friendly form is non-bounceable for
 * wallets and for accounts without code (not deployed), bounceable otherwise; the interfaces known
 * without the decoder are the wallets'. Keys are the addresses as given.
 */
export async function addressBook(store: Store, addresses: Iterable<string | null | undefined>, testnet = false): Promise<Record<string, AddressBookRow>> {
  const keys = new Set<string>();
  for (const a of addresses) if (a) keys.add(a);
  if (!keys.size) return {};
  const rows = await select<{ account: string; code_hash: string | null }>(
    store,
    "SELECT account, code_hash FROM latest_account_states FINAL WHERE account IN {a:Array(String)}",
    { a: [...keys] },
  );
  const codeHash = new Map(rows.map((r) => [r.account, r.code_hash]));
  const book: Record<string, AddressBookRow> = {};
  for (const a of keys) {
    const [wc, hex] = a.split(":") as [string, string];
    const code = codeHash.get(a) ?? null;
    const wallet = walletByCodeHash(code);
    book[a] = create(AddressBookRowSchema, {
      userFriendly: formatFriendly(Number(wc), Buffer.from(hex, "hex"), { bounceable: code !== null && !wallet, testOnly: testnet }),
      interfaces: wallet ? [walletInterface(wallet.type)] : [],
    });
  }
  return book;
}
