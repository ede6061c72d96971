// The Jettons queries over the decoder's tables (migrations/0001_tokens.sql of services/decoder),
// bounded by the decoder's checkpoint (`upTo`). Values travel as query parameters only.
import type { KeyTransferRow, KeyWalletRow } from "@tongate/store";
import { afterCursor, byOwners, eventOrder, inRanges, latestOf, limitOf, listedEvents, orderBy, type KeyKind } from "../decoded.js";
import type { Page } from "../params.js";
import { select, type Store, Where } from "../sql.js";
import type { BurnFilters, MasterFilters, TransferFilters, WalletFilters } from "./request.js";

export type MasterRow = {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  jetton_content: string;
  jetton_wallet_code_hash: string;
  custom_payload_api_uri: string[];
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
};

const MASTER_COLUMNS =
  "address, total_supply, mintable, admin_address, jetton_content, jetton_wallet_code_hash, custom_payload_api_uri, code_hash, data_hash, last_transaction_lt";

/** Masters in address order (toncenter's is insertion order, which the store does not keep). */
export async function masters(store: Store, f: MasterFilters, page: Page, upTo: number): Promise<MasterRow[]> {
  const keys = new Where("k");
  if (f.addresses.length) keys.add("address IN {}", ["Array(String)", f.addresses]);
  const w = new Where("w");
  if (f.admins.length) w.add("admin_address IN {}", ["Array(String)", f.admins]);
  afterCursor(w, "jetton/masters", page, ["address"], ["address"], true);
  return select<MasterRow>(
    store,
    `SELECT * FROM ${latestOf("jetton_masters", MASTER_COLUMNS, keys, upTo)} ${w.sql} ORDER BY address ${limitOf(w, page)}`,
    { ...keys.params, ...w.params },
  );
}

/** The custom_payload_api_uri of each mintless master among `jettons`. */
export async function mintlessUris(store: Store, jettons: readonly string[], upTo: number): Promise<Map<string, string[]>> {
  if (!jettons.length) return new Map();
  const rows = await select<{ address: string; uris: string[] }>(
    store,
    `SELECT address, argMax(custom_payload_api_uri, (last_transaction_lt, mc_seqno)) AS uris FROM jetton_masters
     WHERE address IN {a:Array(String)} AND mc_seqno <= {upTo:UInt32} GROUP BY address`,
    { a: [...new Set(jettons)], upTo },
  );
  return new Map(rows.map((r) => [r.address, r.uris]));
}

/** A wallet as a page renders it: the decoder's key-index row is the same shape (one renderer for both). */
export type WalletRow = Omit<KeyWalletRow, "verdict" | "mc_seqno">;

const WALLET_COLUMNS =
  "address, balance, owner, jetton, verdict, mintless_is_claimed, mintless_amount, mintless_start_from, mintless_expire_at, code_hash, data_hash, last_transaction_lt";

/** The order of a wallets page: by balance with `sort`, else by address; the address breaks ties. */
export function walletOrder(sort: string | undefined): { columns: string[]; kinds: KeyKind[]; asc: boolean } {
  return sort === undefined ? { columns: ["address"], kinds: ["address"], asc: true } : { columns: ["balance", "address"], kinds: ["uint128", "address"], asc: sort === "asc" };
}

/** Confirmed wallets (their master returns their address for their owner). */
export async function wallets(store: Store, f: WalletFilters, sort: string | undefined, page: Page, upTo: number): Promise<WalletRow[]> {
  const keys = new Where("k");
  if (f.addresses.length) keys.add("address IN {}", ["Array(String)", f.addresses]);
  if (f.owners.length) keys.add("owner IN {}", ["Array(String)", f.owners]);
  if (f.jettons.length) keys.add("jetton IN {}", ["Array(String)", f.jettons]);
  const w = new Where("w");
  w.add("verdict = 'confirmed'");
  // an unclaimed mintless airdrop counts as a balance (toncenter: balance + mintless_amount > 0)
  if (f.excludeZeroBalance) w.add("(balance > 0 OR (mintless_is_claimed = false AND ifNull(mintless_amount, 0) > 0))");
  const order = walletOrder(sort);
  afterCursor(w, "jetton/wallets", page, order.columns, order.kinds, order.asc);
  return select<WalletRow>(
    store,
    `SELECT * FROM ${latestOf("jetton_wallets", WALLET_COLUMNS, keys, upTo)} ${w.sql} ${orderBy(order.columns, order.asc)} ${limitOf(w, page)}`,
    { ...keys.params, ...w.params },
  );
}

export type TransferRow = Omit<KeyTransferRow, "confirmed">;

type EventRow = Omit<TransferRow, "source" | "destination" | "forward_ton_amount" | "forward_payload">;

export type BurnRow = EventRow & { owner: string };

const EVENT_COLUMNS =
  "transaction_hash, transaction_lt, transaction_now, transaction_aborted, query_id, amount, jetton_wallet, jetton_master, response_destination, custom_payload, trace_id";

/** Transfers of confirmed wallets, not aborted (toncenter drops aborted transfers too). */
export async function transfers(store: Store, f: TransferFilters, asc: boolean, page: Page, upTo: number): Promise<TransferRow[]> {
  const w = new Where();
  listedEvents(w, upTo);
  byOwners(w, f.owners, f.direction, "source", "destination");
  if (f.wallets.length) w.add("jetton_wallet IN {}", ["Array(String)", f.wallets]);
  if (f.master !== undefined) w.add("jetton_master = {}", ["String", f.master]);
  inRanges(w, f);
  const order = eventOrder(f);
  afterCursor(w, "jetton/transfers", page, order.columns, order.kinds, asc);
  return select<TransferRow>(
    store,
    `SELECT ${EVENT_COLUMNS}, source, destination, forward_ton_amount, forward_payload FROM jetton_transfers FINAL ${w.sql}
     ${orderBy(order.columns, asc)} ${limitOf(w, page)}`,
    w.params,
  );
}

/** Burns of confirmed wallets, not aborted (toncenter lists aborted burns: a burn that did not happen). */
export async function burns(store: Store, f: BurnFilters, asc: boolean, page: Page, upTo: number): Promise<BurnRow[]> {
  const w = new Where();
  listedEvents(w, upTo);
  if (f.owners.length) w.add("owner IN {}", ["Array(String)", f.owners]);
  if (f.wallets.length) w.add("jetton_wallet IN {}", ["Array(String)", f.wallets]);
  if (f.master !== undefined) w.add("jetton_master = {}", ["String", f.master]);
  inRanges(w, f);
  const order = eventOrder(f);
  afterCursor(w, "jetton/burns", page, order.columns, order.kinds, asc);
  return select<BurnRow>(
    store,
    `SELECT ${EVENT_COLUMNS}, owner FROM jetton_burns FINAL ${w.sql} ${orderBy(order.columns, asc)} ${limitOf(w, page)}`,
    w.params,
  );
}
