// A decoded block's rows into the decoder's tables, then its checkpoint: a stop between the two
// decodes the block again, which writes the same rows (same keys and versions), so nothing is lost
// or counted twice.
import type { Store } from "@tongate/store";
import type { ActionsRows } from "./actions/rows.js";
import type { DecodedRows } from "./rows.js";

/** ClickHouse refused a row's value (a number out of its column's range, text where a number goes): a fact of that row, not of the store. */
const VALUE_REFUSED = /cannot parse|must not contain|out of (range|bound)|cannot convert|type mismatch|incorrect data|value is too (big|long)/i;

/** Rows ClickHouse refused and skipped, with why (a value on chain must not stop the decoder at its block). */
export interface Refused {
  table: string;
  row: unknown;
  reason: string;
}

export async function insertRows<T>(store: Store, table: string, values: T[], refused: Refused[]): Promise<void> {
  if (values.length === 0) return;
  try {
    await store.client.insert<T>({ table, values, format: "JSONEachRow" });
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    // a store that does not answer fails the block (it is decoded again); a refused value costs its row only
    if (!VALUE_REFUSED.test(reason)) throw e;
    if (values.length === 1) {
      refused.push({ table, row: values[0], reason: reason.slice(0, 300) });
      return;
    }
    const half = Math.ceil(values.length / 2);
    await insertRows(store, table, values.slice(0, half), refused);
    await insertRows(store, table, values.slice(half), refused);
  }
}

/** State first, events after: a reader bounded by the checkpoint sees neither until both are in. */
export async function insertDecodedRows(store: Store, rows: DecodedRows): Promise<Refused[]> {
  const refused: Refused[] = [];
  await insertRows(store, "account_interfaces", rows.account_interfaces, refused);
  await insertRows(store, "jetton_masters", rows.jetton_masters, refused);
  await insertRows(store, "jetton_wallets", rows.jetton_wallets, refused);
  await insertRows(store, "nft_collections", rows.nft_collections, refused);
  await insertRows(store, "nft_items", rows.nft_items, refused);
  await insertRows(store, "nft_sales", rows.nft_sales, refused);
  await insertRows(store, "dedust_pools", rows.dedust_pools, refused);
  await insertRows(store, "token_metadata", rows.token_metadata, refused);
  await insertRows(store, "jetton_transfers", rows.jetton_transfers, refused);
  await insertRows(store, "jetton_burns", rows.jetton_burns, refused);
  await insertRows(store, "nft_transfers", rows.nft_transfers, refused);
  return refused;
}

/** A block's classifications: actions and their accounts first, the traces' records last (a reader that goes by a record finds its actions). */
export async function insertActionsRows(store: Store, rows: ActionsRows): Promise<Refused[]> {
  const refused: Refused[] = [];
  await insertRows(store, "actions", rows.actions, refused);
  await insertRows(store, "action_accounts", rows.action_accounts, refused);
  await insertRows(store, "trace_classifications", rows.trace_classifications, refused);
  return refused;
}
