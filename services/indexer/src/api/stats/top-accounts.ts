// /topAccountsByBalance: the accounts with the largest latest balances.
import { create } from "@bufbuild/protobuf";
import {
  type TopAccountsByBalanceRequest,
  type TopAccountsByBalanceResponse,
  TopAccountsByBalanceResponseSchema,
} from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { DEFAULT_LIMIT } from "../params.js";
import { select, type Store } from "../sql.js";

/** Balance descending, then account ascending (a unique order for paging). */
export async function topAccountsByBalance(store: Store, req: TopAccountsByBalanceRequest): Promise<TopAccountsByBalanceResponse> {
  const rows = await select<{ account: string; balance: string }>(
    store,
    `SELECT account, toString(balance) AS balance FROM latest_account_states FINAL
     ORDER BY balance DESC, account ASC LIMIT {limit:UInt32} OFFSET {offset:UInt32}`,
    { limit: req.limit ?? DEFAULT_LIMIT, offset: req.offset ?? 0 },
  );
  return create(TopAccountsByBalanceResponseSchema, { accounts: rows });
}
