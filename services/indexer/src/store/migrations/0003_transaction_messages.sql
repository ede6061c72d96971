-- 0003 transaction_messages: the messages of each transaction next to each other, keyed by the
-- transaction's account and lt. A page of an account's transactions then reads its in/out
-- messages as one primary-key range instead of one granule per message hash in `messages`
-- (bench:indexer-queries). Filled by a materialized view from the same inserts as `messages`
-- (one more copy of the message rows), and from `messages` for what is already stored.

CREATE TABLE IF NOT EXISTS transaction_messages
(
    -- the account of the transaction the row belongs to: the destination of an inbound message,
    -- the source of an outbound one
    tx_account String,
    tx_lt UInt64,
    direction Enum8('in' = 1, 'out' = 2),
    msg_hash String,
    tx_hash String,
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
    hash_norm Nullable(String)
)
ENGINE = ReplacingMergeTree
ORDER BY (tx_account, tx_lt, direction, msg_hash)
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS transaction_messages_mv TO transaction_messages AS
SELECT if(direction = 'in', assumeNotNull(destination), assumeNotNull(source)) AS tx_account,
       tx_lt, direction, msg_hash, tx_hash, source, destination, value, value_extra_currencies, fwd_fee, ihr_fee,
       extra_flags, created_lt, created_at, opcode, ihr_disabled, bounce, bounced, import_fee, body_hash,
       init_state_hash, hash_norm
FROM messages;

INSERT INTO transaction_messages
SELECT if(direction = 'in', assumeNotNull(destination), assumeNotNull(source)) AS tx_account,
       tx_lt, direction, msg_hash, tx_hash, source, destination, value, value_extra_currencies, fwd_fee, ihr_fee,
       extra_flags, created_lt, created_at, opcode, ihr_disabled, bounce, bounced, import_fee, body_hash,
       init_state_hash, hash_norm
FROM messages;
