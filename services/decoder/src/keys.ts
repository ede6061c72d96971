// The decoder's key-index tables (@tongate/store's decoded-keys: the layout both the decoder and API
// v3's key readers use): what a decoded block puts in them, and their rebuild from the decoder's
// ClickHouse tables at its checkpoint.
import {
  actionRow,
  classificationRow,
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
  type KeyActionRow,
  type KeyIndexSchema,
  type KeyTraceActions,
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

/** Rows per query (and per LMDB transaction) of a rebuild. */
const CHUNK = 20_000;

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

/** A rebuilt table: its sorting key (column and ClickHouse type), which its chunks are read in, and where its rows go. */
type RebuiltTable = {
  table: Exclude<keyof typeof KEY_COLUMNS, "metadata_fetches">;
  key: [column: string, type: string][];
  final?: boolean;
  put: (rows: Record<string, unknown>[], into: DecodedKeyRows) => void;
};

const REBUILT: RebuiltTable[] = [
  { table: "jetton_wallets", key: [["jetton", "String"], ["owner", "String"], ["address", "String"]], put: (rows, into) => into.jettonWallets.push(...rows.map(walletRow)) },
  { table: "nft_items", key: [["collection_address", "String"], ["nft_index", "UInt256"], ["address", "String"]], put: (rows, into) => into.nftItems.push(...rows.map(itemRow)) },
  { table: "nft_collections", key: [["address", "String"]], put: (rows, into) => into.nftCollections.push(...rows.map(collectionRow)) },
  { table: "account_interfaces", key: [["address", "String"]], put: (rows, into) => into.interfaces.push(...rows.map(interfacesRow)) },
  {
    table: "jetton_transfers",
    key: [["jetton_master", "String"], ["jetton_wallet", "String"], ["transaction_lt", "UInt64"], ["transaction_hash", "String"]],
    // a transfer's confirmation is a newer row of it (ReplacingMergeTree(confirmed)), as the ClickHouse path reads them
    final: true,
    put: (rows, into) => into.jettonTransfers.push(...rows.map(transferRow)),
  },
  { table: "token_metadata", key: [["address", "String"], ["type", "String"]], put: (rows, into) => into.tokens.push(...rows.map(tokenRow)) },
];

/**
 * The tables from the decoder's ClickHouse tables as the ClickHouse path reads them at its
 * checkpoint: the latest row per address at or before it, the transfers listed by then. The decoder
 * does not write meanwhile (it starts once its tables are complete).
 *
 * Each table is read in chunks in its sorting key's order, after the last key of the chunk before:
 * ClickHouse reads just the next granules of its primary index (chunks in any other order, the
 * latest row per address picked by the query, had it read and sort the whole table for each one).
 * The versions of an address that are not yet merged come as rows of their own: the tables keep the
 * latest (lt, mc_seqno) of each whatever order they are written in.
 */
export async function rebuildDecodedKeys({ store, keys: tables, signal, progress }: RebuildContext): Promise<boolean> {
  const keys = DecodedKeys.of(tables);
  await tables.clear();
  const upTo = await decodedCheckpoint(store);
  let done = 0;
  for (const t of REBUILT) {
    const chunk = (after?: Record<string, unknown>) => {
      const params: Record<string, unknown> = { upTo, n: CHUNK };
      t.key.forEach(([column], i) => (params[`k${i}`] = after?.[column]));
      const rows = select<Record<string, unknown>>(store, chunkQuery(t, after !== undefined), params);
      // awaited below unless the rebuild stops or a write fails first: not an unhandled rejection then
      rows.catch(() => undefined);
      return rows;
    };
    // the next chunk is read while this one is written (chDB's threads, LMDB's commit)
    let next = chunk();
    for (;;) {
      const rows = await next;
      if (!rows.length) break;
      next = chunk(rows[rows.length - 1]);
      if (signal?.aborted) return false;
      const into = emptyKeyRows();
      t.put(rows, into);
      await keys.write(into);
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
  for (let after = ""; ; ) {
    if (signal?.aborted) return false;
    const traces = await currentClassifications(store, upTo, after, TRACE_CHUNK);
    if (!traces.length) break;
    await keys.write({ ...emptyKeyRows(), traces });
    after = traces[traces.length - 1]!.classification.trace_id;
    done += traces.length;
    progress({ done, total: done });
  }
  await keys.setDecoded(upTo);
  return true;
}

/** Traces per chunk of a rebuild (each with its actions). */
const TRACE_CHUNK = 2_000;

/**
 * The classifications current at block `upTo` (the latest version at or before it) of the traces
 * after `after` in trace id order, with their actions (the latest row per action at or before it,
 * not deleted): the version rule of the actions tables (store/migrations/0004_actions.sql).
 */
export async function currentClassifications(store: Store, upTo: number, after: string, n: number): Promise<KeyTraceActions[]> {
  const records = await select<Record<string, unknown>>(
    store,
    `SELECT ${KEY_COLUMNS.trace_classifications} FROM trace_classifications WHERE version <= {upTo:UInt32} AND trace_id > {after:String}
      ORDER BY trace_id, version DESC LIMIT 1 BY trace_id LIMIT {n:UInt32}`,
    { upTo, after, n },
  );
  if (!records.length) return [];
  const ids = records.map((r) => String(r.trace_id));
  const rows = await select<Record<string, unknown>>(
    store,
    `SELECT ${KEY_COLUMNS.actions} FROM (
       SELECT ${KEY_COLUMNS.actions}, deleted FROM actions WHERE trace_id IN {ids:Array(String)} AND version <= {upTo:UInt32}
       ORDER BY trace_id, action_id, version DESC LIMIT 1 BY trace_id, action_id)
     WHERE NOT deleted`,
    { ids, upTo },
  );
  const byTrace = new Map<string, KeyActionRow[]>();
  for (const r of rows.map(actionRow)) byTrace.set(r.trace_id, [...(byTrace.get(r.trace_id) ?? []), r]);
  return records.map(classificationRow).map((classification) => ({ classification, actions: byTrace.get(classification.trace_id) ?? [] }));
}

/** One chunk of a table's rows at or before the checkpoint, in its sorting key's order (after the key k0, k1, … when `following`). */
function chunkQuery({ table, key, final }: RebuiltTable, following: boolean): string {
  const columns = key.map(([column]) => column).join(", ");
  const listed = table === "jetton_transfers" ? " AND confirmed = 1 AND NOT transaction_aborted" : "";
  const next = following ? ` AND (${columns}) > (${key.map(([, type], i) => `{k${i}:${type}}`).join(", ")})` : "";
  return `SELECT ${KEY_COLUMNS[table]} FROM ${table}${final ? " FINAL" : ""} WHERE mc_seqno <= {upTo:UInt32}${listed}${next}
    ORDER BY ${columns} LIMIT {n:UInt32}`;
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
