// TEP-62/64/66 NFTs: collections and items (getgems, token-contract), getgems sales, auctions and
// offers, Telegram's telemint.
export * from "./code-hashes.js";
export * from "./get-methods.js";
export * from "./messages.js";
export * from "./storage.js";
export * from "./getgems-storage.js";
export * from "./getgems-get-methods.js";
export * from "./telemint-storage.js";
export * from "./telemint-get-methods.js";
