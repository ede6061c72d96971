export { Gateway, canonicalPath, type GatewayOptions, type Upstream } from "./gateway.js";
export { listenGateway, type HttpServer } from "./server.js";
export { SITE_PATH, type SiteDocument, type SiteInfo } from "./stages/site.js";
export { buildOpenApi } from "./openapi.js";
export { buildRoutes, envelopeOf, PUBLIC_APIS, type ApiFlavour, type Route, type RouteTable } from "./routes.js";
export { compose, type Answer, type Call, type Exchange, type Handler, type Reply, type Stage } from "./stages/stage.js";
// For tests and benches that exercise one part of the edge.
export { AnswerCache } from "./cache.js";
export { ClientAddresses } from "./ratelimit/client-identity.js";
export { renderResult } from "@tongate/proto/json/render.js";
export { conventionOf, type FieldConvention } from "@tongate/proto/json/conventions.js";
