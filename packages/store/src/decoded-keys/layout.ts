// The decoder's key-index tables: where the decoder writes (services/decoder) and where API v3's key
// readers (services/indexer) look up jetton wallets, jetton transfers and NFT items by owner. Both
// sides build their keys here, so that neither imports the other.
//
// Keys are fixed-width and big-endian (./keys.ts of the key index): a range scan over an owner walks
// its wallets in address order, its transfers in lt order, its items in (collection, index, address)
// order — the orders of the ClickHouse path (services/indexer/src/api/jettons, api/nfts).
import { createHash } from "node:crypto";
import { ACCOUNT_BYTES, accountKey, hashKey, ltBytes } from "../key-index/keys.js";
import type { KeyTablesLayout } from "../key-index/env.js";

/** The owner of the tables in the store (its ClickHouse tables are services/decoder's migrations). */
export const DECODER_OWNER = "decoder";

/** The decoder's checkpoint in the store: the last masterchain block whose rows are all written. API v3 answers nothing past it. */
export const DECODER_CHECKPOINT = "decoder";

/** Bumped when the stored form changes: tables of another format are rebuilt from ClickHouse. */
export const DECODED_KEYS_FORMAT = 3;

/** state rows are JSON: LZ4 pays from a few hundred bytes */
const COMPRESSED = { compressAbove: 256 };

export const DECODED_KEYS: KeyTablesLayout = {
  format: DECODED_KEYS_FORMAT,
  tables: {
    /** "decoded" → u32: the block the tables show; "live" → 1 while a decoder writes them (./decoded-keys.ts) */
    progress: {},
    /** u32 mc seqno → the key rows of a block written before its checkpoint, applied after it */
    staged: COMPRESSED,
    /** wallet address → version (lt, mc seqno) + owner + jetton + the row (JSON) */
    jetton_wallets: COMPRESSED,
    /** owner + wallet address → nothing (the row is the wallet's) */
    jetton_wallets_by_owner: {},
    /** jetton master + wallet address → nothing */
    jetton_wallets_by_jetton: {},
    /** transaction hash → the transfer's row (JSON): listed transfers only (confirmed, not aborted) */
    jetton_transfers: COMPRESSED,
    /** owner + lt + hash → sides (1: source, 2: destination) + the jetton master */
    jetton_transfers_by_owner: {},
    /** jetton master + lt + hash → nothing */
    jetton_transfers_by_jetton: {},
    /** item address → version + owner + real owner + collection + index + the row (JSON) */
    nft_items: COMPRESSED,
    /** owner + collection + index + address → nothing */
    nft_items_by_owner: {},
    /** real owner (the seller of an item on sale) + collection + index + address → nothing */
    nft_items_by_real_owner: {},
    /** collection address → version + the row (JSON) */
    nft_collections: COMPRESSED,
    /** address → version + the interfaces the decoder detected (JSON) */
    interfaces: {},
    /** address + token type (tokenKey) → version + the token's content row (JSON) */
    token_metadata: COMPRESSED,
    /** sha256 of a content URI → what fetching it gave (JSON), the newest fetch */
    metadata_fetches: COMPRESSED,
    /** trace id (textKey) → its classification (JSON KeyClassificationRow): the current one only */
    trace_classifications: {},
    /** trace id + action id (textKeys) → the action (JSON KeyActionRow) */
    actions: COMPRESSED,
    /** action id + trace id → nothing */
    actions_by_id: {},
    /** account + trace_end_lt + trace id + end_lt + action id → nothing: toncenter's action_accounts order */
    actions_by_account: {},
    /** transaction hash + trace id + action id → nothing: the actions a transaction is in */
    actions_by_transaction: {},
  },
};

export const VERSION_BYTES = 12;
export const INDEX_BYTES = 32;

/** A state's version as ClickHouse orders its rows: (last_transaction_lt, mc_seqno). */
export function versionBytes(lt: string | bigint, mcSeqno: number): Buffer {
  const out = Buffer.allocUnsafe(VERSION_BYTES);
  out.writeBigUInt64BE(BigInt(lt), 0);
  out.writeUInt32BE(mcSeqno, 8);
  return out;
}

/** An address column that may be '' (none): 36 zero bytes, which sort first as '' does. */
export const optionalAccountKey = (raw: string): Buffer => (raw === "" ? Buffer.alloc(ACCOUNT_BYTES) : accountKey(raw));

/** An NFT index (UInt256, decimal) → 32 bytes big-endian. */
export function indexBytes(index: string): Buffer {
  const hex = BigInt(index).toString(16).padStart(INDEX_BYTES * 2, "0");
  return Buffer.from(hex, "hex");
}

/** token_metadata: the address, then the token type's name (an address may be a token of two types). */
export const tokenKey = (address: string, type: string): Buffer => Buffer.concat([accountKey(address), Buffer.from(type)]);

/** metadata_fetches: a URI (up to 2,048 characters; LMDB keys are shorter) by its sha256. */
export const uriKey = (uri: string): Buffer => createHash("sha256").update(uri).digest();

/** jetton_wallets_by_owner, jetton_wallets_by_jetton: owner or jetton + wallet address. */
export const walletKey = (by: string, wallet: string): Buffer => Buffer.concat([accountKey(by), accountKey(wallet)]);

/** jetton_transfers_by_owner, _by_jetton: owner or master + lt + transaction hash. */
export const transferKey = (by: string, lt: string | bigint, hash: string): Buffer => Buffer.concat([accountKey(by), ltBytes(lt), hashKey(hash)]);

/** nft_items_by_owner, _by_real_owner: owner + collection + index + item address, the ClickHouse path's order. */
export const itemKey = (owner: string, collection: string, index: string, address: string): Buffer =>
  Buffer.concat([accountKey(owner), optionalAccountKey(collection), indexBytes(index), accountKey(address)]);

/**
 * A string part of a key (trace ids, action ids): its UTF-8 bytes and a 0 byte. Keys then sort as
 * ClickHouse sorts the String columns (byte-wise, a prefix first), and a prefix scan over one id
 * does not take in the ids it is a prefix of.
 */
export const textKey = (s: string): Buffer => Buffer.concat([Buffer.from(s, "utf8"), Buffer.of(0)]);

/** actions_by_account: account + trace_end_lt + trace id + end_lt + action id, /actions?account='s order. */
export const actionAccountKey = (account: string, traceEndLt: string | bigint, traceId: string, endLt: string | bigint, actionId: string): Buffer =>
  Buffer.concat([accountKey(account), ltBytes(traceEndLt), textKey(traceId), ltBytes(endLt), textKey(actionId)]);
