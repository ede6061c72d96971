// Row shapes the indexer derives from a block (services/indexer/src/rows/*) and the store inserts.
//
// Conventions (shared with the ClickHouse tables in services/indexer/src/store/):
// - every 64-bit value (lt, coins, shard, gas, fees) is a decimal string, so rows round-trip
//   through JSON (JSONEachRow inserts) without precision loss; `shard` is the SIGNED int64 of the
//   shard prefix as a decimal string (e.g. "-9223372036854775808" for 0x8000000000000000) — the
//   API formats it as toncenter's upper-case hex;
// - 32-bit values (workchain, seqno, utime, exit codes, counters) are numbers;
// - hashes are standard base64 (44 chars, with padding), as toncenter v3 renders them;
// - addresses are raw `WC:HEX` with upper-case hex, as toncenter v3 renders them; `null` when absent
//   (external source / destination);
// - nullable columns are `null`, never `undefined`; the transaction `description` object mirrors
//   toncenter v3 exactly (fields a phase does not have are omitted, as toncenter omits them) and
//   is stored as a JSON string column.

/** A block reference: (workchain, shard, seqno). */
export interface BlockRef {
  workchain: number;
  /** signed int64, decimal string */
  shard: string;
  seqno: number;
}

export interface PrevBlockRef extends BlockRef {
  root_hash: string;
  file_hash: string;
  /** end lt of the previous block (decimal) */
  end_lt: string;
}

export interface BlockRow {
  workchain: number;
  shard: string;
  seqno: number;
  root_hash: string;
  file_hash: string;
  /** masterchain seqno that commits this block (its own seqno for a masterchain block) */
  mc_seqno: number;
  global_id: number;
  version: number;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_split: boolean;
  want_merge: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  gen_utime: number;
  start_lt: string;
  end_lt: string;
  validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  vert_seqno: number;
  /** master_ref seqno of a shard block (null for masterchain blocks / no master_ref) */
  master_ref_seqno: number | null;
  /** 1 prev block, or 2 after a merge */
  prev_blocks: PrevBlockRef[];
  tx_count: number;
  /** from McBlockExtra / BlockExtra: base64 of the 256-bit values */
  rand_seed: string;
  created_by: string;
}

export type AccountStatus = "uninit" | "frozen" | "active" | "nonexist";
export type AccStatusChange = "unchanged" | "frozen" | "deleted";

export interface StoragePhase {
  storage_fees_collected: string;
  storage_fees_due?: string;
  status_change: AccStatusChange;
}

export interface CreditPhase {
  due_fees_collected?: string;
  credit: string;
  credit_extra_currencies?: Record<string, string>;
}

export interface ComputePhase {
  skipped: boolean;
  /** only when skipped: "no_state" | "bad_state" | "no_gas" | "suspended" */
  reason?: string;
  success?: boolean;
  msg_state_used?: boolean;
  account_activated?: boolean;
  gas_fees?: string;
  gas_used?: string;
  gas_limit?: string;
  gas_credit?: string;
  mode?: number;
  exit_code?: number;
  exit_arg?: number;
  vm_steps?: number;
  vm_init_state_hash?: string;
  vm_final_state_hash?: string;
}

export interface ActionPhase {
  success: boolean;
  valid: boolean;
  no_funds: boolean;
  status_change: AccStatusChange;
  total_fwd_fees?: string;
  total_action_fees?: string;
  result_code: number;
  result_arg?: number;
  tot_actions: number;
  spec_actions: number;
  skipped_actions: number;
  msgs_created: number;
  action_list_hash: string;
  tot_msg_size: { cells: string; bits: string };
}

export interface BouncePhase {
  /** "negfunds" | "nofunds" | "ok" */
  type: string;
  msg_size?: { cells: string; bits: string };
  req_fwd_fees?: string;
  msg_fees?: string;
  fwd_fees?: string;
}

export interface SplitMergeInfo {
  cur_shard_pfx_len: number;
  acc_split_depth: number;
  this_addr: string;
  sibling_addr: string;
}

export interface TransactionDescription {
  /** "ord" | "storage" | "tick_tock" | "split_prepare" | "split_install" | "merge_prepare" | "merge_install" */
  type: string;
  aborted?: boolean;
  destroyed?: boolean;
  credit_first?: boolean;
  is_tock?: boolean;
  installed?: boolean;
  storage_ph?: StoragePhase;
  credit_ph?: CreditPhase;
  compute_ph?: ComputePhase;
  action?: ActionPhase;
  bounce?: BouncePhase;
  split_info?: SplitMergeInfo;
}

export interface TransactionRow {
  /** raw WC:HEX upper-case */
  account: string;
  hash: string;
  lt: string;
  prev_trans_hash: string;
  prev_trans_lt: string;
  now: number;
  mc_seqno: number;
  /** block that contains the transaction */
  block_workchain: number;
  block_shard: string;
  block_seqno: number;
  orig_status: AccountStatus;
  end_status: AccountStatus;
  total_fees: string;
  total_fees_extra_currencies: Record<string, string>;
  /** state_update of the transaction: hashes of the account cell before / after */
  account_state_hash_before: string;
  account_state_hash_after: string;
  description: TransactionDescription;
  in_msg_hash: string | null;
  /** ordered by created_lt (= out_msgs dictionary order) */
  out_msg_hashes: string[];
  /** hash of the root transaction of the trace; null until traces are assembled */
  trace_id: string | null;
  /**
   * the account states before/after this transaction that its block determines (before the
   * account's first transaction in the block, after its last; rows/account-state.ts)
   */
  states: TransactionStateRow[];
}

/** An account state as a transaction object shows it (v3 account_state_before/after). */
export type TransactionStateRow = Pick<AccountStateRow, "hash" | "balance" | "balance_extra_currencies" | "account_status" | "frozen_hash" | "code_hash" | "data_hash">;

export interface MessageRow {
  msg_hash: string;
  tx_hash: string;
  tx_lt: string;
  direction: "in" | "out";
  /** raw WC:HEX upper-case; null for external source (ext-in) */
  source: string | null;
  /** raw WC:HEX upper-case; null for external destination (ext-out) */
  destination: string | null;
  /** coins; null for external messages */
  value: string | null;
  value_extra_currencies: Record<string, string>;
  fwd_fee: string | null;
  ihr_fee: string | null;
  /** extra_flags (former ihr_fee slot after TVM 11 / Gasless); null for external */
  extra_flags: string | null;
  /** null for ext-in */
  created_lt: string | null;
  created_at: number | null;
  /** first 32 bits of the body as signed int32 (toncenter's column); null if body < 32 bits */
  opcode: number | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /** ext-in only */
  import_fee: string | null;
  /** representation hash of the body cell (MessageContentRow.hash) */
  body_hash: string;
  /** representation hash of the StateInit cell, or null */
  init_state_hash: string | null;
  /** TEP-467 normalised hash, ext-in only */
  hash_norm: string | null;
}

/** A body or a StateInit, stored once by hash. */
export interface MessageContentRow {
  hash: string;
  /** base64 BoC of the cell */
  boc: string;
}

export interface AccountStateRow {
  /** representation hash of the Account cell */
  hash: string;
  account: string;
  balance: string;
  balance_extra_currencies: Record<string, string>;
  account_status: AccountStatus;
  frozen_hash: string | null;
  code_hash: string | null;
  data_hash: string | null;
  code_boc: string | null;
  data_boc: string | null;
  /** the transaction that produced this state (last one in the block for the account) */
  last_trans_hash: string | null;
  last_trans_lt: string | null;
  timestamp: number;
}

/**
 * An account state's code or data as the block's Merkle update has it: the cell with its unchanged
 * sub-trees pruned (exotic pruned-branch cells, each standing for a cell of the old state by its
 * hash). Only when the cell itself is there and its row lacks the BoC.
 */
export interface PartialBocs {
  /** the account state row's hash */
  state: string;
  /** base64 BoC with pruned branches, or null */
  code: string | null;
  data: string | null;
}

export interface BlockRows {
  blocks: BlockRow[];
  transactions: TransactionRow[];
  messages: MessageRow[];
  contents: MessageContentRow[];
  accountStates: AccountStateRow[];
  /**
   * The code/data of account states the block carries with pruned branches (their rows lack the
   * BoC): what the follower completes them from (follower/account-bocs.ts). Absent: none.
   */
  partialBocs?: PartialBocs[];
  /**
   * The transactions in their API form for the key index, rendered where the block is parsed (a
   * parse worker) without their trace_id, which the store adds (store/key-index/render.ts).
   */
  rendered?: RenderedTransaction[];
}

/** A transaction as the key index stores it (store/key-index/key-index.ts), with the keys it is found by. */
export interface RenderedTransaction {
  account: string;
  lt: string;
  hash: string;
  mcSeqno: number;
  /** the tongate.v3.Transaction message, binary */
  value: Uint8Array;
  /** its trace (the store sets it with the trace_id in `value`, store/key-index/render.ts withTraceIds) */
  traceId?: string;
  /** the messages it received (in) and sent (out), by hash and by TEP-467 normalised hash, and by their addresses */
  messages: { hash: string; hashNorm: string | null; direction: "in" | "out"; source: string | null; destination: string | null; createdLt: string | null }[];
}

/**
 * A trace as far as it is known after a batch (one masterchain block with its shard blocks):
 * re-emitted (same trace_id, newer version) each time more of it is indexed; the store keeps the
 * latest (ReplacingMergeTree by trace_id, version = mc_seqno_end).
 */
export interface TraceRow {
  /** hash of the root transaction */
  trace_id: string;
  /** hash of the root's external-in message (null for a tick-tock / no in_msg root) */
  external_hash: string | null;
  /** TEP-467 normalised hash of that message */
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: string;
  start_utime: number;
  end_lt: string;
  end_utime: number;
  /** complete: no internal message of the trace is undelivered; pending: some are in flight;
   *  broken: its root is not indexed (a transaction whose in message's sender is unknown) */
  state: "complete" | "pending" | "broken";
  pending_messages: number;
  transactions: number;
  messages: number;
}
