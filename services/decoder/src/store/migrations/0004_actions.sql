-- 0004 actions: what a person did in each trace (toncenter's `actions` and `action_accounts`), and
-- the decoder's record of each trace's classification. The indexer's `traces` stays the indexer's:
-- API v3 reads a trace's classification_state and actions from here.
--
-- Who writes: the decoder, in its block step (the block's decoded rows first, then these, then its
-- checkpoint). A trace is classified in the block that completed it, and again in a later block that
-- confirms a jetton wallet or NFT item the trace touches (a pending one decided late).
--
-- The version rule: `version` is the masterchain block in whose step the decoder classified the
-- trace. Every row of one classification carries it; the classifier is deterministic and its facts
-- are the decoder's tables as of that block, so classifying a block again after a crash writes the
-- same rows with the same version (nothing visible changes). A re-classification writes all its rows
-- with the newer version, plus a `deleted` row (same key, newer version) for every row of the
-- previous classification whose key the new one does not have (an action that went away, or an
-- account no longer in one). So, per key, the row of the highest version is the current one:
--
--   the current rows = the latest row per sorting key (FINAL, or ORDER BY version DESC LIMIT 1 BY
--   key) with deleted = 0.
--
-- Readers bounded by the decoder's checkpoint (API v3 answers nothing past it) take the latest row
-- per key among those with version <= checkpoint, then drop deleted ones; FINAL followed by WHERE
-- version <= checkpoint would hide a trace re-classified in a block not yet checkpointed. A
-- classification's rows go in one INSERT per table; its record last.
--
-- trace_classifications holds one row per trace and version (ReplacingMergeTree(version), the
-- latest is current): its state ('ok', 'failed': the classifier failed and one `unknown` action
-- stands for it, 'broken': not classified, e.g. above toncenter's 4,000 transactions) and the ids of
-- its actions in the classifier's order.

CREATE TABLE IF NOT EXISTS actions
(
    trace_id String,
    action_id String,
    version UInt32,
    deleted Bool DEFAULT false,
    type LowCardinality(String),
    tx_hashes Array(String),
    accounts Array(String),
    success Bool,
    start_lt UInt64,
    end_lt UInt64,
    start_utime UInt32,
    end_utime UInt32,
    mc_seqno_end Nullable(UInt32),
    trace_end_lt UInt64,
    trace_end_utime UInt32,
    trace_mc_seqno_end UInt32,
    trace_external_hash Nullable(String),
    trace_external_hash_norm Nullable(String),
    parent_action_id Nullable(String),
    ancestor_type Array(LowCardinality(String)),
    -- the whole row, lossless (@tongate/actions' actionToJson): what the API renders `details` from
    row String CODEC(ZSTD(1)),
    INDEX idx_action_id action_id TYPE bloom_filter GRANULARITY 4,
    INDEX idx_tx_hashes tx_hashes TYPE bloom_filter GRANULARITY 4,
    INDEX idx_trace_external_hash trace_external_hash TYPE bloom_filter GRANULARITY 4,
    INDEX idx_trace_external_hash_norm trace_external_hash_norm TYPE bloom_filter GRANULARITY 4,
    INDEX idx_trace_mc_seqno_end trace_mc_seqno_end TYPE minmax GRANULARITY 1,
    INDEX idx_trace_end_lt trace_end_lt TYPE minmax GRANULARITY 1,
    INDEX idx_end_utime end_utime TYPE minmax GRANULARITY 1,
    INDEX idx_type type TYPE set(0) GRANULARITY 4
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (trace_id, action_id)
SETTINGS index_granularity = 1024;

-- toncenter's action_accounts: one row per (account, action), in the order /actions?account= pages
-- (trace_end_lt, trace_id, end_lt, action_id; desc by default). type and ancestor_type ride along so
-- that the supported-types filter needs no join.
CREATE TABLE IF NOT EXISTS action_accounts
(
    account String,
    trace_end_lt UInt64,
    trace_id String,
    end_lt UInt64,
    action_id String,
    version UInt32,
    deleted Bool DEFAULT false,
    type LowCardinality(String),
    ancestor_type Array(LowCardinality(String)),
    trace_end_utime UInt32,
    trace_mc_seqno_end UInt32
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (account, trace_end_lt, trace_id, end_lt, action_id)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS trace_classifications
(
    trace_id String,
    version UInt32,
    classification_state Enum8('unclassified' = 1, 'failed' = 2, 'ok' = 3, 'broken' = 4),
    -- the trace's actions at this version, in the classifier's order
    action_ids Array(String),
    trace_end_lt UInt64,
    trace_end_utime UInt32,
    trace_mc_seqno_end UInt32,
    INDEX idx_version version TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(version)
ORDER BY trace_id
SETTINGS index_granularity = 1024;
