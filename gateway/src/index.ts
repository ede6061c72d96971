export { Gateway, canonicalPath, type GatewayOptions, type Upstream } from "./gateway.js";
export { listenGateway, type HttpServer } from "./server.js";
export { buildOpenApi } from "./openapi.js";
export { buildRoutes, envelopeOf, PUBLIC_APIS, type ApiFlavour, type Route, type RouteTable } from "./routes.js";
export { compose, type Answer, type Call, type Exchange, type Handler, type Reply, type Stage } from "./stages/stage.js";
