// The SQL helpers of the API v3 queries: a bound-parameter WHERE builder, the deduplication of
// point lookups, and the shape of a transaction read back. Each tag's queries hold their own SQL
// (next to the endpoint that runs it); values always travel as query parameters.
import type { TransactionRow } from "../rows/types.js";

export { select } from "@tongate/store";
/** The store as the API reads it: ClickHouse and, when opened, the indexer's key index. */
export type { IndexStore as Store } from "../store/index-store.js";

/**
 * A transaction as stored: the inserted row, with `description` still JSON text and the
 * statuses as the column's plain strings.
 */
export type StoredTransaction = Omit<TransactionRow, "description" | "orig_status" | "end_status" | "states"> & {
  orig_status: string;
  end_status: string;
  description: string;
  /** its message rows as a JSON array (migrations/0004; '' in rows stored before it) */
  messages?: string;
  /** the states its block determines as a JSON array (TransactionRow.states; '' before migrations/0004) */
  states?: string;
};

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

/** A nullable column as an optional field (null: not set). */
export const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);
