// Wallet data cells (the contracts' load_data), one loader and storer per layout: v1/v2, v3 (also
// highload v1 and the getgems marketplace deployer), v4 with its plugins, v5r1 with its extensions,
// highload v2 and v3.
import { Dictionary, type Address, type Builder, type Cell, type DictionaryValue, type Slice } from "@ton/core";
import { loadAddressSet, storeAddressSet, TRUE_BIT } from "../tlb.js";

/** An empty value: the v4 plugins dictionary is a set. */
const EMPTY: DictionaryValue<true> = { serialize: () => {}, parse: () => true };

/** seqno:uint32 public_key:bits256 (wallets v1 and v2). */
export interface WalletV1Storage {
  seqno: number;
  publicKey: Buffer;
}

export function loadWalletV1Storage(s: Slice): WalletV1Storage {
  return { seqno: s.loadUint(32), publicKey: s.loadBuffer(32) };
}

export const storeWalletV1Storage = (src: WalletV1Storage) => (b: Builder) => b.storeUint(src.seqno, 32).storeBuffer(src.publicKey, 32);

/** seqno:uint32 subwallet_id:uint32 public_key:bits256 (wallet v3, highload v1: stored_seqno stored_subwallet). */
export interface WalletV3Storage {
  seqno: number;
  subwalletId: number;
  publicKey: Buffer;
}

export function loadWalletV3Storage(s: Slice): WalletV3Storage {
  return { seqno: s.loadUint(32), subwalletId: s.loadUint(32), publicKey: s.loadBuffer(32) };
}

export const storeWalletV3Storage = (src: WalletV3Storage) => (b: Builder) => b.storeUint(src.seqno, 32).storeUint(src.subwalletId, 32).storeBuffer(src.publicKey, 32);

/** v4: seqno:uint32 subwallet_id:uint32 public_key:bits256 plugins:(HashmapE 264 ()). */
export interface WalletV4Storage extends WalletV3Storage {
  /** The installed plugins (subscriptions). */
  plugins: Address[];
}

export function loadWalletV4Storage(s: Slice): WalletV4Storage {
  return { ...loadWalletV3Storage(s), plugins: loadAddressSet(s, EMPTY) };
}

export const storeWalletV4Storage = (src: WalletV4Storage) => (b: Builder) => b.store(storeWalletV3Storage(src)).store(storeAddressSet(src.plugins, EMPTY));

/** v5r1: is_signature_allowed:Bool seqno:uint32 wallet_id:uint32 public_key:bits256 extensions:(HashmapE 256 int1). */
export interface WalletV5Storage {
  isSignatureAllowed: boolean;
  seqno: number;
  walletId: number;
  publicKey: Buffer;
  /** The extensions' address hashes (they are in the wallet's workchain), in key order. */
  extensions: bigint[];
}

export function loadWalletV5Storage(s: Slice): WalletV5Storage {
  return {
    isSignatureAllowed: s.loadBit(),
    seqno: s.loadUint(32),
    walletId: s.loadUint(32),
    publicKey: s.loadBuffer(32),
    extensions: [...s.loadDict(Dictionary.Keys.BigUint(256), TRUE_BIT).keys()],
  };
}

export function storeWalletV5Storage(src: WalletV5Storage): (b: Builder) => void {
  const extensions = Dictionary.empty(Dictionary.Keys.BigUint(256), TRUE_BIT);
  for (const h of src.extensions) extensions.set(h, true);
  return (b) => b.storeBit(src.isSignatureAllowed).storeUint(src.seqno, 32).storeUint(src.walletId, 32).storeBuffer(src.publicKey, 32).storeDict(extensions);
}

/** Highload v2: subwallet_id:uint32 last_cleaned:uint64 public_key:bits256 old_queries:(HashmapE 64 ()). */
export interface HighloadWalletV2Storage {
  subwalletId: number;
  lastCleaned: bigint;
  publicKey: Buffer;
  /** The dictionary of processed query ids (its root, null when empty). */
  oldQueries: Cell | null;
}

export function loadHighloadWalletV2Storage(s: Slice): HighloadWalletV2Storage {
  return { subwalletId: s.loadUint(32), lastCleaned: s.loadUintBig(64), publicKey: s.loadBuffer(32), oldQueries: s.loadMaybeRef() };
}

export const storeHighloadWalletV2Storage = (src: HighloadWalletV2Storage) => (b: Builder) =>
  b.storeUint(src.subwalletId, 32).storeUint(src.lastCleaned, 64).storeBuffer(src.publicKey, 32).storeMaybeRef(src.oldQueries);

/**
 * Highload v3: public_key:bits256 subwallet_id:uint32 old_queries:(HashmapE 13 ^Cell)
 * queries:(HashmapE 13 ^Cell) last_clean_time:uint64 timeout:uint22.
 */
export interface HighloadWalletV3Storage {
  publicKey: Buffer;
  subwalletId: number;
  /** The processed query ids of the previous and the current timeout period (dictionary roots). */
  oldQueries: Cell | null;
  queries: Cell | null;
  lastCleanTime: bigint;
  timeout: number;
}

export function loadHighloadWalletV3Storage(s: Slice): HighloadWalletV3Storage {
  return {
    publicKey: s.loadBuffer(32),
    subwalletId: s.loadUint(32),
    oldQueries: s.loadMaybeRef(),
    queries: s.loadMaybeRef(),
    lastCleanTime: s.loadUintBig(64),
    timeout: s.loadUint(22),
  };
}

export const storeHighloadWalletV3Storage = (src: HighloadWalletV3Storage) => (b: Builder) =>
  b
    .storeBuffer(src.publicKey, 32)
    .storeUint(src.subwalletId, 32)
    .storeMaybeRef(src.oldQueries)
    .storeMaybeRef(src.queries)
    .storeUint(src.lastCleanTime, 64)
    .storeUint(src.timeout, 22);
