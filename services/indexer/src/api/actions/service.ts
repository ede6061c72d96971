// API v3 "Actions and traces": tongate.v3.Actions over the store. Traces are the indexer's; actions,
// classification states and balance changes read the decoder's tables, bounded by its checkpoint
// (before the decoder has classified anything, every trace is unclassified and has no actions). The
// pending traces and their actions are the send service's (./pending.ts).
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { type Actions, ActionsResponseSchema, EventsResponseSchema, type GetActionsRequest } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { Transaction } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import type { KeyActionRow } from "@tongate/store";
import { transactionOf } from "../blockchain/models.js";
import { transactionParts } from "../blockchain/parts.js";
import { decodedUpTo, keyOf } from "../decoded.js";
import { isAsc, nextCursor, pageOf } from "../params.js";
import type { Store } from "../sql.js";
import type { PendingSource } from "../pending.js";
import { balanceChanges } from "./balances.js";
import { actionsFromKeys } from "./key-lookups.js";
import { actionOf } from "./models.js";
import { pendingActions, pendingTracesOf } from "./pending.js";
import * as q from "./queries.js";
import { actionFilters, actionOrder } from "./request.js";
import { traces } from "./traces.js";

export function actionsImpl(store: Store, pending: PendingSource): Partial<ServiceImpl<typeof Actions>> {
  return {
    async getActions(req) {
      const fromKeys = actionsFromKeys(store, req);
      if (fromKeys) return fromKeys;
      const f = actionFilters(req);
      const asc = isAsc(req.sort);
      const order = actionOrder(f);
      const page = pageOf("actions", asc, req, order.kinds.map(() => "string"));
      const upTo = await decodedUpTo(store);
      const rows = upTo === null ? [] : await q.actions(store, f, order, asc, page, upTo);
      return withTransactions(store, rows, req, nextCursor("actions", asc, page, rows, (r) => keyOf(r, order.columns)));
    },

    getTraces: (req) => traces(store, req),

    async getEvents(req) {
      const r = await traces(store, { ...req, includeActions: true });
      return create(EventsResponseSchema, { events: r.traces, nextCursor: r.nextCursor });
    },

    getBalanceChanges: (req) => balanceChanges(store, req),

    getPendingTraces: (req, ctx) => pendingTracesOf(store, pending, req, ctx.signal),

    getPendingActions: (req, ctx) => pendingActions(store, pending, req, ctx.signal),
  };
}

/** The page's actions, with their transactions when include_transactions asks. */
async function withTransactions(store: Store, rows: readonly KeyActionRow[], req: GetActionsRequest, cursor: string | undefined) {
  let transactions: Map<string, Transaction> | undefined;
  if (req.includeTransactions) {
    const txs = await q.transactionsOf(store, rows.flatMap((r) => r.tx_hashes));
    const parts = await transactionParts(store, txs);
    transactions = new Map(txs.map((t) => [t.hash, transactionOf(t, parts)]));
  }
  const accounts = req.includeAccounts === true;
  return create(ActionsResponseSchema, { actions: rows.map((r) => actionOf(r, { accounts, transactions })), nextCursor: cursor });
}
