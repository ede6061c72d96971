// The decoder's rows, as its ClickHouse tables take them (store/migrations): JSONEachRow values,
// 64-bit and wider integers as strings, addresses raw `WC:HEX` upper-case.
import type { Address, Cell } from "@ton/core";
import type { TokenType } from "@tongate/contracts";

export type Verdict = "pending" | "confirmed" | "denied";

/** What every state row carries: the account's code and data, its last transaction, the decoded block. */
export interface StateVersion {
  code_hash: string;
  data_hash: string;
  last_transaction_lt: string;
  last_transaction_now: number;
  mc_seqno: number;
}

export interface AccountInterfacesRow {
  address: string;
  interfaces: string[];
  code_hash: string;
  last_transaction_lt: string;
  mc_seqno: number;
}

export interface JettonMasterRow extends StateVersion {
  address: string;
  total_supply: string;
  mintable: boolean;
  admin_address: string | null;
  jetton_content: string;
  jetton_wallet_code_hash: string;
  custom_payload_api_uri: string[];
}

export interface JettonWalletRow extends StateVersion {
  jetton: string;
  owner: string;
  address: string;
  balance: string;
  verdict: Verdict;
  mintless_is_claimed: boolean | null;
  mintless_amount: string | null;
  mintless_start_from: string | null;
  mintless_expire_at: string | null;
}

export interface NftCollectionRow extends StateVersion {
  address: string;
  next_item_index: string;
  owner_address: string | null;
  collection_content: string;
}

export interface NftItemRow extends StateVersion {
  collection_address: string;
  nft_index: string;
  address: string;
  init: boolean;
  owner_address: string;
  content: string;
  verdict: Verdict;
  on_sale: boolean;
  sale_contract_address: string | null;
  auction_contract_address: string | null;
  real_owner: string;
}

export interface NftSaleRow extends StateVersion {
  address: string;
  type: "getgems_sale" | "getgems_auction" | "telemint";
  nft_address: string;
  nft_owner_address: string | null;
  marketplace_address: string | null;
  created_at: number | null;
  is_complete: boolean | null;
  full_price: string | null;
  marketplace_fee_address: string | null;
  marketplace_fee: string | null;
  royalty_address: string | null;
  royalty_amount: string | null;
  end_flag: boolean | null;
  last_bid: string | null;
  last_member: string | null;
  min_step: string | null;
  mp_fee_address: string | null;
  mp_fee_factor: number | null;
  mp_fee_base: number | null;
  royalty_fee_address: string | null;
  royalty_fee_factor: number | null;
  royalty_fee_base: number | null;
  last_bid_at: number | null;
  is_canceled: boolean | null;
  min_bid: string | null;
  max_bid: string | null;
  end_time: number | null;
  token_name: string | null;
  bidder_address: string | null;
  bid: string | null;
  bid_ts: number | null;
  beneficiary_address: string | null;
  initial_min_bid: string | null;
  min_bid_step: number | null;
  min_extend_time: number | null;
  duration: number | null;
  royalty_numerator: number | null;
  royalty_denominator: number | null;
  royalty_destination: string | null;
}

/**
 * A token's TEP-64 content as its metadata is made from (0003_metadata.sql): a jetton master's, a
 * collection's, or an item's full content (its collection's common content joined), with the URI
 * it names ('' none) for the metadata worker.
 */
export interface TokenMetadataRow {
  address: string;
  type: TokenType;
  nft_index: string | null;
  content: string;
  uri: string;
  last_transaction_lt: string;
  mc_seqno: number;
}

/** What every event row carries: its transaction and the decoded block. */
export interface EventTransaction {
  transaction_lt: string;
  transaction_hash: string;
  transaction_now: number;
  transaction_aborted: boolean;
  mc_seqno: number;
  trace_id: string | null;
  confirmed: number;
}

export interface JettonTransferRow extends EventTransaction {
  jetton_master: string;
  jetton_wallet: string;
  query_id: string;
  amount: string;
  source: string;
  destination: string;
  response_destination: string | null;
  custom_payload: string | null;
  forward_ton_amount: string;
  forward_payload: string | null;
  comment: string | null;
}

export interface JettonBurnRow extends EventTransaction {
  jetton_master: string;
  jetton_wallet: string;
  query_id: string;
  owner: string;
  amount: string;
  response_destination: string | null;
  custom_payload: string | null;
}

export interface NftTransferRow extends EventTransaction {
  nft_collection: string;
  nft_address: string;
  query_id: string;
  nft_index: string;
  old_owner: string;
  new_owner: string;
  response_destination: string | null;
  custom_payload: string | null;
  forward_amount: string;
  forward_payload: string | null;
  comment: string | null;
}

/** A DeDust pool's assets (0005_dedust_pools.sql): null for TON, else the jetton master. */
export interface DedustPoolRow {
  address: string;
  asset_1: string | null;
  asset_2: string | null;
  is_stable: boolean;
  last_transaction_lt: string;
  mc_seqno: number;
}

/** What the decoder makes of a contract with a DeDust pool's code. */
export type DedustPoolVerdict = { verdict: "pending" | "denied" } | { verdict: "confirmed"; asset1: string | null; asset2: string | null; isStable: boolean };

/** Everything one decoded block writes, by table. */
export interface DecodedRows {
  account_interfaces: AccountInterfacesRow[];
  jetton_masters: JettonMasterRow[];
  jetton_wallets: JettonWalletRow[];
  nft_collections: NftCollectionRow[];
  nft_items: NftItemRow[];
  nft_sales: NftSaleRow[];
  dedust_pools: DedustPoolRow[];
  token_metadata: TokenMetadataRow[];
  jetton_transfers: JettonTransferRow[];
  jetton_burns: JettonBurnRow[];
  nft_transfers: NftTransferRow[];
}

export const emptyRows = (): DecodedRows => ({
  account_interfaces: [],
  jetton_masters: [],
  jetton_wallets: [],
  nft_collections: [],
  nft_items: [],
  nft_sales: [],
  dedust_pools: [],
  token_metadata: [],
  jetton_transfers: [],
  jetton_burns: [],
  nft_transfers: [],
});

/** Raw `WC:HEX` upper-case, as the indexer stores addresses. */
export const raw = (a: Address): string => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
export const rawOrNull = (a: Address | null | undefined): string | null => (a ? raw(a) : null);
export const bocOf = (c: Cell | null | undefined): string | null => (c ? c.toBoc().toString("base64") : null);
export const cellHashOf = (c: Cell): string => c.hash().toString("base64");
