-- 0001 core: the v3 blockchain data (blocks, transactions, messages, account states, shard state).
--
-- Conventions (services/indexer/src/rows/types.ts): hashes are base64 strings, addresses raw
-- `WC:HEX` upper-case, lt/shard 64-bit, coins UInt128 (VarUInteger 16 fits in 120 bits).
--
-- Idempotency: every table is a ReplacingMergeTree whose ORDER BY is the row's identity, so
-- re-inserting a block's rows adds identical duplicates that merges drop. Until a merge runs a
-- duplicate may still be stored: READERS USE `FINAL` (ClickHouse 26 applies it in parallel and
-- only to the ranges the primary-key filter selects), or, for point lookups in tables whose rows
-- never change (messages, message_contents, account_states), `LIMIT 1 BY` the key (api/queries/common.ts). The secondary tables (by hash, by block,
-- by trace, by source/destination) are filled by materialized views from the same insert and are
-- read with FINAL as well; they hold the key columns only and point back into the main tables.
-- Projections are not used: queries with FINAL never read projections.
-- Tables read by random hash (or account) lookups keep 1,024-row granules, messages 256 (SETTINGS
-- below): a lookup of k keys reads about k granules, and 8,192-row granules made a page of 10
-- transactions read ~170,000 message rows (bench/RESULTS.md, indexer queries).
-- In the views, a filter on a Nullable column sits in a subquery: ClickHouse resolves WHERE names
-- to the SELECT aliases, so `assumeNotNull(x) AS x ... WHERE x IS NOT NULL` would never filter.

CREATE TABLE IF NOT EXISTS blocks
(
    workchain Int32,
    shard Int64,
    seqno UInt32,
    root_hash String,
    file_hash String,
    mc_seqno UInt32,
    global_id Int32,
    version UInt32,
    after_merge Bool,
    before_split Bool,
    after_split Bool,
    want_split Bool,
    want_merge Bool,
    key_block Bool,
    vert_seqno_incr Bool,
    flags UInt16,
    gen_utime UInt32,
    start_lt UInt64,
    end_lt UInt64,
    validator_list_hash_short UInt32,
    gen_catchain_seqno UInt32,
    min_ref_mc_seqno UInt32,
    prev_key_block_seqno UInt32,
    vert_seqno UInt32,
    master_ref_seqno Nullable(UInt32),
    prev_blocks Array(Tuple(workchain Int32, shard Int64, seqno UInt32, root_hash String, file_hash String, end_lt UInt64)),
    tx_count UInt32,
    rand_seed String,
    created_by String,
    INDEX idx_root_hash root_hash TYPE bloom_filter GRANULARITY 4,
    INDEX idx_gen_utime gen_utime TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (workchain, shard, seqno);

-- mc seqno → every block it commits (masterchainBlockShards, transactionsByMasterchainBlock)
CREATE TABLE IF NOT EXISTS masterchain_block_shards
(
    mc_seqno UInt32,
    workchain Int32,
    shard Int64,
    seqno UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (mc_seqno, workchain, shard, seqno);

CREATE MATERIALIZED VIEW IF NOT EXISTS masterchain_block_shards_mv TO masterchain_block_shards AS
SELECT mc_seqno, workchain, shard, seqno FROM blocks;

-- mc seqno → the shard tops in its ShardHashes (masterchainBlockShardState)
CREATE TABLE IF NOT EXISTS shard_state
(
    mc_seqno UInt32,
    workchain Int32,
    shard Int64,
    seqno UInt32,
    root_hash String,
    file_hash String
)
ENGINE = ReplacingMergeTree
ORDER BY (mc_seqno, workchain, shard);

CREATE TABLE IF NOT EXISTS transactions
(
    account String,
    lt UInt64,
    hash String,
    prev_trans_hash String,
    prev_trans_lt UInt64,
    now UInt32,
    mc_seqno UInt32,
    block_workchain Int32,
    block_shard Int64,
    block_seqno UInt32,
    orig_status LowCardinality(String),
    end_status LowCardinality(String),
    total_fees UInt128,
    total_fees_extra_currencies Map(String, UInt128),
    account_state_hash_before String,
    account_state_hash_after String,
    -- the v3 description object as JSON text; the columns below are extracted for filtering
    description String,
    descr_type LowCardinality(String) MATERIALIZED JSONExtractString(description, 'type'),
    aborted Bool MATERIALIZED JSONExtractBool(description, 'aborted'),
    compute_exit_code Nullable(Int32) MATERIALIZED JSONExtract(description, 'compute_ph', 'exit_code', 'Nullable(Int32)'),
    action_result_code Nullable(Int32) MATERIALIZED JSONExtract(description, 'action', 'result_code', 'Nullable(Int32)'),
    in_msg_hash Nullable(String),
    out_msg_hashes Array(String),
    out_msg_count UInt32 MATERIALIZED length(out_msg_hashes),
    trace_id Nullable(String),
    INDEX idx_now now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
ORDER BY (account, lt)
SETTINGS index_granularity = 1024;

-- hash → (account, lt)
CREATE TABLE IF NOT EXISTS transactions_by_hash
(
    hash String,
    account String,
    lt UInt64
)
ENGINE = ReplacingMergeTree
ORDER BY hash
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS transactions_by_hash_mv TO transactions_by_hash AS
SELECT hash, account, lt FROM transactions;

-- (mc seqno, block) → its transactions in lt order; also the global lt/time scan
CREATE TABLE IF NOT EXISTS transactions_by_block
(
    mc_seqno UInt32,
    block_workchain Int32,
    block_shard Int64,
    block_seqno UInt32,
    lt UInt64,
    account String,
    hash String,
    now UInt32
)
ENGINE = ReplacingMergeTree
ORDER BY (mc_seqno, block_workchain, block_shard, block_seqno, lt, account);

CREATE MATERIALIZED VIEW IF NOT EXISTS transactions_by_block_mv TO transactions_by_block AS
SELECT mc_seqno, block_workchain, block_shard, block_seqno, lt, account, hash, now FROM transactions;

-- trace → its transactions
CREATE TABLE IF NOT EXISTS transactions_by_trace
(
    trace_id String,
    lt UInt64,
    account String,
    hash String
)
ENGINE = ReplacingMergeTree
ORDER BY (trace_id, lt, account);

CREATE MATERIALIZED VIEW IF NOT EXISTS transactions_by_trace_mv TO transactions_by_trace AS
SELECT assumeNotNull(trace_id) AS trace_id, lt, account, hash
FROM (SELECT trace_id, lt, account, hash FROM transactions WHERE trace_id IS NOT NULL);

-- one row per (message, transaction side): an internal message appears twice (out of the
-- sender's transaction, in of the receiver's), external ones once
CREATE TABLE IF NOT EXISTS messages
(
    msg_hash String,
    direction Enum8('in' = 1, 'out' = 2),
    tx_hash String,
    tx_lt UInt64,
    source Nullable(String),
    destination Nullable(String),
    value Nullable(UInt128),
    value_extra_currencies Map(String, UInt128),
    fwd_fee Nullable(UInt128),
    ihr_fee Nullable(UInt128),
    extra_flags Nullable(UInt128),
    created_lt Nullable(UInt64),
    created_at Nullable(UInt32),
    opcode Nullable(Int32),
    ihr_disabled Nullable(Bool),
    bounce Nullable(Bool),
    bounced Nullable(Bool),
    import_fee Nullable(UInt128),
    body_hash String,
    init_state_hash Nullable(String),
    hash_norm Nullable(String),
    INDEX idx_body_hash body_hash TYPE bloom_filter GRANULARITY 4,
    INDEX idx_hash_norm hash_norm TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree
ORDER BY (msg_hash, direction, tx_hash)
SETTINGS index_granularity = 256;

-- source + created_lt → message hash (both sides of a message collapse into one row)
CREATE TABLE IF NOT EXISTS messages_by_source
(
    source String,
    created_lt UInt64,
    msg_hash String,
    opcode Nullable(Int32)
)
ENGINE = ReplacingMergeTree
ORDER BY (source, created_lt, msg_hash);

CREATE MATERIALIZED VIEW IF NOT EXISTS messages_by_source_mv TO messages_by_source AS
SELECT assumeNotNull(source) AS source, ifNull(created_lt, 0) AS created_lt, msg_hash, opcode
FROM (SELECT source, created_lt, msg_hash, opcode FROM messages WHERE source IS NOT NULL);

-- destination + created_lt → message hash (ext-in have created_lt 0 here)
CREATE TABLE IF NOT EXISTS messages_by_destination
(
    destination String,
    created_lt UInt64,
    msg_hash String,
    opcode Nullable(Int32)
)
ENGINE = ReplacingMergeTree
ORDER BY (destination, created_lt, msg_hash);

CREATE MATERIALIZED VIEW IF NOT EXISTS messages_by_destination_mv TO messages_by_destination AS
SELECT assumeNotNull(destination) AS destination, ifNull(created_lt, 0) AS created_lt, msg_hash, opcode
FROM (SELECT destination, created_lt, msg_hash, opcode FROM messages WHERE destination IS NOT NULL);

-- message bodies and StateInits, once per cell hash
CREATE TABLE IF NOT EXISTS message_contents
(
    hash String,
    boc String CODEC(ZSTD(3))
)
ENGINE = ReplacingMergeTree
ORDER BY hash
SETTINGS index_granularity = 1024;

-- account state (Account cell) by its hash
CREATE TABLE IF NOT EXISTS account_states
(
    hash String,
    account String,
    balance UInt128,
    balance_extra_currencies Map(String, UInt128),
    account_status LowCardinality(String),
    frozen_hash Nullable(String),
    code_hash Nullable(String),
    data_hash Nullable(String),
    code_boc Nullable(String) CODEC(ZSTD(3)),
    data_boc Nullable(String) CODEC(ZSTD(3)),
    last_trans_hash Nullable(String),
    last_trans_lt Nullable(UInt64),
    timestamp UInt32
)
ENGINE = ReplacingMergeTree
-- the hash alone identifies a state (an Account cell holds its address); the account first puts a
-- transaction's before/after states of one account page in a few granules
ORDER BY (account, hash)
SETTINGS index_granularity = 1024;

-- the latest state per account: the row with the highest last_trans_lt wins (read with FINAL)
CREATE TABLE IF NOT EXISTS latest_account_states
(
    account String,
    hash String,
    balance UInt128,
    balance_extra_currencies Map(String, UInt128),
    account_status LowCardinality(String),
    frozen_hash Nullable(String),
    code_hash Nullable(String),
    data_hash Nullable(String),
    code_boc Nullable(String) CODEC(ZSTD(3)),
    data_boc Nullable(String) CODEC(ZSTD(3)),
    last_trans_hash Nullable(String),
    last_trans_lt UInt64,
    timestamp UInt32
)
ENGINE = ReplacingMergeTree(last_trans_lt)
ORDER BY account
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS latest_account_states_mv TO latest_account_states AS
SELECT account, hash, balance, balance_extra_currencies, account_status, frozen_hash, code_hash, data_hash,
       code_boc, data_boc, last_trans_hash, ifNull(last_trans_lt, 0) AS last_trans_lt, timestamp
FROM account_states;

-- where the indexer resumes: the last masterchain seqno whose rows are all stored
CREATE TABLE IF NOT EXISTS indexer_checkpoints
(
    name String,
    mc_seqno UInt32,
    updated_at DateTime64(3, 'UTC'),
    version UInt64
)
ENGINE = ReplacingMergeTree(version)
ORDER BY name;
