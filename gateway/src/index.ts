export { Gateway, canonicalPath, type GatewayOptions, type Upstream } from "./gateway.js";
export { listenGateway, type HttpServer } from "./server.js";
export { buildOpenApi } from "./openapi.js";
export { buildRoutes, type Route, type RouteTable } from "./routes.js";
