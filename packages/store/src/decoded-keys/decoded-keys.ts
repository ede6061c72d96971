// The decoder's key-index tables (./layout.ts) as the decoder writes them and API v3's key readers
// read them.
//
// What the tables show is the decoder's state at one masterchain block, recorded beside them
// ("decoded" in `progress`), and never a block the decoder has not checkpointed: a block's rows are
// staged (written whole, before the decoder's checkpoint: a stop after it loses nothing) and applied
// after the checkpoint, in one LMDB transaction with the block's number. A reader's snapshot is
// therefore the state at a checkpointed block, whole: a wallet whose balance the next block changes
// keeps its entry until that block is checkpointed, an item that changes hands moves at once from
// one owner to the other. (The alternative, writing every version with its block and filtering by
// the checkpoint, keeps old versions and stale entries beside the live ones and makes every reader
// filter them.) A stop between the checkpoint and the apply is mended on the next start: staged
// blocks at or before the checkpoint are applied, later ones dropped (the decoder writes them again).
//
// State (wallets, items, collections, interfaces) is the latest row per address, as the ClickHouse
// path reads it: replaced only by a row of the same or a later version (last_transaction_lt, then
// mc_seqno), so applying blocks, a rebuild's rows, or both in any order gives the same bytes. An
// owner change moves the item's entries; the rows keep their verdict and readers list confirmed
// ones only. Transfers are kept when listed (confirmed, not aborted); a wallet confirmed late gets
// its transfers in the block that confirmed it, as ClickHouse rewrites them there.
//
// Actions: a trace's classification replaces the trace's entries whole (its record, its actions
// and their entries by id, account and transaction) when it is of the same or a later version than
// the one kept, so that a re-classification leaves nothing of the one before and a block applied
// twice writes the same bytes.
import type { Database } from "lmdb";
import type { KeyTables } from "../key-index/env.js";
import { ACCOUNT_BYTES, accountKey, HASH_BYTES, hashKey, LT_BYTES, ltBytes, prefixEnd, u32Bytes } from "../key-index/keys.js";
import { actionAccountKey, INDEX_BYTES, indexBytes, optionalAccountKey, textKey, tokenKey, transferKey, uriKey, VERSION_BYTES, versionBytes, walletKey } from "./layout.js";
import type { DecodedKeyRows, KeyActionRow, KeyClassificationRow, KeyCollectionRow, KeyFetchRow, KeyItemRow, KeyTokenRow, KeyTraceActions, KeyTransferRow, KeyWalletRow } from "./rows.js";

const EMPTY = Buffer.alloc(0);
const DECODED = Buffer.from("decoded");
const LIVE = Buffer.from("live");
/** a transfer's side of its owner entry */
export const SOURCE = 1;
export const DESTINATION = 2;

/** An item's value: version, owner, real owner, collection, index, then the row. */
const ITEM_ROW_AT = VERSION_BYTES + 3 * ACCOUNT_BYTES + INDEX_BYTES;
/** A wallet's value: version, owner, jetton, then the row. */
const WALLET_ROW_AT = VERSION_BYTES + 2 * ACCOUNT_BYTES;

const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v));
const parse = <T>(b: Buffer, at: number): T => JSON.parse(b.toString("utf8", at)) as T;
const nonEmpty = (raw: string): boolean => raw !== "";

/** One entry of an owner's or a jetton's transfers, in key order. */
export interface TransferEntry {
  lt: bigint;
  hash: string;
  /** SOURCE | DESTINATION (entries by jetton: 0) */
  sides: number;
  /** the jetton master (entries by jetton: the jetton's) */
  master: string;
}

/** A place in an account's actions (toncenter's action_accounts order): a page starts after it. */
export interface ActionPosition {
  traceEndLt: bigint;
  traceId: string;
  endLt: bigint;
  actionId: string;
}

/** One entry of an account's actions, in key order, with its action. */
export interface AccountActionEntry extends ActionPosition {
  action: KeyActionRow;
}

export class DecodedKeys {
  private readonly progress: Database<Buffer, Buffer>;
  private readonly staged: Database<Buffer, Buffer>;
  private readonly wallets: Database<Buffer, Buffer>;
  private readonly walletsByOwner: Database<Buffer, Buffer>;
  private readonly walletsByJetton: Database<Buffer, Buffer>;
  private readonly transfers: Database<Buffer, Buffer>;
  private readonly transfersByOwner: Database<Buffer, Buffer>;
  private readonly transfersByJetton: Database<Buffer, Buffer>;
  private readonly items: Database<Buffer, Buffer>;
  private readonly itemsByOwner: Database<Buffer, Buffer>;
  private readonly itemsByRealOwner: Database<Buffer, Buffer>;
  private readonly collections: Database<Buffer, Buffer>;
  private readonly detected: Database<Buffer, Buffer>;
  private readonly tokens: Database<Buffer, Buffer>;
  private readonly fetches: Database<Buffer, Buffer>;
  private readonly classifications: Database<Buffer, Buffer>;
  private readonly actions: Database<Buffer, Buffer>;
  private readonly actionIds: Database<Buffer, Buffer>;
  private readonly actionsByAccount: Database<Buffer, Buffer>;
  private readonly actionsByTransaction: Database<Buffer, Buffer>;

  private constructor(readonly tables: KeyTables) {
    this.progress = tables.table("progress");
    this.staged = tables.table("staged");
    this.wallets = tables.table("jetton_wallets");
    this.walletsByOwner = tables.table("jetton_wallets_by_owner");
    this.walletsByJetton = tables.table("jetton_wallets_by_jetton");
    this.transfers = tables.table("jetton_transfers");
    this.transfersByOwner = tables.table("jetton_transfers_by_owner");
    this.transfersByJetton = tables.table("jetton_transfers_by_jetton");
    this.items = tables.table("nft_items");
    this.itemsByOwner = tables.table("nft_items_by_owner");
    this.itemsByRealOwner = tables.table("nft_items_by_real_owner");
    this.collections = tables.table("nft_collections");
    this.detected = tables.table("interfaces");
    this.tokens = tables.table("token_metadata");
    this.fetches = tables.table("metadata_fetches");
    this.classifications = tables.table("trace_classifications");
    this.actions = tables.table("actions");
    this.actionIds = tables.table("actions_by_id");
    this.actionsByAccount = tables.table("actions_by_account");
    this.actionsByTransaction = tables.table("actions_by_transaction");
  }

  /** Over the decoder's tables (the decoder's registration, or a reader's view: `env.tables(DECODER_OWNER, DECODED_KEYS)`). */
  static of(tables: KeyTables): DecodedKeys {
    return new DecodedKeys(tables);
  }

  /** Every row of the decoder's ClickHouse tables up to `decoded` is here. */
  get complete(): boolean {
    return this.tables.complete;
  }

  /**
   * Readers may answer from the tables: complete, and kept current by a decoder (one that stopped
   * leaves them as they were while its checkpoint may move on elsewhere: reads go to ClickHouse).
   */
  get usable(): boolean {
    return this.complete && this.progress.get(LIVE)?.[0] === 1;
  }

  /** The masterchain block the tables show (undefined before the first). */
  decoded(): number | undefined {
    const v = this.progress.get(DECODED);
    return v ? v.readUInt32BE(0) : undefined;
  }

  async setLive(live: boolean): Promise<void> {
    await this.progress.put(LIVE, Buffer.of(live ? 1 : 0));
  }

  // ---- writing ----

  /** A decoded block's rows, kept until its checkpoint is set (then `apply`). */
  async stage(mcSeqno: number, rows: DecodedKeyRows): Promise<void> {
    await this.staged.put(u32Bytes(mcSeqno), json(rows));
  }

  /**
   * After the decoder's checkpoint `upTo`: the staged blocks up to it applied, the others (written
   * by a run that stopped before their checkpoint) dropped, and the tables marked as of `upTo` — in
   * one transaction, so that readers see the state before or after, never a part.
   */
  async apply(upTo: number): Promise<void> {
    await this.tables.transaction(() => {
      const staged: { key: Buffer; value: Buffer }[] = [];
      for (const { key, value } of this.staged.getRange({})) staged.push({ key: Buffer.from(key), value: Buffer.from(value) });
      for (const { key, value } of staged) {
        if (key.readUInt32BE(0) <= upTo) this.put(parse<DecodedKeyRows>(value, 0));
        this.staged.remove(key);
      }
      this.progress.put(DECODED, u32Bytes(upTo));
    });
  }

  /** Rows straight into the tables (a rebuild's chunks), in one transaction. */
  async write(rows: DecodedKeyRows): Promise<void> {
    await this.tables.transaction(() => this.put(rows));
  }

  /** The tables shown as of `mcSeqno` (a rebuild's end). */
  async setDecoded(mcSeqno: number): Promise<void> {
    await this.progress.put(DECODED, u32Bytes(mcSeqno));
  }

  /** Inside a write transaction. */
  private put(rows: DecodedKeyRows): void {
    for (const r of rows.jettonWallets) this.putWallet(r);
    for (const r of rows.nftItems) this.putItem(r);
    for (const r of rows.nftCollections) this.putVersioned(this.collections, r.address, r.last_transaction_lt, r.mc_seqno, json(r));
    for (const r of rows.interfaces) this.putVersioned(this.detected, r.address, r.last_transaction_lt, r.mc_seqno, json(r.interfaces));
    for (const r of rows.jettonTransfers) this.putTransfer(r);
    for (const r of rows.tokens) this.putVersionedKey(this.tokens, tokenKey(r.address, r.type), r.last_transaction_lt, r.mc_seqno, json(r));
    for (const t of rows.traces ?? []) this.putTrace(t);
  }

  /** A trace's classification in place of the one kept, unless that one is newer. */
  private putTrace({ classification, actions }: KeyTraceActions): void {
    const key = textKey(classification.trace_id);
    const had = this.classifications.get(key);
    if (had && parse<KeyClassificationRow>(had, 0).version > classification.version) return;
    this.removeActions(classification.trace_id);
    this.classifications.put(key, json(classification));
    for (const a of actions) {
      const trace = textKey(a.trace_id);
      const id = textKey(a.action_id);
      this.actions.put(Buffer.concat([trace, id]), json(a));
      this.actionIds.put(Buffer.concat([id, trace]), EMPTY);
      for (const account of new Set(a.accounts)) this.actionsByAccount.put(actionAccountKey(account, a.trace_end_lt, a.trace_id, a.end_lt, a.action_id), EMPTY);
      for (const tx of new Set(a.tx_hashes)) this.actionsByTransaction.put(Buffer.concat([hashKey(tx), trace, id]), EMPTY);
    }
  }

  /** Every entry of a trace's actions (inside a write transaction). */
  private removeActions(traceId: string): void {
    const trace = textKey(traceId);
    const old: KeyActionRow[] = [];
    for (const { value } of this.actions.getRange({ start: trace, end: prefixEnd(trace) })) old.push(parse<KeyActionRow>(Buffer.from(value), 0));
    for (const a of old) {
      const id = textKey(a.action_id);
      this.actions.remove(Buffer.concat([trace, id]));
      this.actionIds.remove(Buffer.concat([id, trace]));
      for (const account of new Set(a.accounts)) this.actionsByAccount.remove(actionAccountKey(account, a.trace_end_lt, a.trace_id, a.end_lt, a.action_id));
      for (const tx of new Set(a.tx_hashes)) this.actionsByTransaction.remove(Buffer.concat([hashKey(tx), trace, id]));
    }
  }

  /**
   * What fetching URIs gave (the metadata worker, as fetches end: not tied to a block); a row older
   * than the one kept is ignored, so the worker and a rebuild may write in any order.
   */
  async putFetches(rows: readonly KeyFetchRow[]): Promise<void> {
    await this.tables.transaction(() => {
      for (const r of rows) {
        const key = uriKey(r.uri);
        const had = this.fetches.get(key);
        if (had && BigInt(parse<KeyFetchRow>(had, 0).fetched_at) > BigInt(r.fetched_at)) continue;
        this.fetches.put(key, json(r));
      }
    });
  }

  /** The stored version of `key`, if not newer than (lt, mc). */
  private older(db: Database<Buffer, Buffer>, key: Buffer, version: Buffer): { had: Buffer | undefined; newer: boolean } {
    const had = db.get(key);
    return { had, newer: had !== undefined && Buffer.compare(had.subarray(0, VERSION_BYTES), version) > 0 };
  }

  private putVersioned(db: Database<Buffer, Buffer>, address: string, lt: string, mcSeqno: number, value: Buffer): void {
    this.putVersionedKey(db, accountKey(address), lt, mcSeqno, value);
  }

  private putVersionedKey(db: Database<Buffer, Buffer>, key: Buffer, lt: string, mcSeqno: number, value: Buffer): void {
    const version = versionBytes(lt, mcSeqno);
    if (this.older(db, key, version).newer) return;
    db.put(key, Buffer.concat([version, value]));
  }

  private putWallet(r: KeyWalletRow): void {
    const key = accountKey(r.address);
    const version = versionBytes(r.last_transaction_lt, r.mc_seqno);
    const { had, newer } = this.older(this.wallets, key, version);
    if (newer) return;
    const owner = optionalAccountKey(r.owner);
    const jetton = optionalAccountKey(r.jetton);
    if (had) {
      // a wallet's owner and jetton are its deploy's, but a row that says otherwise moves it
      const oldOwner = had.subarray(VERSION_BYTES, VERSION_BYTES + ACCOUNT_BYTES);
      const oldJetton = had.subarray(VERSION_BYTES + ACCOUNT_BYTES, WALLET_ROW_AT);
      if (!oldOwner.equals(owner)) this.walletsByOwner.remove(Buffer.concat([oldOwner, key]));
      if (!oldJetton.equals(jetton)) this.walletsByJetton.remove(Buffer.concat([oldJetton, key]));
    }
    this.wallets.put(key, Buffer.concat([version, owner, jetton, json(r)]));
    if (nonEmpty(r.owner)) this.walletsByOwner.put(walletKey(r.owner, r.address), EMPTY);
    if (nonEmpty(r.jetton)) this.walletsByJetton.put(walletKey(r.jetton, r.address), EMPTY);
  }

  private putItem(r: KeyItemRow): void {
    const key = accountKey(r.address);
    const version = versionBytes(r.last_transaction_lt, r.mc_seqno);
    const { had, newer } = this.older(this.items, key, version);
    if (newer) return;
    const order = Buffer.concat([optionalAccountKey(r.collection_address), indexBytes(r.nft_index), key]);
    const owner = optionalAccountKey(r.owner_address);
    const realOwner = optionalAccountKey(r.real_owner);
    if (had) {
      const oldOrder = Buffer.concat([had.subarray(VERSION_BYTES + 2 * ACCOUNT_BYTES, ITEM_ROW_AT), key]);
      const oldOwner = had.subarray(VERSION_BYTES, VERSION_BYTES + ACCOUNT_BYTES);
      const oldReal = had.subarray(VERSION_BYTES + ACCOUNT_BYTES, VERSION_BYTES + 2 * ACCOUNT_BYTES);
      const moved = !oldOrder.equals(order);
      if (moved || !oldOwner.equals(owner)) this.itemsByOwner.remove(Buffer.concat([oldOwner, oldOrder]));
      if (moved || !oldReal.equals(realOwner)) this.itemsByRealOwner.remove(Buffer.concat([oldReal, oldOrder]));
    }
    this.items.put(key, Buffer.concat([version, owner, realOwner, order.subarray(0, ACCOUNT_BYTES + INDEX_BYTES), json(r)]));
    if (nonEmpty(r.owner_address)) this.itemsByOwner.put(Buffer.concat([owner, order]), EMPTY);
    if (nonEmpty(r.real_owner)) this.itemsByRealOwner.put(Buffer.concat([realOwner, order]), EMPTY);
  }

  private putTransfer(r: KeyTransferRow): void {
    // listed as the ClickHouse path lists them: of a confirmed wallet, not aborted
    if (r.confirmed !== 1 || r.transaction_aborted) return;
    this.transfers.put(hashKey(r.transaction_hash), json(r));
    const master = accountKey(r.jetton_master);
    const sides = new Map<string, number>();
    if (nonEmpty(r.source)) sides.set(r.source, SOURCE);
    if (nonEmpty(r.destination)) sides.set(r.destination, (sides.get(r.destination) ?? 0) | DESTINATION);
    for (const [owner, side] of sides) this.transfersByOwner.put(transferKey(owner, r.transaction_lt, r.transaction_hash), Buffer.concat([Buffer.of(side), master]));
    if (nonEmpty(r.jetton_master)) this.transfersByJetton.put(transferKey(r.jetton_master, r.transaction_lt, r.transaction_hash), EMPTY);
  }

  // ---- reading (the state as of `decoded()`) ----

  /** An owner's or a jetton's wallets in address order, from the first address after `after`. */
  *walletsBy(by: "owner" | "jetton", address: string, after?: string): Generator<KeyWalletRow> {
    const db = by === "owner" ? this.walletsByOwner : this.walletsByJetton;
    const prefix = accountKey(address);
    const start = after === undefined ? prefix : prefixEnd(Buffer.concat([prefix, accountKey(after)]));
    for (const key of db.getKeys({ start, end: prefixEnd(prefix) })) {
      const value = this.wallets.get(Buffer.from(key.subarray(ACCOUNT_BYTES)));
      if (value) yield parse<KeyWalletRow>(value, WALLET_ROW_AT);
    }
  }

  /**
   * An owner's (or a jetton's) transfer entries in lt order within inclusive bounds: ascending, or
   * descending with `reverse`. Within one lt, entries come in hash byte order, not the text order
   * of the ClickHouse path: the reader sorts each lt's entries.
   */
  *transferEntries(by: "owner" | "jetton", address: string, o: { reverse: boolean; startLt?: bigint; endLt?: bigint }): Generator<TransferEntry> {
    const db = by === "owner" ? this.transfersByOwner : this.transfersByJetton;
    const prefix = accountKey(address);
    const low = Buffer.concat([prefix, ltBytes(o.startLt ?? 0n)]);
    const high = o.endLt === undefined || o.endLt >= (1n << 64n) - 1n ? prefixEnd(prefix) : Buffer.concat([prefix, ltBytes(o.endLt + 1n)]);
    if (Buffer.compare(low, high) >= 0) return;
    const range = o.reverse ? { start: high, end: low, reverse: true, exclusiveStart: true, inclusiveEnd: true } : { start: low, end: high };
    const at = ACCOUNT_BYTES;
    for (const { key, value } of db.getRange(range)) {
      const k = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
      yield {
        lt: k.readBigUInt64BE(at),
        hash: k.toString("base64", at + LT_BYTES, at + LT_BYTES + HASH_BYTES),
        sides: by === "owner" ? value[0]! : 0,
        master: by === "owner" ? rawOf(value.subarray(1)) : address,
      };
    }
  }

  /** A listed transfer by its transaction's hash. */
  transfer(hash: string): KeyTransferRow | undefined {
    const value = this.transfers.get(hashKey(hash));
    return value ? parse<KeyTransferRow>(value, 0) : undefined;
  }

  /**
   * An owner's items (by owner_address, or by real_owner: an item on sale counts as its seller's)
   * in (collection, index, address) order, after `after` (its key past the owner: itemOrderKey).
   */
  *itemsOf(owner: string, real: boolean, after?: Buffer): Generator<KeyItemRow> {
    const db = real ? this.itemsByRealOwner : this.itemsByOwner;
    const prefix = accountKey(owner);
    const start = after === undefined ? prefix : prefixEnd(Buffer.concat([prefix, after]));
    for (const key of db.getKeys({ start, end: prefixEnd(prefix) })) {
      const value = this.items.get(Buffer.from(key.subarray(key.length - ACCOUNT_BYTES)));
      if (value) yield parse<KeyItemRow>(value, ITEM_ROW_AT);
    }
  }

  /** The collections of these addresses that are decoded, by address. */
  collectionRows(addresses: Iterable<string>): Map<string, KeyCollectionRow> {
    const out = new Map<string, KeyCollectionRow>();
    for (const a of addresses) {
      if (a === "" || out.has(a)) continue;
      const value = this.collections.get(accountKey(a));
      if (value) out.set(a, parse<KeyCollectionRow>(value, VERSION_BYTES));
    }
    return out;
  }

  /** The interfaces the decoder detected of these accounts (an account it never decoded: none). */
  interfaces(addresses: Iterable<string>): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const a of addresses) {
      if (out.has(a)) continue;
      const value = this.detected.get(accountKey(a));
      out.set(a, value ? parse<string[]>(value, VERSION_BYTES) : []);
    }
    return out;
  }

  /** Jetton wallets by address (any verdict). */
  walletRows(addresses: Iterable<string>): Map<string, KeyWalletRow> {
    const out = new Map<string, KeyWalletRow>();
    for (const a of addresses) {
      if (a === "" || out.has(a)) continue;
      const value = this.wallets.get(accountKey(a));
      if (value) out.set(a, parse<KeyWalletRow>(value, WALLET_ROW_AT));
    }
    return out;
  }

  /** The token content rows of these addresses, of each type it has. */
  tokenRows(addresses: Iterable<string>, types: readonly string[]): KeyTokenRow[] {
    const out: KeyTokenRow[] = [];
    for (const a of new Set(addresses)) {
      if (a === "") continue;
      for (const t of types) {
        const value = this.tokens.get(tokenKey(a, t));
        if (value) out.push(parse<KeyTokenRow>(value, VERSION_BYTES));
      }
    }
    return out;
  }

  /** The newest fetch of each URI fetched. */
  fetchRows(uris: Iterable<string>): Map<string, KeyFetchRow> {
    const out = new Map<string, KeyFetchRow>();
    for (const u of uris) {
      if (out.has(u)) continue;
      const value = this.fetches.get(uriKey(u));
      if (value) out.set(u, parse<KeyFetchRow>(value, 0));
    }
    return out;
  }

  /** The current classification of each of these traces that has one. */
  classificationRows(traceIds: Iterable<string>): Map<string, KeyClassificationRow> {
    const out = new Map<string, KeyClassificationRow>();
    for (const t of traceIds) {
      if (out.has(t)) continue;
      const value = this.classifications.get(textKey(t));
      if (value) out.set(t, parse<KeyClassificationRow>(value, 0));
    }
    return out;
  }

  /** The actions of each of these traces, in the classifier's order (a trace not classified: absent). */
  actionsOfTraces(traceIds: Iterable<string>): Map<string, KeyActionRow[]> {
    const out = new Map<string, KeyActionRow[]>();
    for (const [traceId, c] of this.classificationRows(traceIds)) {
      const trace = textKey(traceId);
      const rows: KeyActionRow[] = [];
      for (const id of c.action_ids) {
        const value = this.actions.get(Buffer.concat([trace, textKey(id)]));
        if (value) rows.push(parse<KeyActionRow>(value, 0));
      }
      out.set(traceId, rows);
    }
    return out;
  }

  /** The actions of these ids (of any trace), in the order asked, each once. */
  actionsById(actionIds: Iterable<string>): KeyActionRow[] {
    const out: KeyActionRow[] = [];
    const seen = new Set<string>();
    for (const actionId of actionIds) {
      if (seen.has(actionId)) continue;
      seen.add(actionId);
      const id = textKey(actionId);
      for (const key of this.actionIds.getKeys({ start: id, end: prefixEnd(id) })) {
        const value = this.actions.get(Buffer.concat([Buffer.from(key.subarray(id.length)), id]));
        if (value) out.push(parse<KeyActionRow>(value, 0));
      }
    }
    return out;
  }

  /** The actions these transactions are in (by transaction hash, base64), each once, in (trace id, action id) order per transaction. */
  actionsOfTransactions(txHashes: Iterable<string>): KeyActionRow[] {
    const out: KeyActionRow[] = [];
    const seen = new Set<string>();
    for (const hash of new Set(txHashes)) {
      const prefix = hashKey(hash);
      if (prefix.length !== HASH_BYTES) continue;
      for (const key of this.actionsByTransaction.getKeys({ start: prefix, end: prefixEnd(prefix) })) {
        const ids = Buffer.from(key.subarray(HASH_BYTES));
        const k = ids.toString("latin1");
        if (seen.has(k)) continue;
        seen.add(k);
        const value = this.actions.get(ids);
        if (value) out.push(parse<KeyActionRow>(value, 0));
      }
    }
    return out;
  }

  /**
   * An account's actions in toncenter's action_accounts order (trace_end_lt, trace_id, end_lt,
   * action_id): ascending, or descending with `reverse`; strictly after `after` in that direction
   * (a cursor), within inclusive trace_end_lt bounds. The reader filters (types, times) and counts
   * (offset, limit) as it goes.
   */
  *actionsOfAccount(account: string, o: { reverse: boolean; after?: ActionPosition; startLt?: bigint; endLt?: bigint }): Generator<AccountActionEntry> {
    const prefix = accountKey(account);
    let low: Buffer = Buffer.concat([prefix, ltBytes(o.startLt ?? 0n)]);
    let high: Buffer = o.endLt === undefined || o.endLt >= (1n << 64n) - 1n ? prefixEnd(prefix) : Buffer.concat([prefix, ltBytes(o.endLt + 1n)]);
    if (o.after) {
      const at = actionAccountKey(account, o.after.traceEndLt, o.after.traceId, o.after.endLt, o.after.actionId);
      if (o.reverse) high = Buffer.compare(at, high) < 0 ? at : high;
      else low = Buffer.compare(prefixEnd(at), low) > 0 ? prefixEnd(at) : low;
    }
    if (Buffer.compare(low, high) >= 0) return;
    const range = o.reverse ? { start: high, end: low, reverse: true, exclusiveStart: true, inclusiveEnd: true } : { start: low, end: high };
    for (const key of this.actionsByAccount.getKeys(range)) {
      const k = Buffer.from(key.buffer, key.byteOffset, key.byteLength);
      const position = actionPositionOf(k);
      const value = this.actions.get(Buffer.concat([textKey(position.traceId), textKey(position.actionId)]));
      if (value) yield { ...position, action: parse<KeyActionRow>(value, 0) };
    }
  }

  /** Every entry of every table, then the meta (to compare two indexes whole). */
  contents(): Generator<{ table: string; key: string; value: string }> {
    return this.tables.contents();
  }
}

/** The key of an item's place in an owner's list past the owner: collection + index + address. */
export const itemOrderKey = (collection: string, index: string, address: string): Buffer => Buffer.concat([optionalAccountKey(collection), indexBytes(index), accountKey(address)]);

/** An actions_by_account key (past nothing: the account first) back to its parts. */
function actionPositionOf(k: Buffer): ActionPosition {
  let at = ACCOUNT_BYTES;
  const traceEndLt = k.readBigUInt64BE(at);
  at += LT_BYTES;
  const traceEnd = k.indexOf(0, at);
  const traceId = k.toString("utf8", at, traceEnd);
  at = traceEnd + 1;
  const endLt = k.readBigUInt64BE(at);
  at += LT_BYTES;
  const actionId = k.toString("utf8", at, k.indexOf(0, at));
  return { traceEndLt, traceId, endLt, actionId };
}

/** An account key back to its raw form. */
function rawOf(key: Buffer): string {
  const wc = (key.readUInt32BE(0) ^ 0x80000000) | 0;
  return `${wc}:${key.toString("hex", 4, ACCOUNT_BYTES).toUpperCase()}`;
}
