// A decoded block's rows into the decoder's tables, then its checkpoint: a stop between the two
// decodes the block again, which writes the same rows (same keys and versions), so nothing is lost
// or counted twice.
import type { Store } from "@tongate/store";
import type { DecodedRows } from "./rows.js";

/** The decoder's checkpoint: the last masterchain block whose rows are all written. API v3 answers nothing past it. */
export const DECODER_CHECKPOINT = "decoder";

async function insertRows<T>(store: Store, table: string, values: T[]): Promise<void> {
  if (values.length > 0) await store.client.insert<T>({ table, values, format: "JSONEachRow" });
}

/** State first, events after: a reader bounded by the checkpoint sees neither until both are in. */
export async function insertDecodedRows(store: Store, rows: DecodedRows): Promise<void> {
  await insertRows(store, "account_interfaces", rows.account_interfaces);
  await insertRows(store, "jetton_masters", rows.jetton_masters);
  await insertRows(store, "jetton_wallets", rows.jetton_wallets);
  await insertRows(store, "nft_collections", rows.nft_collections);
  await insertRows(store, "nft_items", rows.nft_items);
  await insertRows(store, "nft_sales", rows.nft_sales);
  await insertRows(store, "jetton_transfers", rows.jetton_transfers);
  await insertRows(store, "jetton_burns", rows.jetton_burns);
  await insertRows(store, "nft_transfers", rows.nft_transfers);
}
