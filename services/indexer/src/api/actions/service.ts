// API v3 "Actions and traces": tongate.v3.Actions over the store (actions come with the decoder).
import type { ServiceImpl } from "@connectrpc/connect";
import type { Actions } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Store } from "../sql.js";
import { traces } from "./traces.js";

export function actionsImpl(store: Store): Partial<ServiceImpl<typeof Actions>> {
  return {
    getTraces: (req) => traces(store, req),
  };
}
