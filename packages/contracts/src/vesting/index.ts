// The vesting wallet (ton-blockchain/vesting-contract).
export * from "./code-hashes.js";
export * from "./messages.js";
export * from "./storage.js";
