// Jetton wallets and NFT items seen before their master or collection: recorded `pending`, and
// decided when the master or collection is decoded — a new row of the same state (same lt) with the
// verdict and the deciding block, and, when confirmed, their events written again as confirmed —
// without rescanning history.
//
// A block decoded again after a restart (its rows written, its checkpoint not) decides again those
// its first attempt decided: their pending row may be gone by then — a merge keeps one row per
// version (the same lt), the deciding one — so they are found by their row of this block instead,
// and their events are confirmed again (what the first attempt may not have done yet).
import { Address } from "@ton/core";
import { select, type Store } from "@tongate/store";
import type { DecodedRows, JettonWalletRow, NftItemRow } from "./rows.js";
import type { TransientPolicy } from "./transient.js";
import type { Verdicts } from "./verdicts.js";

/** Children decided per parent and block; the rest wait for the parent's next block. */
const DECIDED_PER_PARENT = 10_000;

export interface Decided {
  /** wallets and items confirmed now: their events are written again as confirmed */
  jettonWallets: { jetton: string; addresses: string[] }[];
  nftItems: { collection: string; addresses: string[] }[];
  /** DeDust pools this block recognised for the first time: the traces through them are classified again */
  dedustPools?: string[];
}

const bool = (v: unknown): boolean => v === true || v === 1 || v === "1" || v === "true";

/** A wallet's or item's latest row at or before block `mcSeqno`: pending before it, or decided in it by an earlier attempt. */
const undecided = (r: { verdict: string; mc_seqno: number }, mcSeqno: number): boolean => Number(r.mc_seqno) === mcSeqno || r.verdict === "pending";

/** Decides the pending wallets and items of the masters and collections in `rows` (decoded at `mcSeqno`), adding their rows to `rows`. */
export async function decidePending(store: Store, verdicts: Pick<Verdicts, "jettonWallet" | "nftItem">, rows: DecodedRows, mcSeqno: number, policy: TransientPolicy = "record"): Promise<Decided> {
  const decided: Decided = { jettonWallets: [], nftItems: [] };
  const now = Math.floor(Date.now() / 1000);
  for (const m of rows.jetton_masters) {
    const pending = await select<JettonWalletRow>(
      store,
      `SELECT * FROM jetton_wallets WHERE jetton = {jetton:String} AND mc_seqno <= {mc:UInt32}
        ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`,
      { jetton: m.address, mc: mcSeqno },
    );
    const confirmed: string[] = [];
    for (const w of pending.filter((p) => undecided(p, mcSeqno)).slice(0, DECIDED_PER_PARENT)) {
      if (rows.jetton_wallets.some((r) => r.address === w.address)) continue; // decoded in this block already
      const verdict = await verdicts.jettonWallet(Address.parseRaw(m.address), Address.parseRaw(w.owner), Address.parseRaw(w.address), mcSeqno, now, policy);
      if (verdict === "pending") continue;
      rows.jetton_wallets.push({ ...w, mintless_is_claimed: w.mintless_is_claimed === null ? null : bool(w.mintless_is_claimed), verdict, mc_seqno: mcSeqno });
      if (verdict === "confirmed") confirmed.push(w.address);
    }
    if (confirmed.length) decided.jettonWallets.push({ jetton: m.address, addresses: confirmed });
  }
  for (const c of rows.nft_collections) {
    const pending = await select<NftItemRow>(
      store,
      `SELECT * FROM nft_items WHERE collection_address = {collection:String} AND mc_seqno <= {mc:UInt32}
        ORDER BY last_transaction_lt DESC, mc_seqno DESC LIMIT 1 BY address`,
      { collection: c.address, mc: mcSeqno },
    );
    const confirmed: string[] = [];
    for (const i of pending.filter((p) => undecided(p, mcSeqno)).slice(0, DECIDED_PER_PARENT)) {
      if (rows.nft_items.some((r) => r.address === i.address)) continue;
      const verdict = await verdicts.nftItem(Address.parseRaw(c.address), BigInt(i.nft_index), Address.parseRaw(i.address), mcSeqno, now, policy);
      if (verdict === "pending") continue;
      rows.nft_items.push({ ...i, init: bool(i.init), on_sale: bool(i.on_sale), verdict, mc_seqno: mcSeqno });
      if (verdict === "confirmed") confirmed.push(i.address);
    }
    if (confirmed.length) decided.nftItems.push({ collection: c.address, addresses: confirmed });
  }
  const pools = await newDedustPools(store, rows, mcSeqno);
  if (pools.length) decided.dedustPools = pools;
  return decided;
}

/**
 * The pools of this block's dedust_pools rows with none before it: recognised now (first seen, or
 * waiting for the factory's state until now). A block decoded again finds the same (its own rows do
 * not count as before it).
 */
async function newDedustPools(store: Store, rows: DecodedRows, mcSeqno: number): Promise<string[]> {
  if (rows.dedust_pools.length === 0) return [];
  const addresses = rows.dedust_pools.map((p) => p.address);
  const known = await select<{ address: string }>(store, "SELECT DISTINCT address FROM dedust_pools WHERE address IN {addresses:Array(String)} AND mc_seqno < {mc:UInt32}", { addresses, mc: mcSeqno });
  const before = new Set(known.map((r) => r.address));
  return addresses.filter((a) => !before.has(a));
}

/**
 * The events of wallets and items confirmed late, written again as confirmed at the deciding block.
 * The unconfirmed rows are chosen in a subquery: ClickHouse resolves a name in WHERE to a SELECT
 * alias first, so beside `1 AS confirmed` a `confirmed = 0` of the same SELECT would read 1 = 0.
 */
export async function confirmEvents(store: Store, decided: Decided, mcSeqno: number): Promise<void> {
  for (const { jetton, addresses } of decided.jettonWallets) {
    for (const table of ["jetton_transfers", "jetton_burns"]) {
      await store.client.command({
        query: `INSERT INTO ${table} SELECT * REPLACE (1 AS confirmed, {mc:UInt32} AS mc_seqno)
                  FROM (SELECT * FROM ${table} FINAL WHERE jetton_master = {jetton:String} AND jetton_wallet IN {wallets:Array(String)} AND confirmed = 0)`,
        query_params: { mc: mcSeqno, jetton, wallets: addresses },
      });
    }
  }
  for (const { collection, addresses } of decided.nftItems) {
    await store.client.command({
      query: `INSERT INTO nft_transfers SELECT * REPLACE (1 AS confirmed, {mc:UInt32} AS mc_seqno)
                FROM (SELECT * FROM nft_transfers FINAL WHERE nft_collection = {collection:String} AND nft_address IN {items:Array(String)} AND confirmed = 0)`,
      query_params: { mc: mcSeqno, collection, items: addresses },
    });
  }
}
