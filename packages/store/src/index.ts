export { EMBEDDED_SETTINGS, openStore, select, STORE_SETTINGS, type Store, type StoreOptions } from "./store.js";
export { loadMigrations, migrate, splitStatements, type MigrateResult, type Migration } from "./migrate.js";
export { getCheckpoint, setCheckpoint } from "./checkpoints.js";
export { PROBE_EVERY_MS, PROBE_TIMEOUT_MS, watchClickHouse, type ClickHouseHealth, type ClickHouseWatch, type ClickHouseWatchOptions } from "./health.js";
