// TEP-74 jettons (the 2022 reference, token-contract, Jetton 2.0, stablecoin, mintless).
export * from "./code-hashes.js";
export * from "./get-methods.js";
export * from "./messages.js";
export * from "./storage.js";
