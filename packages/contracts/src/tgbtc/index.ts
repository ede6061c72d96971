// tgBTC, the TON ↔ Bitcoin teleport: its logs.
export * from "./messages.js";
