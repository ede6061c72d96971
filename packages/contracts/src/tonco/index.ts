// TONCO: the concentrated-liquidity AMM (router, pools).
export * from "./swaps.js";
export * from "./liquidity.js";
