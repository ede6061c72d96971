-- 0001 tokens: the decoder's jetton and NFT state and events, as API v3's Jettons and NFTs tags
-- read them (toncenter's jetton_masters, jetton_wallets, nft_collections, nft_items,
-- getgems_nft_sales / getgems_nft_auctions / telemint_nft_items, jetton_transfers, jetton_burns,
-- nft_transfers).
--
-- Who writes, who reads: the decoder service writes every row, decoding each masterchain block after
-- its checkpoint from what the indexer stored (the accounts' new states, the in-messages of their
-- transactions), then sets its checkpoint ("decoder" in indexer_checkpoints). The API v3 handlers of
-- the indexer (services/indexer/src/api/jettons, api/nfts) only read, and never past that checkpoint:
-- every table has `mc_seqno`, the masterchain block whose decoding wrote the row, and every read is
-- bounded by mc_seqno <= the checkpoint, so a block decoded half-way is not seen.
--
-- Conventions are the indexer's (its migrations/0001): addresses raw `WC:HEX` upper-case, '' where
-- toncenter has none in a key column, hashes and BoCs standard base64, lt UInt64, amounts UInt128
-- (VarUInteger 16 fits in 120 bits), NFT indexes UInt256, on-chain content as JSON text ('{}' until
-- the decoder reads TEP-64 content).
--
-- State (latest per address): ReplacingMergeTree(last_transaction_lt), the row of the account's
-- newest transaction wins. Re-decoding a block writes the same rows with the same versions, so a
-- replay after a crash changes nothing. The decoder writes at most one row per address and decoded
-- block (the state after the block), and a later row for an unchanged lt when something else
-- changes what it shows: a verdict that arrives with the master or collection, an item put on sale.
-- That row has the same lt and a higher mc_seqno; a merge keeps the last inserted of equal versions,
-- which is that one, and readers order by (last_transaction_lt, mc_seqno) to agree with it. The
-- API reads the latest row at or before the checkpoint (ORDER BY … LIMIT 1 BY address, not FINAL,
-- which would hide an account changed in the block being decoded). A merge that runs between a
-- block's insert and its checkpoint can replace the row the checkpoint's answer shows: the account
-- is then missing from lists until the checkpoint moves. So the decoder sets the checkpoint right
-- after a block's (or a batch's) rows, and inserts one block or batch at a time. (Within one
-- insert ClickHouse keeps only the newest version of an address already.)
--
-- Verdicts: a jetton wallet is `confirmed` when its master's get_wallet_address(owner) returns its
-- address, `denied` when it returns another, `pending` while the master is not decoded yet; an NFT
-- item likewise with its collection's get_nft_address_by_index(index) (an item without a collection
-- is confirmed). Only confirmed wallets and items are listed. A pending one is confirmed when its
-- master or collection arrives, by a new row (as above), without rescanning history.
--
-- Events (one per transaction: the in-message of a transaction on a decoded contract): the
-- MergeTree family keyed by the event's identity (its transaction's hash, after the columns the
-- filters use), ReplacingMergeTree(confirmed) so that re-decoding a block adds identical rows that
-- merges drop. `confirmed` is the wallet's or item's verdict when the event was decoded (1:
-- confirmed); the events of a wallet or item confirmed later are written again with confirmed = 1
-- and the mc_seqno of the confirming block (an INSERT … SELECT over the key's prefix). Readers use
-- FINAL (the confirmed row replaces the unconfirmed one) and list confirmed = 1 only.
--
-- ORDER BY keys serve the filters: masters and collections by address, wallets by (jetton, owner),
-- items by (collection, index), events by (master or collection, wallet or item, lt); the other
-- filters (owner, admin, single address) have bloom-filter skip indexes, time and lt ranges minmax.
-- Key columns are set at deploy (a wallet's owner and jetton, an item's collection and index) and
-- never change, so every version of an address lands on one key. Lookups by owner are also served
-- by the decoder's key-index tables.

CREATE TABLE IF NOT EXISTS jetton_masters
(
    address String,
    total_supply UInt128,
    mintable Bool,
    admin_address Nullable(String),
    -- TEP-64 content as JSON text
    jetton_content String DEFAULT '{}',
    -- hash of the wallet code get_jetton_data returns
    jetton_wallet_code_hash String,
    -- mintless jettons: where wallets fetch their claim payloads (toncenter's mintless_jetton_masters)
    custom_payload_api_uri Array(String) DEFAULT [],
    code_hash String,
    data_hash String,
    last_transaction_lt UInt64,
    last_transaction_now UInt32,
    mc_seqno UInt32,
    INDEX idx_admin_address admin_address TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS jetton_wallets
(
    jetton String,
    owner String,
    address String,
    balance UInt128,
    verdict Enum8('pending' = 1, 'confirmed' = 2, 'denied' = 3),
    -- mintless jettons (get_wallet_data of a mintless wallet, its claim state): null otherwise
    mintless_is_claimed Nullable(Bool),
    mintless_amount Nullable(UInt128),
    mintless_start_from Nullable(UInt64),
    mintless_expire_at Nullable(UInt64),
    code_hash String,
    data_hash String,
    last_transaction_lt UInt64,
    last_transaction_now UInt32,
    mc_seqno UInt32,
    INDEX idx_owner owner TYPE bloom_filter GRANULARITY 4,
    INDEX idx_address address TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY (jetton, owner, address)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS nft_collections
(
    address String,
    -- signed: telemint collections answer -1 (their items are not numbered in order)
    next_item_index Int256,
    owner_address Nullable(String),
    collection_content String DEFAULT '{}',
    code_hash String,
    data_hash String,
    last_transaction_lt UInt64,
    last_transaction_now UInt32,
    mc_seqno UInt32,
    INDEX idx_owner_address owner_address TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS nft_items
(
    -- '' for an item without a collection
    collection_address String,
    nft_index UInt256,
    address String,
    init Bool,
    -- '' while not initialized
    owner_address String,
    -- individual content as JSON text
    content String DEFAULT '{}',
    verdict Enum8('pending' = 1, 'confirmed' = 2, 'denied' = 3),
    -- held by a getgems sale or auction contract: that contract, and the owner who listed it
    on_sale Bool DEFAULT false,
    sale_contract_address Nullable(String),
    auction_contract_address Nullable(String),
    -- the owner behind a sale or auction, else owner_address (toncenter's update_nft_real_owner)
    real_owner String,
    code_hash String,
    data_hash String,
    last_transaction_lt UInt64,
    last_transaction_now UInt32,
    mc_seqno UInt32,
    INDEX idx_address address TYPE bloom_filter GRANULARITY 4,
    INDEX idx_owner_address owner_address TYPE bloom_filter GRANULARITY 4,
    INDEX idx_real_owner real_owner TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY (collection_address, nft_index, address)
SETTINGS index_granularity = 1024;

-- getgems fixed-price sales (v1–v4), getgems auctions, telemint items (their own auctions): what
-- /nft/sales shows. The columns of one type are null on the rows of the others; columns shared by
-- two types mean the same in both (min_bid, max_bid, end_time).
CREATE TABLE IF NOT EXISTS nft_sales
(
    address String,
    type Enum8('getgems_sale' = 1, 'getgems_auction' = 2, 'telemint' = 3),
    nft_address String,
    nft_owner_address Nullable(String),
    marketplace_address Nullable(String),
    created_at Nullable(UInt32),
    -- getgems_sale
    is_complete Nullable(Bool),
    full_price Nullable(UInt128),
    marketplace_fee_address Nullable(String),
    marketplace_fee Nullable(UInt128),
    royalty_address Nullable(String),
    royalty_amount Nullable(UInt128),
    -- getgems_auction
    end_flag Nullable(Bool),
    last_bid Nullable(UInt128),
    last_member Nullable(String),
    min_step Nullable(UInt128),
    mp_fee_address Nullable(String),
    mp_fee_factor Nullable(UInt32),
    mp_fee_base Nullable(UInt32),
    royalty_fee_address Nullable(String),
    royalty_fee_factor Nullable(UInt32),
    royalty_fee_base Nullable(UInt32),
    last_bid_at Nullable(UInt32),
    is_canceled Nullable(Bool),
    -- getgems_auction and telemint
    min_bid Nullable(UInt128),
    max_bid Nullable(UInt128),
    end_time Nullable(UInt32),
    -- telemint
    token_name Nullable(String),
    bidder_address Nullable(String),
    bid Nullable(UInt128),
    bid_ts Nullable(UInt32),
    beneficiary_address Nullable(String),
    initial_min_bid Nullable(UInt128),
    min_bid_step Nullable(UInt32),
    min_extend_time Nullable(UInt32),
    duration Nullable(UInt32),
    royalty_numerator Nullable(UInt16),
    royalty_denominator Nullable(UInt16),
    royalty_destination Nullable(String),
    code_hash String,
    data_hash String,
    last_transaction_lt UInt64,
    last_transaction_now UInt32,
    mc_seqno UInt32,
    INDEX idx_nft_address nft_address TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY address
SETTINGS index_granularity = 1024;

-- transfer#0f8a7ea5 received by a jetton wallet
CREATE TABLE IF NOT EXISTS jetton_transfers
(
    jetton_master String,
    -- the sending wallet (toncenter's source_wallet)
    jetton_wallet String,
    transaction_lt UInt64,
    transaction_hash String,
    transaction_now UInt32,
    transaction_aborted Bool,
    mc_seqno UInt32,
    trace_id Nullable(String),
    query_id UInt64,
    amount UInt128,
    -- the in-message's sender (the wallet's owner) and the body's destination (the receiving owner)
    source String,
    destination String,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    forward_ton_amount UInt128,
    -- the forward payload as a BoC (inline or in a ref, as a cell), and its text comment if it is one
    forward_payload Nullable(String),
    comment Nullable(String),
    confirmed UInt8,
    INDEX idx_jetton_wallet jetton_wallet TYPE bloom_filter GRANULARITY 4,
    INDEX idx_source source TYPE bloom_filter GRANULARITY 4,
    INDEX idx_destination destination TYPE bloom_filter GRANULARITY 4,
    INDEX idx_transaction_lt transaction_lt TYPE minmax GRANULARITY 1,
    INDEX idx_transaction_now transaction_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(confirmed)
ORDER BY (jetton_master, jetton_wallet, transaction_lt, transaction_hash);

-- burn#595f07bc received by a jetton wallet
CREATE TABLE IF NOT EXISTS jetton_burns
(
    jetton_master String,
    jetton_wallet String,
    transaction_lt UInt64,
    transaction_hash String,
    transaction_now UInt32,
    transaction_aborted Bool,
    mc_seqno UInt32,
    trace_id Nullable(String),
    query_id UInt64,
    -- the in-message's sender: the wallet's owner
    owner String,
    amount UInt128,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    confirmed UInt8,
    INDEX idx_jetton_wallet jetton_wallet TYPE bloom_filter GRANULARITY 4,
    INDEX idx_owner owner TYPE bloom_filter GRANULARITY 4,
    INDEX idx_transaction_lt transaction_lt TYPE minmax GRANULARITY 1,
    INDEX idx_transaction_now transaction_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(confirmed)
ORDER BY (jetton_master, jetton_wallet, transaction_lt, transaction_hash);

-- transfer#5fcc3d14 received by an NFT item
CREATE TABLE IF NOT EXISTS nft_transfers
(
    -- '' for an item without a collection
    nft_collection String,
    nft_address String,
    transaction_lt UInt64,
    transaction_hash String,
    transaction_now UInt32,
    transaction_aborted Bool,
    mc_seqno UInt32,
    trace_id Nullable(String),
    query_id UInt64,
    nft_index UInt256,
    -- the in-message's sender and the body's new_owner
    old_owner String,
    new_owner String,
    response_destination Nullable(String),
    custom_payload Nullable(String),
    forward_amount UInt128,
    forward_payload Nullable(String),
    comment Nullable(String),
    confirmed UInt8,
    INDEX idx_nft_address nft_address TYPE bloom_filter GRANULARITY 4,
    INDEX idx_old_owner old_owner TYPE bloom_filter GRANULARITY 4,
    INDEX idx_new_owner new_owner TYPE bloom_filter GRANULARITY 4,
    INDEX idx_transaction_lt transaction_lt TYPE minmax GRANULARITY 1,
    INDEX idx_transaction_now transaction_now TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree(confirmed)
ORDER BY (nft_collection, nft_address, transaction_lt, transaction_hash);
