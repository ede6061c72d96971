-- 0002 traces: one row per trace (trace_id = hash of its root transaction), as the v3 /traces
-- endpoint and its trace_info need it (toncenter's `traces` table: external_hash(_norm), mc seqno
-- and lt/utime bounds, state, pending_edges_/edges_/nodes_, classification_state).
--
-- A trace is re-inserted each time a masterchain block adds to it; the version is mc_seqno_end (the
-- masterchain block of that insert), so FINAL reads its latest state. Re-indexing a block inserts
-- the same row with the same version (the rows are deterministic), so a replay after a crash changes
-- nothing visible. The indexer rebuilds its in-flight traces from here on start
-- (store/traces.ts: the pending ones, and those a block after the checkpoint already touched).

CREATE TABLE IF NOT EXISTS traces
(
    trace_id String,
    -- hash and TEP-467 normalized hash of the root's external-in message (null: tick-tock or a broken root)
    external_hash Nullable(String),
    external_hash_norm Nullable(String),
    mc_seqno_start UInt32,
    mc_seqno_end UInt32,
    start_lt UInt64,
    start_utime UInt32,
    end_lt UInt64,
    end_utime UInt32,
    -- complete: every internal message delivered; pending: some in flight; broken: the root's sender is not indexed
    state Enum8('complete' = 1, 'pending' = 2, 'broken' = 3),
    -- internal messages sent and not yet delivered / messages / transactions (v3 trace_info)
    pending_edges UInt32,
    edges UInt32,
    nodes UInt32,
    -- set by the decoder stage (actions); the indexer writes unclassified
    classification_state Enum8('unclassified' = 1, 'failed' = 2, 'ok' = 3, 'broken' = 4) DEFAULT 'unclassified',
    INDEX idx_state state TYPE set(3) GRANULARITY 4,
    INDEX idx_mc_seqno_end mc_seqno_end TYPE minmax GRANULARITY 1,
    INDEX idx_end_lt end_lt TYPE minmax GRANULARITY 1,
    INDEX idx_external_hash external_hash TYPE bloom_filter GRANULARITY 4,
    INDEX idx_external_hash_norm external_hash_norm TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(mc_seqno_end)
ORDER BY trace_id
SETTINGS index_granularity = 1024;
