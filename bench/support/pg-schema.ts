// The PostgreSQL side of bench:v3-reads: toncenter's store as ton-indexer lays it out (its
// ton-index-worker migration, v1.3: the five tables an API v3 transaction page reads, with its
// column types, domains, enums and partitioning) and the indexes of its create_indexes step on the
// same access paths tongate serves: account + lt, transaction hash, message hash, source/destination
// + created_lt, state hash, latest state by account (with the address book's covering index).
// Written here, not copied: only what the page reads, plus the two small tables ton-index-go's
// address book joins (contract_methods, dns_entries), left empty as in an index without them filled.
//
// `exports` says how each table is filled from the chDB set: one SELECT per table whose columns are
// the PostgreSQL table's, in order, as TabSeparated text (its escapes and \N are COPY's text format).

export const TABLES = `
create domain tonhash as char(44);
create domain tonaddr as varchar;
create domain tonbytes as text;
create type account_status_type as enum ('uninit', 'frozen', 'active', 'nonexist');
create type descr_type as enum ('ord', 'storage', 'tick_tock', 'split_prepare', 'split_install', 'merge_prepare', 'merge_install');
create type msg_direction as enum ('out', 'in');
create type skipped_reason_type as enum ('no_state', 'bad_state', 'no_gas', 'suspended');
create type status_change_type as enum ('unchanged', 'frozen', 'deleted');
create type bounce_type as enum ('negfunds', 'nofunds', 'ok');

create table transactions (
  account tonaddr not null, hash tonhash not null, lt bigint not null,
  block_workchain integer, block_shard bigint, block_seqno integer, mc_block_seqno integer not null,
  trace_id tonhash, prev_trans_hash tonhash, prev_trans_lt bigint, now integer,
  orig_status account_status_type, end_status account_status_type,
  total_fees bigint, total_fees_extra_currencies jsonb,
  account_state_hash_before tonhash, account_state_hash_after tonhash,
  descr descr_type, aborted boolean, destroyed boolean, credit_first boolean, is_tock boolean, installed boolean,
  storage_fees_collected bigint, storage_fees_due bigint, storage_status_change status_change_type,
  credit_due_fees_collected bigint, credit bigint, credit_extra_currencies jsonb,
  compute_skipped boolean, skipped_reason skipped_reason_type, compute_success boolean, compute_msg_state_used boolean,
  compute_account_activated boolean, compute_gas_fees bigint, compute_gas_used bigint, compute_gas_limit bigint,
  compute_gas_credit bigint, compute_mode smallint, compute_exit_code integer, compute_exit_arg integer,
  compute_vm_steps bigint, compute_vm_init_state_hash tonhash, compute_vm_final_state_hash tonhash,
  action_success boolean, action_valid boolean, action_no_funds boolean, action_status_change status_change_type,
  action_total_fwd_fees bigint, action_total_action_fees bigint, action_result_code int, action_result_arg int,
  action_tot_actions int, action_spec_actions int, action_skipped_actions int, action_msgs_created int,
  action_action_list_hash tonhash, action_tot_msg_size_cells bigint, action_tot_msg_size_bits bigint,
  bounce bounce_type, bounce_msg_size_cells bigint, bounce_msg_size_bits bigint, bounce_req_fwd_fees bigint,
  bounce_msg_fees bigint, bounce_fwd_fees bigint,
  split_info_cur_shard_pfx_len int, split_info_acc_split_depth int, split_info_this_addr tonhash, split_info_sibling_addr tonhash,
  primary key (hash, lt, mc_block_seqno)
) partition by range (mc_block_seqno);
create table transactions_default partition of transactions default;

create table messages (
  tx_hash tonhash, tx_lt bigint, mc_seqno integer not null, msg_hash tonhash, msg_hash_norm tonhash,
  direction msg_direction, trace_id tonhash, source tonaddr, destination tonaddr,
  value bigint, value_extra_currencies jsonb, fwd_fee bigint, ihr_fee bigint, extra_flags numeric,
  created_lt bigint, created_at bigint, opcode integer, ihr_disabled boolean, bounce boolean, bounced boolean,
  import_fee bigint, body_hash tonhash, init_state_hash tonhash,
  primary key (tx_hash, tx_lt, msg_hash, direction, mc_seqno)
) partition by range (mc_seqno);
create table messages_default partition of messages default;

create table message_contents (hash tonhash not null primary key, body tonbytes);

create table account_states (
  hash tonhash not null primary key, account tonaddr, balance bigint, balance_extra_currencies jsonb,
  account_status account_status_type, frozen_hash tonhash, data_hash tonhash, code_hash tonhash
);

create table latest_account_states (
  id bigserial not null, account tonaddr not null primary key, hash tonhash not null,
  balance bigint, balance_extra_currencies jsonb, account_status account_status_type, timestamp integer,
  last_trans_hash tonhash, last_trans_lt bigint, frozen_hash tonhash, data_hash tonhash, code_hash tonhash,
  data_boc tonbytes, code_boc tonbytes
) with (fillfactor = 70);

create table contract_methods (code_hash tonhash not null primary key, methods bigint[]);

create table dns_entries (
  nft_item_address tonaddr not null primary key, nft_item_owner tonaddr, domain varchar, dns_next_resolver tonaddr,
  dns_wallet tonaddr, dns_site_adnl tonhash, dns_storage_bag_id tonhash, last_transaction_lt bigint,
  destroyed boolean not null default false
) with (fillfactor = 70);
`;

/** Built after the rows are copied in (faster than maintaining them row by row), as ton-indexer's create_indexes step does. */
export const INDEXES = `
create index transactions_index_4 on transactions (account, lt);
create index transactions_index_6 on transactions (hash);
create index messages_index_1 on messages (msg_hash);
create index messages_index_3 on messages (source, created_lt);
create index messages_index_7 on messages (destination, created_lt);
create index latest_account_states_address_book_index on latest_account_states (account) include (code_hash, account_status);
create index dns_entries_index_2 on dns_entries (nft_item_owner, length(domain)) include (domain) where ((nft_item_owner)::text = (dns_wallet)::text);
`;

/** A description field (JSON path) as text: its raw JSON without the quotes of a string, \N when absent. */
const d = (...path: string[]) => `nullIf(trim(BOTH '"' FROM JSONExtractRaw(description, ${path.map((p) => `'${p}'`).join(", ")})), '')`;

/** The transaction columns of ton-indexer from tongate's row: the description object flattened into its columns. */
const TRANSACTION_COLUMNS: [string, string][] = [
  ["account", "account"],
  ["hash", "hash"],
  ["lt", "lt"],
  ["block_workchain", "block_workchain"],
  ["block_shard", "block_shard"],
  ["block_seqno", "block_seqno"],
  ["mc_block_seqno", "mc_seqno"],
  ["trace_id", "trace_id"],
  ["prev_trans_hash", "prev_trans_hash"],
  ["prev_trans_lt", "prev_trans_lt"],
  ["now", "now"],
  ["orig_status", "orig_status"],
  ["end_status", "end_status"],
  ["total_fees", "total_fees"],
  ["total_fees_extra_currencies", "toJSONString(total_fees_extra_currencies)"],
  ["account_state_hash_before", "account_state_hash_before"],
  ["account_state_hash_after", "account_state_hash_after"],
  ["descr", d("type")],
  ["aborted", d("aborted")],
  ["destroyed", d("destroyed")],
  ["credit_first", d("credit_first")],
  ["is_tock", d("is_tock")],
  ["installed", d("installed")],
  ["storage_fees_collected", d("storage_ph", "storage_fees_collected")],
  ["storage_fees_due", d("storage_ph", "storage_fees_due")],
  ["storage_status_change", d("storage_ph", "status_change")],
  ["credit_due_fees_collected", d("credit_ph", "due_fees_collected")],
  ["credit", d("credit_ph", "credit")],
  ["credit_extra_currencies", `ifNull(${d("credit_ph", "credit_extra_currencies")}, '{}')`],
  ["compute_skipped", d("compute_ph", "skipped")],
  ["skipped_reason", d("compute_ph", "reason")],
  ["compute_success", d("compute_ph", "success")],
  ["compute_msg_state_used", d("compute_ph", "msg_state_used")],
  ["compute_account_activated", d("compute_ph", "account_activated")],
  ["compute_gas_fees", d("compute_ph", "gas_fees")],
  ["compute_gas_used", d("compute_ph", "gas_used")],
  ["compute_gas_limit", d("compute_ph", "gas_limit")],
  ["compute_gas_credit", d("compute_ph", "gas_credit")],
  ["compute_mode", d("compute_ph", "mode")],
  ["compute_exit_code", d("compute_ph", "exit_code")],
  ["compute_exit_arg", d("compute_ph", "exit_arg")],
  ["compute_vm_steps", d("compute_ph", "vm_steps")],
  ["compute_vm_init_state_hash", d("compute_ph", "vm_init_state_hash")],
  ["compute_vm_final_state_hash", d("compute_ph", "vm_final_state_hash")],
  ["action_success", d("action", "success")],
  ["action_valid", d("action", "valid")],
  ["action_no_funds", d("action", "no_funds")],
  ["action_status_change", d("action", "status_change")],
  ["action_total_fwd_fees", d("action", "total_fwd_fees")],
  ["action_total_action_fees", d("action", "total_action_fees")],
  ["action_result_code", d("action", "result_code")],
  ["action_result_arg", d("action", "result_arg")],
  ["action_tot_actions", d("action", "tot_actions")],
  ["action_spec_actions", d("action", "spec_actions")],
  ["action_skipped_actions", d("action", "skipped_actions")],
  ["action_msgs_created", d("action", "msgs_created")],
  ["action_action_list_hash", d("action", "action_list_hash")],
  ["action_tot_msg_size_cells", d("action", "tot_msg_size", "cells")],
  ["action_tot_msg_size_bits", d("action", "tot_msg_size", "bits")],
  ["bounce", d("bounce", "type")],
  ["bounce_msg_size_cells", d("bounce", "msg_size", "cells")],
  ["bounce_msg_size_bits", d("bounce", "msg_size", "bits")],
  ["bounce_req_fwd_fees", d("bounce", "req_fwd_fees")],
  ["bounce_msg_fees", d("bounce", "msg_fees")],
  ["bounce_fwd_fees", d("bounce", "fwd_fees")],
  ["split_info_cur_shard_pfx_len", d("split_info", "cur_shard_pfx_len")],
  ["split_info_acc_split_depth", d("split_info", "acc_split_depth")],
  ["split_info_this_addr", d("split_info", "this_addr")],
  ["split_info_sibling_addr", d("split_info", "sibling_addr")],
];

const MESSAGE_COLUMNS: [string, string][] = [
  ["tx_hash", "tx_hash"],
  ["tx_lt", "tx_lt"],
  // the masterchain block only partitions the table (one default partition here); no page reads it
  ["mc_seqno", "0"],
  ["msg_hash", "msg_hash"],
  ["msg_hash_norm", "hash_norm"],
  ["direction", "toString(direction)"],
  ["trace_id", "NULL"],
  ["source", "source"],
  ["destination", "destination"],
  ["value", "value"],
  ["value_extra_currencies", "toJSONString(value_extra_currencies)"],
  ["fwd_fee", "fwd_fee"],
  ["ihr_fee", "ihr_fee"],
  ["extra_flags", "extra_flags"],
  ["created_lt", "created_lt"],
  ["created_at", "created_at"],
  ["opcode", "opcode"],
  ["ihr_disabled", "ihr_disabled"],
  ["bounce", "bounce"],
  ["bounced", "bounced"],
  ["import_fee", "import_fee"],
  ["body_hash", "body_hash"],
  ["init_state_hash", "init_state_hash"],
];

const ACCOUNT_STATE_COLUMNS: [string, string][] = [
  ["hash", "hash"],
  ["account", "account"],
  ["balance", "balance"],
  ["balance_extra_currencies", "toJSONString(balance_extra_currencies)"],
  ["account_status", "account_status"],
  ["frozen_hash", "frozen_hash"],
  ["data_hash", "data_hash"],
  ["code_hash", "code_hash"],
];

export const LATEST_STATE_COLUMNS: [string, string][] = [
  ["account", "account"],
  ["hash", "hash"],
  ["balance", "balance"],
  ["balance_extra_currencies", "toJSONString(balance_extra_currencies)"],
  ["account_status", "account_status"],
  ["timestamp", "timestamp"],
  ["last_trans_hash", "last_trans_hash"],
  ["last_trans_lt", "last_trans_lt"],
  ["frozen_hash", "frozen_hash"],
  ["data_hash", "data_hash"],
  ["code_hash", "code_hash"],
  ["data_boc", "data_boc"],
  ["code_boc", "code_boc"],
];

export interface TableExport {
  table: string;
  columns: string[];
  /** what the rows are counted in (default: `<table> FINAL`) */
  from?: string;
  /** The chDB SELECT of one part of the rows ({part:UInt32} of {parts:UInt32}: a share small enough to hold in memory). */
  select: string;
}

export const exportOf = (table: string, cols: [string, string][], from: string, key: string): TableExport => ({
  table,
  columns: cols.map(([c]) => c),
  select: `SELECT ${cols.map(([, e]) => e).join(", ")} FROM ${from} WHERE cityHash64(${key}) % {parts:UInt32} = {part:UInt32}`,
});

export const EXPORTS: TableExport[] = [
  exportOf("transactions", TRANSACTION_COLUMNS, "transactions FINAL", "account"),
  exportOf("messages", MESSAGE_COLUMNS, "messages FINAL", "msg_hash"),
  exportOf("message_contents", [["hash", "hash"], ["body", "boc"]], "message_contents FINAL", "hash"),
  exportOf("account_states", ACCOUNT_STATE_COLUMNS, "account_states FINAL", "hash"),
  exportOf("latest_account_states", LATEST_STATE_COLUMNS, "latest_account_states FINAL", "account"),
];
