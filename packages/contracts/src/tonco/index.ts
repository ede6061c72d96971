// TONCO: the concentrated-liquidity AMM (router, pools).
export * from "./pay-to.js";
export * from "./swaps.js";
export * from "./liquidity.js";
