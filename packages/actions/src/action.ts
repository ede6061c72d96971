// An action: what a person did in a trace, as toncenter's classifier stores it (its `actions` row,
// ton-indexer indexer/core/database.py `Action`). The names are the row's, so the replay harness
// compares fixture values key by key; API v3's JSON (`details`) is rendered from it (render.ts).
// Amounts and logical times are bigint; addresses raw upper-case; hashes standard base64.

/** toncenter's composite `<kind>_data` columns: one object per family of types. */
export interface ActionData {
  ton_transfer_data?: { content: string | null; encrypted: boolean | null };
  jetton_transfer_data?: {
    response_destination: string | null;
    forward_amount: bigint | null;
    query_id: bigint | null;
    custom_payload: string | null;
    forward_payload: string | null;
    comment: string | null;
    is_encrypted_comment: boolean | null;
  };
  /** further families (nft_transfer_data, nft_mint_data, change_dns_record_data, staking_data,
   * multisig_*_data, vesting_*_data, ...) with the sub-fields of toncenter's row, null when unknown */
  [kind: `${string}_data`]: Record<string, unknown> | undefined;
}

export interface ActionRow extends ActionData {
  trace_id: string;
  action_id: string;
  /** the public type (ton_transfer, jetton_transfer, stake_deposit, ...) */
  type: string;
  /** the transactions of the action and the one that sent its first message */
  tx_hashes: string[];
  accounts: string[];
  success: boolean;
  start_lt: bigint;
  end_lt: bigint;
  start_utime: number;
  end_utime: number;
  mc_seqno_end: number | null;
  trace_end_lt: bigint;
  trace_end_utime: number;
  trace_external_hash: string | null;
  trace_external_hash_norm: string | null;
  trace_mc_seqno_end: number;
  source: string | null;
  source_secondary: string | null;
  destination: string | null;
  destination_secondary: string | null;
  asset: string | null;
  asset_secondary: string | null;
  asset2: string | null;
  asset2_secondary: string | null;
  amount: bigint | null;
  value: bigint | null;
  opcode: number | null;
  value_extra_currencies: Record<string, string> | null;
  /** set on an inner action of a composite one (e.g. the jetton_transfer of a swap) */
  parent_action_id: string | null;
  /** the public types of the actions this one is inside of (empty at the top) */
  ancestor_type: string[];
  /** free-form fields of some types (tgBTC pubkey, btc txid) */
  extra: Record<string, unknown> | null;
}

export type ClassificationState = "ok" | "failed" | "broken";

export interface Classification {
  /** ok: classified; failed: the classifier threw (one `unknown` action stands for the trace) */
  state: ClassificationState;
  actions: ActionRow[];
  /** why it failed, for the log */
  error?: string;
}
