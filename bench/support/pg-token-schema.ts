// The PostgreSQL side of bench:v3-token-reads: toncenter's jetton tables as ton-indexer lays them
// out (ton-index-worker's migration: jetton_masters, mintless_jetton_masters, jetton_wallets,
// jetton_transfers, with their column types and domains) and the indexes of its create_indexes step
// (wallets by owner + id, jetton + id, id, jetton + balance, owner + balance; transfers by source
// and destination + lt and + now, by wallet, master, time and lt), plus what the address book reads
// (latest_account_states with its covering index, contract_methods with the get-method ids of the
// set's jetton codes, dns_entries left empty). Written here, not copied. Left out: jetton_transfers'
// foreign key to transactions (the set has no transactions table; a key checked on insert only).
//
// toncenter numbers wallets by `id` (bigserial, insertion order) and lists an owner's wallets by it;
// tongate lists them by address. The rows are inserted in address order, so both orders agree.
import { LATEST_STATE_COLUMNS, exportOf, type TableExport } from "./pg-schema.js";
import type { PgSchema } from "./pg-load.js";
import { CODE_METHODS } from "./token-set.js";

const TABLES = `
create domain tonhash as char(44);
create domain tonaddr as varchar;
create type account_status_type as enum ('uninit', 'frozen', 'active', 'nonexist');

create table jetton_masters (
  id bigserial not null, address tonaddr not null primary key, total_supply numeric, mintable boolean, admin_address tonaddr,
  jetton_content jsonb, jetton_wallet_code_hash tonhash, last_transaction_lt bigint, code_hash tonhash, data_hash tonhash
);

create table mintless_jetton_masters (id bigserial, address tonaddr not null primary key, is_indexed boolean, custom_payload_api_uri character varying[]);

create table jetton_wallets (
  id bigserial not null, address tonaddr not null primary key, balance numeric, owner tonaddr, jetton tonaddr,
  last_transaction_lt bigint, code_hash tonhash, data_hash tonhash,
  mintless_is_claimed boolean, mintless_amount numeric, mintless_start_from bigint, mintless_expire_at bigint
);

create table jetton_transfers (
  tx_hash tonhash not null, tx_lt bigint not null, tx_now integer not null, tx_aborted boolean not null, mc_seqno integer,
  query_id numeric, amount numeric, source tonaddr, destination tonaddr, jetton_wallet_address tonaddr, jetton_master_address tonaddr,
  response_destination tonaddr, custom_payload text, forward_ton_amount numeric, forward_payload text, trace_id tonhash,
  primary key (tx_hash, tx_lt)
);

create table latest_account_states (
  id bigserial not null, account tonaddr not null primary key, hash tonhash not null,
  balance bigint, balance_extra_currencies jsonb, account_status account_status_type, timestamp integer,
  last_trans_hash tonhash, last_trans_lt bigint, frozen_hash tonhash, data_hash tonhash, code_hash tonhash,
  data_boc text, code_boc text
) with (fillfactor = 70);

create table contract_methods (code_hash tonhash not null primary key, methods bigint[]);
${Object.entries(CODE_METHODS)
  .map(([hash, ids]) => `insert into contract_methods values ('${hash}', '{${ids.join(",")}}');`)
  .join("\n")}

create table dns_entries (
  nft_item_address tonaddr not null primary key, nft_item_owner tonaddr, domain varchar, dns_next_resolver tonaddr,
  dns_wallet tonaddr, dns_site_adnl tonhash, dns_storage_bag_id tonhash, last_transaction_lt bigint,
  destroyed boolean not null default false
) with (fillfactor = 70);
`;

const INDEXES = `
create index jetton_masters_index_1 on jetton_masters (admin_address, id);
create index jetton_masters_index_2 on jetton_masters (id);
create index jetton_wallets_index_1 on jetton_wallets (owner, id);
create index jetton_wallets_index_2 on jetton_wallets (jetton, id);
create index jetton_wallets_index_3 on jetton_wallets (id);
create index jetton_wallets_index_4 on jetton_wallets (jetton asc, balance desc);
create index jetton_wallets_index_5 on jetton_wallets (owner asc, balance desc);
create index jetton_transfers_index_1 on jetton_transfers (source, tx_now);
create index jetton_transfers_index_2 on jetton_transfers (source, tx_lt);
create index jetton_transfers_index_3 on jetton_transfers (destination, tx_lt);
create index jetton_transfers_index_4 on jetton_transfers (destination, tx_now);
create index jetton_transfers_index_6 on jetton_transfers (jetton_wallet_address, tx_lt);
create index jetton_transfers_index_7 on jetton_transfers (jetton_master_address, tx_now);
create index jetton_transfers_index_8 on jetton_transfers (jetton_master_address, tx_lt);
create index jetton_transfers_index_9 on jetton_transfers (tx_now, tx_lt);
create index jetton_transfers_index_10 on jetton_transfers (tx_lt);
create index latest_account_states_address_book_index on latest_account_states (account) include (code_hash, account_status);
create index dns_entries_index_4 on dns_entries (nft_item_owner, length(domain)) include (domain) where ((nft_item_owner)::text = (dns_wallet)::text);
`;

/**
 * A state table's latest listed rows, COPY'd into `<table>_load` (its columns without the id) and
 * moved into the table in address order by `staged` (a bigserial numbers rows as they are inserted).
 */
function numbered(table: string, columns: string[], listed: string): TableExport {
  const from = `${table} FINAL WHERE ${listed}`;
  return {
    table: `${table}_load`,
    columns,
    from,
    select: `SELECT ${columns.join(", ")} FROM ${from} AND cityHash64(address) % {parts:UInt32} = {part:UInt32}`,
  };
}

const staged = (table: string, columns: string[]) =>
  `insert into ${table} (${columns.join(", ")}) select ${columns.join(", ")} from ${table}_load order by address; drop table ${table}_load;`;

const WALLET_COLUMNS = [
  "address",
  "balance",
  "owner",
  "jetton",
  "last_transaction_lt",
  "code_hash",
  "data_hash",
  "mintless_is_claimed",
  "mintless_amount",
  "mintless_start_from",
  "mintless_expire_at",
];

const MASTER_COLUMNS = ["address", "total_supply", "mintable", "admin_address", "jetton_content", "jetton_wallet_code_hash", "last_transaction_lt", "code_hash", "data_hash"];

/** toncenter's jetton_transfers columns from the decoder's: [PostgreSQL column, chDB expression]. */
const TRANSFER_COLUMNS: [string, string][] = [
  ["tx_hash", "transaction_hash"],
  ["tx_lt", "transaction_lt"],
  ["tx_now", "transaction_now"],
  ["tx_aborted", "transaction_aborted"],
  ["mc_seqno", "mc_seqno"],
  ["query_id", "query_id"],
  ["amount", "amount"],
  ["source", "source"],
  ["destination", "destination"],
  ["jetton_wallet_address", "jetton_wallet"],
  ["jetton_master_address", "jetton_master"],
  ["response_destination", "response_destination"],
  ["custom_payload", "custom_payload"],
  ["forward_ton_amount", "forward_ton_amount"],
  ["forward_payload", "forward_payload"],
  ["trace_id", "trace_id"],
];

export const TOKEN_SCHEMA: PgSchema = {
  tables: `${TABLES}
create unlogged table jetton_wallets_load as select ${WALLET_COLUMNS.join(", ")} from jetton_wallets with no data;
create unlogged table jetton_masters_load as select ${MASTER_COLUMNS.join(", ")} from jetton_masters with no data;
`,
  after: [staged("jetton_wallets", WALLET_COLUMNS), staged("jetton_masters", MASTER_COLUMNS)].join("\n"),
  indexes: INDEXES,
  exports: [
    // what tongate lists: confirmed wallets and their events (the set has no others)
    numbered("jetton_wallets", WALLET_COLUMNS, "verdict = 'confirmed'"),
    numbered("jetton_masters", MASTER_COLUMNS, "1"),
    { ...exportOf("jetton_transfers", TRANSFER_COLUMNS, "jetton_transfers FINAL", "transaction_hash"), from: "jetton_transfers FINAL" },
    exportOf("latest_account_states", LATEST_STATE_COLUMNS, "latest_account_states FINAL", "account"),
  ],
};
