// JVault, the jetton staking platform: its message bodies and the heads of its contracts' data.
export * from "./messages.js";
export * from "./storage.js";
