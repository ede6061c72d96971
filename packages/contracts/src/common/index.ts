// Message bodies shared by every standard.
export * from "./bodies.js";
