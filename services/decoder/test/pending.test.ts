// The events of a jetton wallet and an NFT item decided after they were decoded (seen before their
// master or collection): written again as confirmed at the deciding block, once — a replay of that
// block (a restart before its checkpoint) adds nothing (real chDB).
import { openStore, select, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { confirmEvents, decidePending } from "../src/pending.js";
import { emptyRows, type EventTransaction } from "../src/rows.js";
import { DECODER_MIGRATIONS } from "../src/service.js";
import { insertDecodedRows } from "../src/write.js";

let store: Store;
beforeAll(async () => {
  store = await openStore();
  await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS });
});
afterAll(() => store?.close());

const tx = (lt: number, confirmed: number): EventTransaction => ({ transaction_lt: String(lt), transaction_hash: `hash${lt}`, transaction_now: lt, transaction_aborted: false, mc_seqno: 3, trace_id: null, confirmed });
const MASTER = "0:AA";
const COLLECTION = "0:CC";

it("confirms the pending events of the wallets and items decided, at the deciding block, once", async () => {
  const rows = emptyRows();
  const transfer = { jetton_master: MASTER, query_id: "5", amount: "0", source: "0:01", destination: "0:02", response_destination: null, custom_payload: null, forward_ton_amount: "0", forward_payload: null, comment: "before the master" };
  rows.jetton_transfers.push({ ...tx(10, 0), ...transfer, jetton_wallet: "0:A1" }, { ...tx(11, 0), ...transfer, jetton_wallet: "0:A2" });
  rows.jetton_burns.push({ ...tx(12, 0), jetton_master: MASTER, jetton_wallet: "0:A1", query_id: "6", owner: "0:01", amount: "1", response_destination: null, custom_payload: null });
  rows.nft_transfers.push({ ...tx(13, 0), nft_collection: COLLECTION, nft_address: "0:C1", query_id: "7", nft_index: "1", old_owner: "0:01", new_owner: "0:02", response_destination: null, custom_payload: null, forward_amount: "0", forward_payload: null, comment: null });
  await insertDecodedRows(store, rows);

  // 0:A1 and the item confirmed at block 9; 0:A2 not (still pending, or denied)
  const decided = { jettonWallets: [{ jetton: MASTER, addresses: ["0:A1"] }], nftItems: [{ collection: COLLECTION, addresses: ["0:C1"] }] };
  await confirmEvents(store, decided, 9);
  await confirmEvents(store, decided, 9);

  const final = (table: string, key: string) => select<{ key: string; confirmed: number; mc_seqno: number }>(store, `SELECT ${key} AS key, confirmed, mc_seqno FROM ${table} FINAL ORDER BY key`, {});
  expect(await final("jetton_transfers", "jetton_wallet")).toEqual([
    { key: "0:A1", confirmed: 1, mc_seqno: 9 },
    { key: "0:A2", confirmed: 0, mc_seqno: 3 },
  ]);
  expect(await final("jetton_burns", "jetton_wallet")).toEqual([{ key: "0:A1", confirmed: 1, mc_seqno: 9 }]);
  expect(await final("nft_transfers", "nft_address")).toEqual([{ key: "0:C1", confirmed: 1, mc_seqno: 9 }]);
  // the unconfirmed row and one confirmed copy, whatever merges have done
  const copies = await select<{ n: string }>(store, "SELECT count() AS n FROM (SELECT DISTINCT * FROM jetton_transfers WHERE jetton_wallet = '0:A1')", {});
  expect(copies).toEqual([{ n: "2" }]);
});

it("a block decoded again after a restart confirms the events its first attempt decided, though a merge removed the pending row", async () => {
  const [master, wallet] = [`0:${"DD".repeat(32)}`, `0:${"D1".repeat(32)}`];
  const rows = emptyRows();
  const version = { code_hash: "", data_hash: "", last_transaction_lt: "40", last_transaction_now: 40 };
  const pendingRow = { ...version, jetton: master, owner: `0:${"01".repeat(32)}`, address: wallet, balance: "0", verdict: "pending" as const, mintless_is_claimed: null, mintless_amount: null, mintless_start_from: null, mintless_expire_at: null, mc_seqno: 3 };
  rows.jetton_wallets.push(pendingRow);
  rows.jetton_transfers.push({ ...tx(41, 0), jetton_master: master, jetton_wallet: wallet, query_id: "5", amount: "0", source: "0:01", destination: "0:02", response_destination: null, custom_payload: null, forward_ton_amount: "0", forward_payload: null, comment: null });
  await insertDecodedRows(store, rows);

  // block 9 brings the master: decoded once, its rows written, killed before its events are confirmed
  const block9 = () => {
    const r = emptyRows();
    r.jetton_masters.push({ ...version, last_transaction_lt: "90", address: master, total_supply: "0", mintable: true, admin_address: null, jetton_content: "{}", jetton_wallet_code_hash: "", custom_payload_api_uri: [], mc_seqno: 9 });
    return r;
  };
  const verdicts = { jettonWallet: () => Promise.resolve("confirmed" as const), nftItem: () => Promise.resolve("confirmed" as const) };
  const first = block9();
  expect(await decidePending(store, verdicts, first, 9)).toEqual({ jettonWallets: [{ jetton: master, addresses: [wallet] }], nftItems: [] });
  await insertDecodedRows(store, first);
  // a merge keeps the deciding row of the wallet's version, the pending one is gone
  await store.client.command({ query: "OPTIMIZE TABLE jetton_wallets FINAL" });
  expect(await select(store, "SELECT verdict, mc_seqno FROM jetton_wallets WHERE address = {wallet:String}", { wallet })).toEqual([{ verdict: "confirmed", mc_seqno: 9 }]);

  // the restart decodes block 9 again
  const again = block9();
  const decided = await decidePending(store, verdicts, again, 9);
  expect(decided.jettonWallets).toEqual([{ jetton: master, addresses: [wallet] }]);
  expect(again.jetton_wallets).toMatchObject([{ address: wallet, verdict: "confirmed", mc_seqno: 9, last_transaction_lt: "40" }]);
  await insertDecodedRows(store, again);
  await confirmEvents(store, decided, 9);
  expect(await select(store, "SELECT confirmed, mc_seqno FROM jetton_transfers FINAL WHERE jetton_wallet = {wallet:String}", { wallet })).toEqual([{ confirmed: 1, mc_seqno: 9 }]);
});
