-- 0005 dedust pools: the DeDust pools the decoder recognised, as toncenter's worker fills its
-- `dex_pools` (dex = 'dedust') for the classifier: a contract whose code is a DeDust pool's,
-- whose get_assets DeDust's factory turns back into the pool's address (get_pool_address).
-- asset_1 / asset_2: NULL for TON, else the jetton master (raw `WC:HEX` upper-case).
--
-- Who writes, who reads: the decoder writes a row for such a pool whenever a block it decodes
-- changes the pool's state (its assets never change: the factory derives the address from them);
-- the classifier's facts (@tongate/store decoded-facts) read the latest row at or before the block
-- being classified, as ContractFacts.dedustPool. Rebuilt by decoding the history again, as 0001.
--
-- Idempotency: ReplacingMergeTree(last_transaction_lt), latest per address, as 0002.

CREATE TABLE IF NOT EXISTS dedust_pools
(
    address String,
    asset_1 Nullable(String),
    asset_2 Nullable(String),
    is_stable Bool,
    last_transaction_lt UInt64,
    mc_seqno UInt32
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address
SETTINGS index_granularity = 1024;
