// @tongate/cli: the composition root. `main` runs a `tongate` command; the service modules and how a
// process hosts them are exported for tests that wire tongate in their own process.
export { main } from "./main.js";
export { findService, provisionsOf, serviceModules, startHost, upstreamsOf } from "./services.js";
