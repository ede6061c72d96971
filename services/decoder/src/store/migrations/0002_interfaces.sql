-- 0002 interfaces: the contract interfaces the decoder detected per account, as toncenter's worker
-- detects them (ton-index-go detect: by code hash first, else by the get-methods in the code's
-- method dictionary, then by running them): "jetton_wallet", "nft_item", "getgems_sale", ….
--
-- Who writes, who reads: the decoder writes a row for every account whose code or data changed in a
-- block it decodes (an empty list when nothing is recognised, so a contract that stops being one is
-- seen), with mc_seqno = that masterchain block. API v3's book step reads it for the address_book's
-- `interfaces` of accounts that are not wallets (wallets are known by code hash without it), at or
-- before the decoder's checkpoint.
--
-- Idempotency: latest per address, ReplacingMergeTree(last_transaction_lt) as the state tables of
-- 0001; re-decoding a block writes the same row with the same version.

CREATE TABLE IF NOT EXISTS account_interfaces
(
    address String,
    interfaces Array(LowCardinality(String)),
    -- the code the interfaces were detected on ('' for an account without code)
    code_hash String,
    last_transaction_lt UInt64,
    mc_seqno UInt32
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address
SETTINGS index_granularity = 1024;
