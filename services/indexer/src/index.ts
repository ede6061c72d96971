export { INDEXER_SCHEMA, migrate, loadMigrations, openIndexStore, registerIndexer, MIGRATIONS_DIR, type IndexStore } from "./store/index-store.js";
export { insertBlockRows, INSERT_BATCH_ROWS, type ShardStateRow, type StoreRows } from "./store/insert.js";
export type * from "./rows/types.js";
export { blockRows, cellsFromBoc, type ShardTopRow } from "./rows/index.js";
export * from "./follower/index.js";
export { insertTraceRows, restoreTraceAssembler, traceRecord, type TraceRecord } from "./store/traces.js";
export { v3Api, v3Implementations, V3_SERVICES, INDEXER_SERVICES } from "./api/service.js";
export { emulatedTraceOf } from "./api/emulate/service.js";
export { pendingTraceOf, pendingActionsOf } from "./api/actions/pending.js";
export { pendingTransactionOf, traceTransactions } from "./api/blockchain/pending.js";
export { pendingSource, type PendingSource } from "./api/pending.js";
export { transactionsByAccount, transactionsByHash } from "./api/blockchain/transactions.js";
export { messagesBySource } from "./api/blockchain/messages.js";
export { setBodyDecoding } from "./api/blockchain/bodies.js";
export type { StoredTransaction } from "./api/sql.js";
export { indexService } from "./service.js";
export { INDEXER_KEY_TABLES, INDEXER_OWNER, KEY_INDEX_FORMAT, KeyIndex } from "./store/key-index/key-index.js";
export { KeyReaders, type KeyReaderResult } from "./api/key-readers/pool.js";
export { prepareKeyIndex, rebuildKeyIndex, type RebuildProgress } from "./store/key-index/rebuild.js";
export { runIndexer, type IndexerConfig, type IndexerRun, type IndexerStatus } from "./run.js";
export {
  eventNetworkOf,
  indexCommandOptions,
  indexCommandOptionsOf,
  indexOptions,
  indexServiceOptionsOf,
  parseWorkersOf,
  prefetchOf,
  prefetchOptionSpec,
  seqnoOption,
  type IndexCommandOptions,
  type IndexServiceOptions,
} from "./options.js";
export * from "./events.js";
export { IndexerMetrics } from "./metrics.js";
