// The decoder's key-index tables (@tongate/store's decoded-keys: the layout both the decoder and API
// v3's key readers use): what a decoded block puts in them, and their rebuild from the decoder's
// ClickHouse tables at its checkpoint.
import {
  collectionRow,
  DECODED_KEYS,
  DECODER_CHECKPOINT,
  DecodedKeys,
  type DecodedKeyRows,
  emptyKeyRows,
  getCheckpoint,
  interfacesRow,
  itemRow,
  KEY_COLUMNS,
  type KeyIndexSchema,
  type KeyTransferRow,
  type RebuildContext,
  select,
  type Store,
  tokenRow,
  fetchRow,
  transferRow,
  walletRow,
} from "@tongate/store";
import type { Decided } from "./pending.js";
import type { DecodedRows } from "./rows.js";
import type { Refused } from "./write.js";

/** Rows per query of a rebuild. */
const CHUNK = 5_000;

/**
 * A decoded block's rows as the key tables take them: `late`, the transfers of wallets its masters
 * confirmed (lateTransfers); without the rows ClickHouse refused, which the ClickHouse path never shows.
 */
export function keyRowsOf(rows: DecodedRows, late: readonly KeyTransferRow[] = [], refused: readonly Refused[] = []): DecodedKeyRows {
  const skipped = new Set(refused.map((r) => r.row));
  const kept = <T>(list: T[]): T[] => (skipped.size ? list.filter((r) => !skipped.has(r)) : list);
  return {
    jettonWallets: kept(rows.jetton_wallets).map(walletRow),
    jettonTransfers: [...kept(rows.jetton_transfers).map(transferRow), ...late],
    nftItems: kept(rows.nft_items).map(itemRow),
    nftCollections: kept(rows.nft_collections).map(collectionRow),
    interfaces: kept(rows.account_interfaces).map(interfacesRow),
    tokens: kept(rows.token_metadata).map(tokenRow),
  };
}

/** The transfers of the wallets confirmed late in block `mcSeqno`, as ClickHouse has them after confirmEvents rewrote them. */
export async function lateTransfers(store: Store, decided: Decided): Promise<KeyTransferRow[]> {
  const out: KeyTransferRow[] = [];
  for (const { jetton, addresses } of decided.jettonWallets) {
    const rows = await select<Record<string, unknown>>(
      store,
      `SELECT ${KEY_COLUMNS.jetton_transfers} FROM jetton_transfers FINAL
        WHERE jetton_master = {jetton:String} AND jetton_wallet IN {wallets:Array(String)} AND confirmed = 1 AND NOT transaction_aborted`,
      { jetton, wallets: addresses },
    );
    out.push(...rows.map(transferRow));
  }
  return out;
}

/**
 * The tables from the decoder's ClickHouse tables as the ClickHouse path reads them at its
 * checkpoint: the latest row per address at or before it, the transfers listed by then. The decoder
 * does not write meanwhile (it starts once its tables are complete).
 */
export async function rebuildDecodedKeys({ store, keys: tables, signal, progress }: RebuildContext): Promise<boolean> {
  const keys = DecodedKeys.of(tables);
  await tables.clear();
  const upTo = await decodedCheckpoint(store);
  let done = 0;
  const chunks: [table: Exclude<keyof typeof KEY_COLUMNS, "metadata_fetches">, order: string, put: (rows: Record<string, unknown>[], into: DecodedKeyRows) => void][] = [
    ["jetton_wallets", "address", (rows, into) => into.jettonWallets.push(...rows.map(walletRow))],
    ["nft_items", "address", (rows, into) => into.nftItems.push(...rows.map(itemRow))],
    ["nft_collections", "address", (rows, into) => into.nftCollections.push(...rows.map(collectionRow))],
    ["account_interfaces", "address", (rows, into) => into.interfaces.push(...rows.map(interfacesRow))],
    ["jetton_transfers", "transaction_hash", (rows, into) => into.jettonTransfers.push(...rows.map(transferRow))],
    // by address, each type's latest (an address may be a token of two types)
    ["token_metadata", "address", (rows, into) => into.tokens.push(...rows.map(tokenRow))],
  ];
  for (const [table, order, put] of chunks) {
    let after = "";
    let afterType = "";
    for (;;) {
      if (signal?.aborted) return false;
      const rows = await select<Record<string, unknown>>(store, chunkQuery(table, order), { upTo, after, afterType, n: CHUNK });
      if (!rows.length) break;
      const into = emptyKeyRows();
      put(rows, into);
      await keys.write(into);
      const last = rows[rows.length - 1]!;
      after = String(last[order]);
      afterType = String(last.type ?? "");
      done += rows.length;
      progress({ done, total: done });
    }
  }
  // the fetches are not tied to blocks: all of them, the newest per URI
  for (let after = ""; ; ) {
    if (signal?.aborted) return false;
    const rows = await select<Record<string, unknown>>(
      store,
      `SELECT ${KEY_COLUMNS.metadata_fetches} FROM metadata_fetches WHERE uri > {after:String}
        ORDER BY uri, fetched_at DESC LIMIT 1 BY uri LIMIT {n:UInt32}`,
      { after, n: CHUNK },
    );
    if (!rows.length) break;
    await keys.putFetches(rows.map(fetchRow));
    after = String(rows[rows.length - 1]!.uri);
    done += rows.length;
    progress({ done, total: done });
  }
  await keys.setDecoded(upTo);
  return true;
}

/** One chunk of a table's rows that the tables keep, in `order` after a value of it. */
function chunkQuery(table: keyof typeof KEY_COLUMNS, order: string): string {
  if (table === "token_metadata") {
    // one row per (address, type): pages are cut between two types of one address too
    return `SELECT ${KEY_COLUMNS.token_metadata} FROM token_metadata WHERE mc_seqno <= {upTo:UInt32} AND (address, type) > ({after:String}, {afterType:String})
      ORDER BY address, type, last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address, type LIMIT {n:UInt32}`;
  }
  if (table === "jetton_transfers") {
    return `SELECT ${KEY_COLUMNS.jetton_transfers} FROM jetton_transfers FINAL
      WHERE mc_seqno <= {upTo:UInt32} AND confirmed = 1 AND NOT transaction_aborted AND ${order} > {after:String}
      ORDER BY ${order} LIMIT {n:UInt32}`;
  }
  return `SELECT ${KEY_COLUMNS[table]} FROM ${table} WHERE mc_seqno <= {upTo:UInt32} AND ${order} > {after:String}
    ORDER BY ${order}, last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY ${order} LIMIT {n:UInt32}`;
}

const decodedCheckpoint = async (store: Store): Promise<number> => (await getCheckpoint(store, DECODER_CHECKPOINT)) ?? 0;

/** The decoder's key-index schema (registered with its tables). */
export const DECODER_KEY_INDEX: KeyIndexSchema = { ...DECODED_KEYS, rebuild: rebuildDecodedKeys };

/**
 * The tables brought to the decoder's checkpoint before it decodes on: tables ahead of it (the
 * checkpoint was moved back to decode again) are emptied and rebuilt; incomplete ones rebuilt;
 * blocks staged at or before it applied, later ones dropped. Then marked live for the readers.
 * Resolves false when stopped by `signal`.
 */
export async function prepareDecodedKeys(store: Store, keys: DecodedKeys, prepare: (signal?: AbortSignal) => Promise<boolean>, signal?: AbortSignal): Promise<boolean> {
  const upTo = await decodedCheckpoint(store);
  if (keys.complete && (keys.decoded() ?? 0) > upTo) await keys.tables.clear();
  if (!(await prepare(signal))) return false;
  await keys.apply(upTo);
  await keys.setLive(true);
  return true;
}
