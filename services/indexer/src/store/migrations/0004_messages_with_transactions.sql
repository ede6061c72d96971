-- 0004 the reads of a page come from fewer tables and columns: embedded chDB spends ~4–5 ms on
-- every table a query reads, and more per column and part, so a page of messages read from the 22
-- columns of `transaction_messages` cost ~15 ms against ~6 ms for one column
-- (bench:indexer-queries, RESULTS.md).
--
-- 1. `transactions.messages`: a transaction's message rows stored with it, as the JSON array of
--    its `messages` rows (the in message first, then the out messages). A page of transactions
--    reads them with the page. Rows stored before this migration have '' and are read from
--    `messages` by hash. `transactions.states` likewise holds the account states its block
--    determines (before the account's first transaction of the block, after its last; JSON array
--    of the fields a transaction object shows), which spares the page its `account_states` lookup.
-- 2. `transaction_messages` (0003), the copy of every message row keyed by its transaction, goes:
--    what it served now comes from (1), and each message row is written once less.
-- 3. `messages_by_source` also names both transactions of a message: the sender's (hash and lt, to
--    read its row from `transactions.messages`) and the receiver's, which arrives in a later
--    insert — so it aggregates (AggregatingMergeTree, read with FINAL): '' / 0 until a side is
--    stored. /messages?source= then needs no lookup by message hash.

ALTER TABLE transactions ADD COLUMN IF NOT EXISTS messages String DEFAULT '' CODEC(ZSTD(1));

ALTER TABLE transactions ADD COLUMN IF NOT EXISTS states String DEFAULT '';

-- a page decompresses whole compression blocks of every column it reads: blocks of 8–32 KiB
-- instead of 64 KiB–1 MiB halve what a page of one account decompresses (~10 → ~5 MB) and take
-- ~3 ms off it (new parts and merges; rows already stored keep theirs until merged)
ALTER TABLE transactions MODIFY SETTING min_compress_block_size = 8192, max_compress_block_size = 32768;

DROP VIEW IF EXISTS transaction_messages_mv;

DROP TABLE IF EXISTS transaction_messages;

DROP VIEW IF EXISTS messages_by_source_mv;

DROP TABLE IF EXISTS messages_by_source;

CREATE TABLE IF NOT EXISTS messages_by_source
(
    source String,
    created_lt UInt64,
    msg_hash String,
    opcode SimpleAggregateFunction(any, Nullable(Int32)),
    -- the transaction that sent the message and the one that received it ('' / 0: not stored)
    out_tx_hash SimpleAggregateFunction(max, String),
    out_tx_lt SimpleAggregateFunction(max, UInt64),
    in_tx_hash SimpleAggregateFunction(max, String)
)
ENGINE = AggregatingMergeTree
ORDER BY (source, created_lt, msg_hash)
-- a page reads one sender's few newest rows in each part: small granules and compression blocks
-- (the 8,192-row default read ~16,000 rows a page)
SETTINGS index_granularity = 256, min_compress_block_size = 8192, max_compress_block_size = 32768;

CREATE MATERIALIZED VIEW IF NOT EXISTS messages_by_source_mv TO messages_by_source AS
SELECT assumeNotNull(source) AS source, ifNull(created_lt, 0) AS created_lt, msg_hash, opcode,
       if(direction = 'out', tx_hash, '') AS out_tx_hash, if(direction = 'out', tx_lt, 0) AS out_tx_lt,
       if(direction = 'in', tx_hash, '') AS in_tx_hash
FROM (SELECT source, created_lt, msg_hash, opcode, direction, tx_hash, tx_lt FROM messages WHERE source IS NOT NULL);

INSERT INTO messages_by_source
SELECT assumeNotNull(source) AS source, ifNull(created_lt, 0) AS created_lt, msg_hash, opcode,
       if(direction = 'out', tx_hash, '') AS out_tx_hash, if(direction = 'out', tx_lt, 0) AS out_tx_lt,
       if(direction = 'in', tx_hash, '') AS in_tx_hash
FROM (SELECT source, created_lt, msg_hash, opcode, direction, tx_hash, tx_lt FROM messages FINAL WHERE source IS NOT NULL);
