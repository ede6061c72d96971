// Wallets v1–v5 and highload v1–v3: detection, data fields, storage and message bodies.
export * from "./code-hashes.js";
export * from "./wallet.js";
export * from "./storage.js";
export * from "./messages.js";
