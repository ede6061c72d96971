// Validator staking: the TON nominator pool, the single nominator, a Whales pool copy.
export * from "./code-hashes.js";
export * from "./get-methods.js";
export * from "./messages.js";
export * from "./storage.js";
