// tgBTC (the TON ↔ Bitcoin teleport) logs: external-out messages its contracts emit when a peg-in
// mints tgBTC, a peg-out burns it, and the signers' key rotates (toncenter's classifier schemes
// "tgbtc"). The burn log's addresses are not always plain addr_std, see TgbtcLogAddress.
import { Address, type Builder, type ExternalAddress, type Slice } from "@ton/core";
import { loadOpcode, loadRestSlice } from "../tlb.js";

export const TGBTC_OPCODES = {
  tgbtc_mint_event: 0x77a80ef3,
  tgbtc_burn_event: 0xca444ce6,
  tgbtc_new_key_event: 0x27756729,
  tgbtc_dkg_completed_event: 0x453443a6,
} as const;

const OP = TGBTC_OPCODES;

/**
 * An addr_std with an anycast prefix, as it was written: `address` keeps the hash bits of the
 * cell (toncenter's reader shows them without applying the rewrite prefix), `prefix` the
 * rewrite_pfx of `depth` bits.
 */
export interface TgbtcAnycastAddress {
  address: Address;
  depth: number;
  prefix: bigint;
}

/** MsgAddress of a log: none (null), addr_extern, addr_std, or addr_std with anycast. */
export type TgbtcLogAddress = Address | ExternalAddress | TgbtcAnycastAddress | null;

export function isTgbtcAnycastAddress(a: TgbtcLogAddress): a is TgbtcAnycastAddress {
  return a !== null && "depth" in a && "prefix" in a;
}

/** Reads a MsgAddress, keeping an anycast address's hash as written (addr_var throws). */
export function loadTgbtcLogAddress(s: Slice): TgbtcLogAddress {
  if (s.remainingBits >= 3 && s.preloadUint(2) === 2 && s.clone().skip(2).loadBit()) {
    s.skip(3);
    const depth = s.loadUint(5);
    const prefix = s.loadUintBig(depth);
    const wc = s.loadInt(8);
    return { address: new Address(wc, s.loadBuffer(32)), depth, prefix };
  }
  return s.loadAddressAny();
}

export function storeTgbtcLogAddress(a: TgbtcLogAddress): (b: Builder) => void {
  return (b) => {
    if (a !== null && isTgbtcAnycastAddress(a)) {
      b.storeUint(2, 2).storeBit(1).storeUint(a.depth, 5).storeUint(a.prefix, a.depth).storeInt(a.address.workChain, 8).storeBuffer(a.address.hash);
    } else b.storeAddress(a);
  };
}

/** tgbtc_mint_event#77a80ef3 amount:Coins recipient_address:MsgAddress bitcoin_txid:uint256: a peg-in minted `amount` to the recipient. */
export interface TgbtcMintEvent {
  amount: bigint;
  recipientAddress: TgbtcLogAddress;
  /** the Bitcoin transaction id as a little-endian uint256 (Bitcoin's byte order) */
  bitcoinTxid: bigint;
}

export function loadTgbtcMintEvent(s: Slice): TgbtcMintEvent {
  loadOpcode(s, OP.tgbtc_mint_event, "tgbtc_mint_event");
  return { amount: s.loadCoins(), recipientAddress: loadTgbtcLogAddress(s), bitcoinTxid: s.loadUintBig(256) };
}

export const storeTgbtcMintEvent = (src: TgbtcMintEvent) => (b: Builder) =>
  b.storeUint(OP.tgbtc_mint_event, 32).storeCoins(src.amount).store(storeTgbtcLogAddress(src.recipientAddress)).storeUint(src.bitcoinTxid, 256);

/**
 * tgbtc_burn_event#ca444ce6 amount:Coins sender_address:MsgAddress pegout_address:MsgAddress: a
 * peg-out burnt tgBTC. Real logs carry more after the addresses (and some an address that is no
 * MsgAddress this reader takes, e.g. addr_var): an address that does not read is undefined, and
 * everything from it on is kept in `rest`.
 */
export interface TgbtcBurnEvent {
  amount: bigint;
  senderAddress: TgbtcLogAddress | undefined;
  pegoutAddress: TgbtcLogAddress | undefined;
  /** a slice, not a cell: burn logs are read on every classification and a new cell costs a hash */
  rest: Slice;
}

function tryLoadTgbtcLogAddress(s: Slice): TgbtcLogAddress | undefined {
  // addr_var (tag 11) is the one this reader does not take: seen in real logs, so no exception for it
  if (s.remainingBits < 2 || s.preloadUint(2) === 3) return undefined;
  const probe = s.clone();
  try {
    const a = loadTgbtcLogAddress(probe);
    s.skip(s.remainingBits - probe.remainingBits);
    return a;
  } catch {
    return undefined;
  }
}

export function loadTgbtcBurnEvent(s: Slice): TgbtcBurnEvent {
  loadOpcode(s, OP.tgbtc_burn_event, "tgbtc_burn_event");
  const amount = s.loadCoins();
  const senderAddress = tryLoadTgbtcLogAddress(s);
  const pegoutAddress = senderAddress === undefined ? undefined : tryLoadTgbtcLogAddress(s);
  return { amount, senderAddress, pegoutAddress, rest: loadRestSlice(s) };
}

export const storeTgbtcBurnEvent = (src: TgbtcBurnEvent) => (b: Builder) => {
  b.storeUint(OP.tgbtc_burn_event, 32).storeCoins(src.amount);
  if (src.senderAddress !== undefined) b.store(storeTgbtcLogAddress(src.senderAddress));
  if (src.senderAddress !== undefined && src.pegoutAddress !== undefined) b.store(storeTgbtcLogAddress(src.pegoutAddress));
  b.storeSlice(src.rest.clone());
};

/** tgbtc_new_key_event#27756729 amount:Coins new_internal_pubkey:uint256 pegout_address:MsgAddress: the coordinator moved the reserve to a new key. */
export interface TgbtcNewKeyEvent {
  amount: bigint;
  newInternalPubkey: bigint;
  pegoutAddress: TgbtcLogAddress;
}

export function loadTgbtcNewKeyEvent(s: Slice): TgbtcNewKeyEvent {
  loadOpcode(s, OP.tgbtc_new_key_event, "tgbtc_new_key_event");
  return { amount: s.loadCoins(), newInternalPubkey: s.loadUintBig(256), pegoutAddress: loadTgbtcLogAddress(s) };
}

export const storeTgbtcNewKeyEvent = (src: TgbtcNewKeyEvent) => (b: Builder) =>
  b.storeUint(OP.tgbtc_new_key_event, 32).storeCoins(src.amount).storeUint(src.newInternalPubkey, 256).store(storeTgbtcLogAddress(src.pegoutAddress));

/** tgbtc_dkg_completed_event#453443a6 timestamp:uint64 internal_pubkey:uint256: the signers agreed on a new key. */
export interface TgbtcDkgCompletedEvent {
  timestamp: bigint;
  internalPubkey: bigint;
}

export function loadTgbtcDkgCompletedEvent(s: Slice): TgbtcDkgCompletedEvent {
  loadOpcode(s, OP.tgbtc_dkg_completed_event, "tgbtc_dkg_completed_event");
  return { timestamp: s.loadUintBig(64), internalPubkey: s.loadUintBig(256) };
}

export const storeTgbtcDkgCompletedEvent = (src: TgbtcDkgCompletedEvent) => (b: Builder) =>
  b.storeUint(OP.tgbtc_dkg_completed_event, 32).storeUint(src.timestamp, 64).storeUint(src.internalPubkey, 256);
