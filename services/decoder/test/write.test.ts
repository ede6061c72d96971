// A value on chain that the decoder's tables cannot hold costs its row, not the block: the other
// rows of the block are written and the decoder goes on (real chDB).
import { openStore, select, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DECODER_MIGRATIONS } from "../src/service.js";
import { emptyRows, type NftCollectionRow } from "../src/rows.js";
import { insertDecodedRows } from "../src/write.js";

let store: Store;
beforeAll(async () => {
  store = await openStore();
  await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS });
});
afterAll(() => store?.close());

const collection = (address: string, nextItemIndex: string): NftCollectionRow => ({
  address,
  next_item_index: nextItemIndex,
  owner_address: null,
  collection_content: "{}",
  code_hash: "",
  data_hash: "",
  last_transaction_lt: "1",
  last_transaction_now: 1,
  mc_seqno: 1,
});

it("writes the rows ClickHouse takes and reports the one it refuses", async () => {
  const rows = emptyRows();
  rows.nft_collections.push(collection("0:AA", "5"), collection("0:BB", "not a number"), collection("0:CC", "-1"));
  const refused = await insertDecodedRows(store, rows);
  expect(refused.map((r) => (r.row as NftCollectionRow).address)).toEqual(["0:BB"]);
  const stored = await select<{ address: string; next_item_index: string }>(store, "SELECT address, toString(next_item_index) AS next_item_index FROM nft_collections ORDER BY address", {});
  expect(stored).toEqual([
    { address: "0:AA", next_item_index: "5" },
    { address: "0:CC", next_item_index: "-1" },
  ]);
});
