// swap.coffee: the DEX (vaults, factory, pools, liquidity depositories, pool creators), its MEV
// protection and its staking.
export * from "./types.js";
export * from "./messages.js";
export * from "./staking.js";
