// tgBTC's action blocks: a peg-in mint, a peg-out burn, a key rotation, and the signers' key
// agreement. A "crippled" block was built from the log alone (the messages around it did not
// match): it is published as the type's `_fallback`.
import { Address } from "@ton/core";
import { isTgbtcAnycastAddress, type TgbtcLogAddress } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";

/** A log's address as toncenter shows it: an anycast address's hash as written, no external addresses. */
export function logAddress(a: TgbtcLogAddress | undefined): string | null {
  if (a === undefined || a === null) return null;
  if (isTgbtcAnycastAddress(a)) return rawAddress(a.address);
  return Address.isAddress(a) ? rawAddress(a) : null;
}

/** A uint256 as toncenter's hex(): lower case, no leading zeros. */
export const hexNoPad = (n: bigint): string => n.toString(16);

/** The Bitcoin txid of a mint log, in Bitcoin's byte order (the log holds it little-endian). */
export function bitcoinTxid(n: bigint): string {
  return Buffer.from(n.toString(16).padStart(64, "0"), "hex").reverse().toString("hex");
}

export interface TgbtcMintData {
  sender: string | null;
  recipient: string | null;
  amount: bigint | null;
  asset: string | null;
  bitcoinTxid: string | null;
  recipientWallet: string | null;
  teleportContract: string | null;
  crippled: boolean;
}

export class TgbtcMintBlock extends Block {
  constructor(readonly data: TgbtcMintData) {
    super("tgbtc_mint", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.crippled) row.type = "tgbtc_mint_fallback";
    row.source = d.sender;
    row.destination = d.recipient;
    row.amount = d.amount;
    row.asset = d.asset;
    row.extra = { btc_txid: d.bitcoinTxid };
    row.source_secondary = d.teleportContract;
    row.destination_secondary = d.recipientWallet;
  }
}

export interface TgbtcBurnData {
  sender: string | null;
  jettonWallet: string | null;
  asset: string | null;
  amount: bigint;
  pegoutAddress: string | null;
  crippled: boolean;
}

export class TgbtcBurnBlock extends Block {
  constructor(readonly data: TgbtcBurnData) {
    super("tgbtc_burn", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.crippled) row.type = "tgbtc_burn_fallback";
    row.source = d.sender;
    row.source_secondary = d.jettonWallet;
    row.destination = d.pegoutAddress;
    row.amount = d.amount;
    row.asset = d.asset;
  }
}

export interface TgbtcNewKeyData {
  coordinatorContract: string | null;
  pubkey: string;
  pegoutAddress: string | null;
  amount: bigint;
  teleportContract: string | null;
  timestamp: bigint | null;
  crippled: boolean;
}

export class TgbtcNewKeyBlock extends Block {
  constructor(readonly data: TgbtcNewKeyData) {
    super("tgbtc_new_key", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.crippled) row.type = "tgbtc_new_key_fallback";
    row.source = d.teleportContract;
    row.extra = { pubkey: d.pubkey };
    row.destination = d.coordinatorContract;
    row.destination_secondary = d.pegoutAddress;
    row.amount = d.amount;
    row.value = d.timestamp;
  }
}

export interface TgbtcDkgLogData {
  coordinatorContract: string | null;
  timestamp: bigint;
  internalPubkey: string;
}

/** Published as tgbtc_dkg_log_fallback (types.ts). */
export class TgbtcDkgLogBlock extends Block {
  constructor(readonly data: TgbtcDkgLogData) {
    super("tgbtc_dkg_log", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.data.coordinatorContract;
    row.extra = { pubkey: this.data.internalPubkey };
    row.value = this.data.timestamp;
  }
}
