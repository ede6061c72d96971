// The rows the decoder's key-index tables keep, in the shapes the ClickHouse path reads them (the
// columns services/indexer's api/jettons and api/nfts select, with ClickHouse's JSON types: 64-bit
// and wider integers as strings, Bool as booleans), so that one renderer makes both answers.
// Written from the decoder's rows or read back from ClickHouse (a rebuild): each is normalised
// field by field, in a fixed order, so that both give the same bytes.

export type Verdict = "pending" | "confirmed" | "denied";

export type KeyWalletRow = {
  address: string;
  balance: string;
  owner: string;
  jetton: string;
  verdict: Verdict;
  mintless_is_claimed: boolean | null;
  mintless_amount: string | null;
  mintless_start_from: string | null;
  mintless_expire_at: string | null;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
  mc_seqno: number;
};

export type KeyItemRow = {
  address: string;
  init: boolean;
  nft_index: string;
  collection_address: string;
  owner_address: string;
  content: string;
  verdict: Verdict;
  on_sale: boolean;
  sale_contract_address: string | null;
  auction_contract_address: string | null;
  real_owner: string;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
  mc_seqno: number;
};

export type KeyCollectionRow = {
  address: string;
  next_item_index: string;
  owner_address: string | null;
  collection_content: string;
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
  mc_seqno: number;
};

/** A jetton transfer as /jetton/transfers lists it, with what decides whether it is listed. */
export type KeyTransferRow = {
  transaction_hash: string;
  transaction_lt: string;
  transaction_now: number;
  transaction_aborted: boolean;
  query_id: string;
  amount: string;
  jetton_wallet: string;
  jetton_master: string;
  response_destination: string | null;
  custom_payload: string | null;
  trace_id: string | null;
  source: string;
  destination: string;
  forward_ton_amount: string;
  forward_payload: string | null;
  confirmed: number;
};

export type KeyInterfacesRow = {
  address: string;
  interfaces: string[];
  last_transaction_lt: string;
  mc_seqno: number;
};

/** A token's content as its metadata is made from (the decoder's token_metadata). */
export type KeyTokenRow = {
  address: string;
  type: string;
  nft_index: string | null;
  content: string;
  uri: string;
  last_transaction_lt: string;
  mc_seqno: number;
};

/** What fetching a content URI gave (the decoder's metadata_fetches): written as fetches end, not with blocks. */
export type KeyFetchRow = {
  uri: string;
  ok: boolean;
  json: string;
  reason: string;
  fetched_at: string;
};

export type ClassificationState = "unclassified" | "failed" | "ok" | "broken";

/**
 * An action as the decoder's `actions` table has it (its current row: `deleted` rows never reach the
 * key index): the columns the API filters on, and `row`, the whole action as @tongate/actions'
 * actionToJson wrote it.
 */
export type KeyActionRow = {
  trace_id: string;
  action_id: string;
  /** the masterchain block whose decoder step classified the trace */
  version: number;
  type: string;
  tx_hashes: string[];
  accounts: string[];
  success: boolean;
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  mc_seqno_end: number | null;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  trace_external_hash: string | null;
  trace_external_hash_norm: string | null;
  parent_action_id: string | null;
  ancestor_type: string[];
  row: string;
};

/** A trace's classification (the decoder's trace_classifications): its state and its actions' ids in the classifier's order. */
export type KeyClassificationRow = {
  trace_id: string;
  version: number;
  classification_state: ClassificationState;
  action_ids: string[];
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
};

/** One trace's classification with its actions: they replace whatever the tables held of the trace (of an older version). */
export type KeyTraceActions = { classification: KeyClassificationRow; actions: KeyActionRow[] };

/** What one decoded block (or one chunk of a rebuild) puts in the tables. */
export type DecodedKeyRows = {
  jettonWallets: KeyWalletRow[];
  jettonTransfers: KeyTransferRow[];
  nftItems: KeyItemRow[];
  nftCollections: KeyCollectionRow[];
  interfaces: KeyInterfacesRow[];
  tokens: KeyTokenRow[];
  /** absent in rows staged before the key index kept actions (read as none) */
  traces?: KeyTraceActions[];
};

export const emptyKeyRows = (): DecodedKeyRows => ({ jettonWallets: [], jettonTransfers: [], nftItems: [], nftCollections: [], interfaces: [], tokens: [], traces: [] });

// ClickHouse's JSON and the decoder's rows differ in small ways (a Bool read back as 1, a UInt32 as a
// string through some clients): each value is brought to the one form
const str = (v: unknown): string => String(v);
const strOrNull = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));
const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "true";
const boolOrNull = (v: unknown): boolean | null => (v === null || v === undefined ? null : bool(v));
const num = (v: unknown): number => Number(v);
const verdict = (v: unknown): Verdict => (v === "confirmed" || v === "denied" ? v : "pending");

/** A row as read (ClickHouse JSON, or the decoder's own): its columns of any type. */
type Loose<T> = { [K in keyof T]?: unknown };

export const walletRow = (r: Loose<KeyWalletRow>): KeyWalletRow => ({
  address: str(r.address),
  balance: str(r.balance),
  owner: str(r.owner),
  jetton: str(r.jetton),
  verdict: verdict(r.verdict),
  mintless_is_claimed: boolOrNull(r.mintless_is_claimed),
  mintless_amount: strOrNull(r.mintless_amount),
  mintless_start_from: strOrNull(r.mintless_start_from),
  mintless_expire_at: strOrNull(r.mintless_expire_at),
  code_hash: str(r.code_hash),
  data_hash: str(r.data_hash),
  last_transaction_lt: str(r.last_transaction_lt),
  mc_seqno: num(r.mc_seqno),
});

export const itemRow = (r: Loose<KeyItemRow>): KeyItemRow => ({
  address: str(r.address),
  init: bool(r.init),
  nft_index: str(r.nft_index),
  collection_address: str(r.collection_address),
  owner_address: str(r.owner_address),
  content: str(r.content),
  verdict: verdict(r.verdict),
  on_sale: bool(r.on_sale),
  sale_contract_address: strOrNull(r.sale_contract_address),
  auction_contract_address: strOrNull(r.auction_contract_address),
  real_owner: str(r.real_owner),
  code_hash: str(r.code_hash),
  data_hash: str(r.data_hash),
  last_transaction_lt: str(r.last_transaction_lt),
  mc_seqno: num(r.mc_seqno),
});

export const collectionRow = (r: Loose<KeyCollectionRow>): KeyCollectionRow => ({
  address: str(r.address),
  next_item_index: str(r.next_item_index),
  owner_address: strOrNull(r.owner_address),
  collection_content: str(r.collection_content),
  code_hash: str(r.code_hash),
  data_hash: str(r.data_hash),
  last_transaction_lt: str(r.last_transaction_lt),
  mc_seqno: num(r.mc_seqno),
});

export const transferRow = (r: Loose<KeyTransferRow>): KeyTransferRow => ({
  transaction_hash: str(r.transaction_hash),
  transaction_lt: str(r.transaction_lt),
  transaction_now: num(r.transaction_now),
  transaction_aborted: bool(r.transaction_aborted),
  query_id: str(r.query_id),
  amount: str(r.amount),
  jetton_wallet: str(r.jetton_wallet),
  jetton_master: str(r.jetton_master),
  response_destination: strOrNull(r.response_destination),
  custom_payload: strOrNull(r.custom_payload),
  trace_id: strOrNull(r.trace_id),
  source: str(r.source),
  destination: str(r.destination),
  forward_ton_amount: str(r.forward_ton_amount),
  forward_payload: strOrNull(r.forward_payload),
  confirmed: num(r.confirmed),
});

export const interfacesRow = (r: Loose<KeyInterfacesRow>): KeyInterfacesRow => ({
  address: str(r.address),
  interfaces: Array.isArray(r.interfaces) ? r.interfaces.map(str) : [],
  last_transaction_lt: str(r.last_transaction_lt),
  mc_seqno: num(r.mc_seqno),
});

export const tokenRow = (r: Loose<KeyTokenRow>): KeyTokenRow => ({
  address: str(r.address),
  type: str(r.type),
  nft_index: strOrNull(r.nft_index),
  content: str(r.content),
  uri: str(r.uri),
  last_transaction_lt: str(r.last_transaction_lt),
  mc_seqno: num(r.mc_seqno),
});

export const fetchRow = (r: Loose<KeyFetchRow>): KeyFetchRow => ({
  uri: str(r.uri),
  ok: bool(r.ok),
  json: str(r.json ?? ""),
  reason: str(r.reason ?? ""),
  fetched_at: str(r.fetched_at),
});

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);
const numOrNull = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const classificationState = (v: unknown): ClassificationState => (v === "failed" || v === "ok" || v === "broken" ? v : "unclassified");

export const actionRow = (r: Loose<KeyActionRow>): KeyActionRow => ({
  trace_id: str(r.trace_id),
  action_id: str(r.action_id),
  version: num(r.version),
  type: str(r.type),
  tx_hashes: strings(r.tx_hashes),
  accounts: strings(r.accounts),
  success: bool(r.success),
  start_lt: str(r.start_lt),
  end_lt: str(r.end_lt),
  start_utime: num(r.start_utime),
  end_utime: num(r.end_utime),
  mc_seqno_end: numOrNull(r.mc_seqno_end),
  trace_end_lt: str(r.trace_end_lt),
  trace_end_utime: num(r.trace_end_utime),
  trace_mc_seqno_end: num(r.trace_mc_seqno_end),
  trace_external_hash: strOrNull(r.trace_external_hash),
  trace_external_hash_norm: strOrNull(r.trace_external_hash_norm),
  parent_action_id: strOrNull(r.parent_action_id),
  ancestor_type: strings(r.ancestor_type),
  row: str(r.row),
});

export const classificationRow = (r: Loose<KeyClassificationRow>): KeyClassificationRow => ({
  trace_id: str(r.trace_id),
  version: num(r.version),
  classification_state: classificationState(r.classification_state),
  action_ids: strings(r.action_ids),
  trace_end_lt: str(r.trace_end_lt),
  trace_end_utime: num(r.trace_end_utime),
  trace_mc_seqno_end: num(r.trace_mc_seqno_end),
});

/** Columns of a row type (an unknown one fails the type check), as a SELECT list. */
const columns = <T>(names: (keyof T & string)[]): string => names.join(", ");

/** The columns each normaliser reads, for the queries of a rebuild. */
export const KEY_COLUMNS = {
  jetton_wallets: columns<KeyWalletRow>(["address", "balance", "owner", "jetton", "verdict", "mintless_is_claimed", "mintless_amount", "mintless_start_from", "mintless_expire_at", "code_hash", "data_hash", "last_transaction_lt", "mc_seqno"]),
  nft_items: columns<KeyItemRow>(["address", "init", "nft_index", "collection_address", "owner_address", "content", "verdict", "on_sale", "sale_contract_address", "auction_contract_address", "real_owner", "code_hash", "data_hash", "last_transaction_lt", "mc_seqno"]),
  nft_collections: columns<KeyCollectionRow>(["address", "next_item_index", "owner_address", "collection_content", "code_hash", "data_hash", "last_transaction_lt", "mc_seqno"]),
  jetton_transfers: columns<KeyTransferRow>([
    "transaction_hash", "transaction_lt", "transaction_now", "transaction_aborted", "query_id", "amount", "jetton_wallet", "jetton_master",
    "response_destination", "custom_payload", "trace_id", "source", "destination", "forward_ton_amount", "forward_payload", "confirmed",
  ]),
  account_interfaces: columns<KeyInterfacesRow>(["address", "interfaces", "last_transaction_lt", "mc_seqno"]),
  token_metadata: columns<KeyTokenRow>(["address", "type", "nft_index", "content", "uri", "last_transaction_lt", "mc_seqno"]),
  metadata_fetches: columns<KeyFetchRow>(["uri", "ok", "json", "reason", "fetched_at"]),
  actions: columns<KeyActionRow>([
    "trace_id", "action_id", "version", "type", "tx_hashes", "accounts", "success", "start_lt", "end_lt", "start_utime", "end_utime", "mc_seqno_end",
    "trace_end_lt", "trace_end_utime", "trace_mc_seqno_end", "trace_external_hash", "trace_external_hash_norm", "parent_action_id", "ancestor_type", "row",
  ]),
  trace_classifications: columns<KeyClassificationRow>(["trace_id", "version", "classification_state", "action_ids", "trace_end_lt", "trace_end_utime", "trace_mc_seqno_end"]),
};

