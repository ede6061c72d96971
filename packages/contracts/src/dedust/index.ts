// DeDust: the vault/pool protocol (toncenter's "dedust") and CPMM v2 ("dedust_v2").
export * from "./asset.js";
export * from "./payouts.js";
export * from "./payments-v2.js";
export * from "./swaps.js";
export * from "./swaps-v2.js";
export * from "./pool.js";
export * from "./liquidity.js";
