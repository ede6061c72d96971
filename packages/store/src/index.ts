export { EMBEDDED_SETTINGS, openStore, select, STORE_SETTINGS, type Store, type StoreOptions } from "./store.js";
export { loadMigrations, migrate, migrationsTable, splitStatements, type MigrateResult, type Migration, type MigrationsOwner } from "./migrate.js";
export { getCheckpoint, setCheckpoint } from "./checkpoints.js";
export { CheckpointOutbox, type OutboxOptions, type RebuildEvent } from "./outbox.js";
export { factsAt, factsForTraces } from "./decoded-facts.js";
export { deliveredMessages } from "./delivered-messages.js";
export { PROBE_EVERY_MS, PROBE_TIMEOUT_MS, watchClickHouse, type ClickHouseHealth, type ClickHouseWatch, type ClickHouseWatchOptions } from "./health.js";
export {
  prepareKeyTables,
  type KeyIndexSchema,
  type KeyTablesRebuild,
  type PrepareOptions,
  type RebuildContext,
  type RebuildProgress,
  type Registration,
  type StoreSchema,
} from "./schema.js";
export { KeyIndexEnv, KeyTables, openKeyIndexEnv, type KeyTableOptions, type KeyTablesLayout, type KeyTablesMeta } from "./key-index/env.js";
export { accountKey, ACCOUNT_BYTES, HASH_BYTES, hashKey, LT_BYTES, ltBytes, prefixEnd, u32Bytes } from "./key-index/keys.js";
export { storeFlags, storeKey, storeOptionsOf, storeProvision } from "./resource.js";
export { type AccountActionEntry, type ActionPosition, DecodedKeys, DESTINATION, itemOrderKey, SOURCE, type TransferEntry } from "./decoded-keys/decoded-keys.js";
export { actionAccountKey, DECODED_KEYS, DECODED_KEYS_FORMAT, DECODER_CHECKPOINT, DECODER_OWNER, indexBytes, textKey, itemKey, optionalAccountKey, tokenKey, transferKey, uriKey, versionBytes, walletKey } from "./decoded-keys/layout.js";
export {
  actionRow,
  classificationRow,
  collectionRow,
  emptyKeyRows,
  fetchRow,
  interfacesRow,
  itemRow,
  KEY_COLUMNS,
  tokenRow,
  transferRow,
  walletRow,
  type ClassificationState,
  type DecodedKeyRows,
  type KeyActionRow,
  type KeyClassificationRow,
  type KeyTraceActions,
  type KeyFetchRow,
  type KeyTokenRow,
  type KeyCollectionRow,
  type KeyInterfacesRow,
  type KeyItemRow,
  type KeyTransferRow,
  type KeyWalletRow,
} from "./decoded-keys/rows.js";
