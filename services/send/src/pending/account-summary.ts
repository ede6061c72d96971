// An account's state around an emulated transaction, as API v3 shows a transaction's
// account_state_before/after: read from the ShardAccount cell the emulator carries.
import { create } from "@bufbuild/protobuf";
import { loadAccount, type Cell } from "@ton/core";
import { AccountStateSummarySchema, type AccountStateSummary } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";

const EMPTY = Buffer.alloc(0);
const boc = (c: Cell | null | undefined): string => (c ? c.toBoc({ idx: false, crc32: true }).toString("base64") : "");

/** The summary of a ShardAccount cell (account:^Account last_trans_hash last_trans_lt); code and data BoCs only when asked. */
export function accountSummary(shardAccount: Cell, includeCodeData: boolean): AccountStateSummary {
  const accountCell = shardAccount.refs[0];
  const s = accountCell?.beginParse();
  // account_none$0: a nonexistent account
  if (!accountCell || !s || !s.loadBit()) return create(AccountStateSummarySchema, { status: "nonexist" });
  const account = loadAccount(accountCell.beginParse().skip(1));
  const state = account.storage.state;
  const summary = create(AccountStateSummarySchema, { hash: accountCell.hash(), balance: account.storage.balance.coins, codeHash: EMPTY, dataHash: EMPTY, frozenHash: EMPTY });
  switch (state.type) {
    case "active":
      summary.status = "active";
      summary.codeHash = state.state.code?.hash() ?? EMPTY;
      summary.dataHash = state.state.data?.hash() ?? EMPTY;
      if (includeCodeData) {
        summary.codeBoc = boc(state.state.code);
        summary.dataBoc = boc(state.state.data);
      }
      break;
    case "frozen":
      summary.status = "frozen";
      summary.frozenHash = Buffer.from(state.stateHash.toString(16).padStart(64, "0"), "hex");
      break;
    case "uninit":
      summary.status = "uninit";
      break;
  }
  return summary;
}
