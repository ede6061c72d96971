export * from "./action.js";
export * from "./classify.js";
export * from "./interfaces.js";
export * from "./trace.js";
export { multisigOrderFactsFromData } from "./matchers/multisig/facts.js";
