// localnet: an emulated TON chain. This first part executes transactions with
// TON's emulator and collates them; blocks, the liteserver protocol and proofs
// build on it.
export * from "./collator.js";
export * from "./config.js";
export * from "./executor.js";
export * from "./genesis.js";
export * from "./keys.js";
