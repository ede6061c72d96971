// API v3 "API v2": tongate.v3.ApiV2, the v2-style methods of API v3 — addressInformation and
// walletInformation from the index (or, with use_v2, a liteserver through lite-proxy); message
// through the send service, runGetMethod and estimateFee through lite-proxy.
import type { ServiceImpl } from "@connectrpc/connect";
import type { ApiV2 } from "@tongate/proto/gen/tongate/v3/apiv2_pb.js";
import type { Store } from "../sql.js";
import { addressInformation, walletInformation } from "./index-reads.js";
import * as liteProxy from "./lite-proxy.js";

export function apiV2Impl(store: Store, lite: () => liteProxy.LiteProxyClient, send: () => liteProxy.SendClient): Partial<ServiceImpl<typeof ApiV2>> {
  return {
    addressInformation: (req) => (req.useV2 ? liteProxy.addressInformationV2(lite(), req.address) : addressInformation(store, req.address)),
    walletInformation: (req) => (req.useV2 ? liteProxy.walletInformationV2(lite(), req.address) : walletInformation(store, req.address)),
    sendMessage: (req) => liteProxy.sendMessage(send(), req.boc),
    runGetMethod: (req) => liteProxy.runGetMethod(lite(), req),
    estimateFee: (req) => liteProxy.estimateFee(lite(), req),
  };
}
