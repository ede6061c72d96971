// API v3 "Jettons": tongate.v3.Jettons over the decoder's tables. Each answer is bounded by the
// decoder's checkpoint; before the decoder has decoded anything, every list is empty. The lookups by
// owner or jetton are answered from the decoder's key-index tables when they can (./key-lookups.ts).
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import {
  type Jettons,
  JettonBurnsResponseSchema,
  JettonMastersResponseSchema,
  JettonTransfersResponseSchema,
  JettonWalletsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/jettons_pb.js";
import { decodedUpTo, eventOrder, keyOf } from "../decoded.js";
import { isAsc, nextCursor, pageOf } from "../params.js";
import type { Store } from "../sql.js";
import { jettonTransfersFromKeys, jettonWalletsFromKeys } from "./key-lookups.js";
import { burnOf, masterOf, transferOf, unclaimed, walletOf } from "./models.js";
import * as q from "./queries.js";
import { burnFilters, masterFilters, transferFilters, walletFilters } from "./request.js";

export function jettonsImpl(store: Store): Partial<ServiceImpl<typeof Jettons>> {
  return {
    async getJettonMasters(req) {
      const f = masterFilters(req);
      const page = pageOf("jetton/masters", true, req, ["string"]);
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.masters(store, f, page, upTo);
      return create(JettonMastersResponseSchema, {
        jettonMasters: rows.map(masterOf),
        nextCursor: nextCursor("jetton/masters", true, page, rows, (r) => [r.address]),
      });
    },

    async getJettonWallets(req) {
      const fromKeys = jettonWalletsFromKeys(store, req);
      if (fromKeys) return fromKeys;
      const f = walletFilters(req);
      const order = q.walletOrder(req.sort);
      const page = pageOf("jetton/wallets", order.asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.wallets(store, f, req.sort, page, upTo);
      const mintless = rows.filter((r) => unclaimed(r) !== null).map((r) => r.jetton);
      const uris = upTo === null ? new Map<string, string[]>() : await q.mintlessUris(store, mintless, upTo);
      return create(JettonWalletsResponseSchema, {
        jettonWallets: rows.map((r) => walletOf(r, uris)),
        nextCursor: nextCursor("jetton/wallets", order.asc, page, rows, (r) => keyOf(r, order.columns)),
      });
    },

    async getJettonTransfers(req) {
      const fromKeys = jettonTransfersFromKeys(store, req);
      if (fromKeys) return fromKeys;
      const f = transferFilters(req);
      const asc = isAsc(req.sort);
      const order = eventOrder(f);
      const page = pageOf("jetton/transfers", asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.transfers(store, f, asc, page, upTo);
      return create(JettonTransfersResponseSchema, {
        jettonTransfers: rows.map(transferOf),
        nextCursor: nextCursor("jetton/transfers", asc, page, rows, (r) => keyOf(r, order.columns)),
      });
    },

    async getJettonBurns(req) {
      const f = burnFilters(req);
      const asc = isAsc(req.sort);
      const order = eventOrder(f);
      const page = pageOf("jetton/burns", asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.burns(store, f, asc, page, upTo);
      return create(JettonBurnsResponseSchema, {
        jettonBurns: rows.map(burnOf),
        nextCursor: nextCursor("jetton/burns", asc, page, rows, (r) => keyOf(r, order.columns)),
      });
    },
  };
}
