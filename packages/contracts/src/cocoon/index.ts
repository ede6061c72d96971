// Cocoon: the root, proxy, worker and client contracts' message bodies.
export * from "./messages.js";
