// STON.fi DEX (v1 and v2 routers and pools, pTON).
export * from "./pton.js";
export * from "./swaps.js";
export * from "./liquidity.js";
