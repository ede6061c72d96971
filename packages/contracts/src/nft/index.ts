// TEP-62/66 NFTs, getgems sales/auctions/offers, telemint.
export * from "./code-hashes.js";
export * from "./get-methods.js";
