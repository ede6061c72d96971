export * from "./api-error.js";
export * from "./config.js";
export * from "./host.js";
export * from "./log.js";
export * from "./service.js";
export * from "./lru.js";
export * from "./bus.js";
export * from "./metrics-server.js";
