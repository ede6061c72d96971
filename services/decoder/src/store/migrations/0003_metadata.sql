-- 0003 metadata: what API v3's `metadata` (toncenter's token_info) is made from, in two tables
-- because it has two sources with two clocks.
--
-- token_metadata: the TEP-64 content of every jetton master, NFT collection and NFT item the decoder
-- decoded (an item's full content: its collection's get_nft_content, the common content joined), as
-- JSON text (on-chain attributes, or {"uri"}), and the URI it names. Written by the decoder with the
-- block's rows, deterministic: re-decoding a block writes the same rows. Latest per (address, type)
-- at or before the decoder's checkpoint, as the state tables of 0001 (ReplacingMergeTree on the
-- account's last lt, readers order by (last_transaction_lt, mc_seqno)).
--
-- metadata_fetches: what fetching a content URI gave (the JSON object as text, or why not), written
-- by the decoder's metadata worker (@tongate/metadata-fetch) as results come, never by the block
-- loop: a slow or hostile metadata server delays nothing but its own token. Keyed by URI (a URI
-- fetched once serves every token naming it); the newest fetch wins (fetched_at, ms), and a refresh
-- after the fetcher's TTL writes a newer row.
--
-- A reader joins them (@tongate/contracts' tokenMetadata): the off-chain JSON with the on-chain
-- attributes laid over it, as toncenter's metadata fetcher merges semi-chain content. A token whose
-- content names a URI without a fetch row yet is not indexed (is_indexed false).

CREATE TABLE IF NOT EXISTS token_metadata
(
    address String,
    type LowCardinality(String),
    -- an item's index in its collection (decimal), null for masters and collections
    nft_index Nullable(String),
    content String DEFAULT '{}',
    -- the off-chain URI the content names ('' none)
    uri String DEFAULT '',
    last_transaction_lt UInt64,
    mc_seqno UInt32,
    INDEX idx_uri uri TYPE bloom_filter GRANULARITY 4
)
ENGINE = ReplacingMergeTree(last_transaction_lt)
ORDER BY (address, type)
SETTINGS index_granularity = 1024;

CREATE TABLE IF NOT EXISTS metadata_fetches
(
    uri String,
    ok Bool,
    -- the JSON object fetched, as text ('' when the fetch failed)
    json String DEFAULT '',
    -- why the fetch failed ('' when it did not)
    reason String DEFAULT '',
    fetched_at UInt64
)
ENGINE = ReplacingMergeTree(fetched_at)
ORDER BY uri
SETTINGS index_granularity = 1024;
