// TON DNS: the .ton collection and items, the root resolver.
export * from "./code-hashes.js";
export * from "./records.js";
export * from "./messages.js";
export * from "./storage.js";
