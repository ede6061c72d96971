// lite-proxy: API v2 over a pool of liteservers. This first cut answers the
// utility methods; the methods that need a chain answer 501 (Unimplemented)
// until the liteserver pool lands.
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { defineService } from "@tongate/runtime";
import { utils } from "./utils.js";

export const liteProxyService = defineService({
  name: "lite-proxy",
  service: LiteProxy,
  start() {
    return { impl: { ...utils } };
  },
});
