// API v3 "Stats": tongate.v3.Stats over the store.
import type { ServiceImpl } from "@connectrpc/connect";
import type { Stats } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import type { Store } from "../sql.js";
import { topAccountsByBalance } from "./top-accounts.js";

export function statsImpl(store: Store): Partial<ServiceImpl<typeof Stats>> {
  return {
    topAccountsByBalance: (req) => topAccountsByBalance(store, req),
  };
}
