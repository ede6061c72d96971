// @tongate/metadata-fetch: off-chain TEP-64 token metadata (the JSON a jetton master's, an NFT
// collection's or item's content URI points at) fetched safely: http(s) and ipfs:// through a
// gateway, a timeout, a size cap, concurrency limits, a cache with refresh and negative caching,
// a bounded queue, and no connection to a private, loopback or link-local address (judged after
// resolution, before connecting, at every redirect hop) unless the operator allows it.
export { MetadataFetcher, METADATA_FETCH_DEFAULTS, type CachedMetadata, type MetadataFetcherOptions, type MetadataFetcherStats } from "./fetcher.js";
export { defaultResolver, fetchMetadata, type MetadataResult, type ResolvedAddress, type Resolver } from "./request.js";
export { addressCategory, type AddressCategory } from "./address-policy.js";
export { parseMetadataJson, DEFAULT_MAX_DEPTH } from "./json.js";
export { locate, MAX_URI_LENGTH } from "./uri.js";
