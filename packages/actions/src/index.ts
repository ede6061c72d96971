export * from "./action.js";
export * from "./classify.js";
export * from "./interfaces.js";
export * from "./trace.js";
export * from "./render.js";
export * from "./versions.js";
export * from "./json.js";
export { UNREGISTERED_MATCHERS, MATCHER_ORDER } from "./matchers/order.js";
export { multisigOrderFactsFromData } from "./matchers/multisig/facts.js";
