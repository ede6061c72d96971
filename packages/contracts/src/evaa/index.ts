// EVAA, the lending protocol: its message bodies.
export * from "./messages.js";
