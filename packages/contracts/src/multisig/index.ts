// Multisig v2: the multisig wallet and its orders.
export * from "./code-hashes.js";
export * from "./messages.js";
export * from "./storage.js";
