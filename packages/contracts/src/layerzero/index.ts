// LayerZero v2 on TON: message envelopes and the class objects inside them.
export * from "./messages.js";
