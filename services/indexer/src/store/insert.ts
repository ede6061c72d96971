// Typed, batched, idempotent inserts of a block's rows (JSONEachRow; values never spliced into SQL).
// Re-inserting the same rows changes nothing visible: every table is a ReplacingMergeTree keyed by
// the row's identity and readers use FINAL (see migrations/0001_core.sql).
import type {
  AccountStateRow,
  BlockRow,
  BlockRows,
  MessageContentRow,
  MessageRow,
  TraceRow,
  TransactionRow,
} from "../rows/types.js";
import { messagesByTransaction } from "../rows/message.js";
import type { ShardTopRow } from "../rows/shards.js";
import type { IndexStore } from "./index-store.js";
import { keyIndexStates, renderTransactions, withTraceIds } from "./key-index/render.js";
import { insertTraceRows, keyIndexTraces } from "./traces.js";

/** A shard top in a masterchain block's ShardHashes (masterchainBlockShardState): the row masterchainShards builds. */
export type ShardStateRow = ShardTopRow;

/** What one insert stores: a block's rows, plus the shard state of masterchain blocks and the traces the blocks touched. */
export interface StoreRows extends BlockRows {
  shardState?: ShardStateRow[];
  /** each trace as of the last of these blocks that touched it (the trace assembler's rows) */
  traces?: TraceRow[];
}

/** Rows per INSERT statement. */
export const INSERT_BATCH_ROWS = 50_000;

/** A transaction row with its messages (migrations/0004), in the order the row names them. */
type TransactionRecord = TransactionRow & { messages: MessageRow[] };

function transactionRecords(txs: readonly TransactionRow[], messages: readonly MessageRow[]): TransactionRecord[] {
  const byTx = messagesByTransaction(messages);
  // Object.assign, not a spread: V8's spread of a row this wide is ~30 µs (rows/message.ts)
  return txs.map((t) => Object.assign({}, t, { messages: byTx.get(t.hash) ?? [] }));
}

async function insertRows<T>(store: IndexStore, table: string, rows: readonly T[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH_ROWS) {
    await store.client.insert({ table, values: rows.slice(i, i + INSERT_BATCH_ROWS), format: "JSONEachRow" });
  }
}

/**
 * Stores the rows of one or more blocks. Contents, states, messages, transactions and traces go first
 * (the tables at once: chDB runs the inserts on its own threads) and the blocks last, so a block row
 * implies its data is there; then the key index, in one LMDB transaction. The indexer's checkpoint is
 * still what says a masterchain block is complete.
 */
export async function insertBlockRows(store: IndexStore, rows: StoreRows): Promise<void> {
  await Promise.all([
    insertRows<MessageContentRow>(store, "message_contents", dedupe(rows.contents, (c) => c.hash)),
    insertRows<AccountStateRow>(store, "account_states", rows.accountStates),
    insertRows<MessageRow>(store, "messages", rows.messages),
    // the description object, the message rows and the states go in as they are: String columns
    // take their JSON text (input_format_json_read_objects_as_strings / _arrays_as_strings), no
    // JSON string inside the JSON row to escape
    insertRows<TransactionRecord>(store, "transactions", transactionRecords(rows.transactions, rows.messages)),
    insertRows<ShardStateRow>(store, "shard_state", rows.shardState ?? []),
    insertTraceRows(store, rows.traces ?? []),
  ]);
  await insertRows<BlockRow>(store, "blocks", rows.blocks);
  // the key index in the same step: before the checkpoint and the blocks.indexed event
  if (store.keys) {
    // rendered where the blocks were parsed (workers), else here; the trace ids are the main thread's
    const rendered = rows.rendered ?? renderTransactions(rows);
    await store.keys.write(withTraceIds(rendered, rows.transactions), keyIndexStates(rows), keyIndexTraces(rows.traces ?? []));
  }
}

function dedupe<T>(rows: readonly T[], key: (r: T) => string): T[] {
  const seen = new Set<string>();
  return rows.filter((r) => (seen.has(key(r)) ? false : (seen.add(key(r)), true)));
}
