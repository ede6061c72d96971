// The NFT, getgems and telemint bodies the NFT matchers read, as toncenter's classifier reads them
// (indexer/events/blocks/messages/{nft,getgems}.py): the parts of a body it does not interpret
// (custom and forward payloads) are kept as base64 BoCs with a CRC-32C, the way toncenter stores
// them, and a body toncenter cannot parse throws (its matcher then builds nothing).
import type { Slice } from "@ton/core";
import { NFT_OPCODES } from "@tongate/contracts";
import { bodyCell, cellToBoc as payloadBoc, loadAnyAddress } from "../../engine/cells.js";

/** A message's body after its opcode (checked: the matchers test the opcode first, this guards the reader). */
export function opBody(msg: { body: string }, opcode: number): Slice {
  const s = bodyCell(msg).beginParse();
  const op = s.loadUint(32);
  if (op !== opcode) throw new Error(`body opcode 0x${op.toString(16)} is not 0x${opcode.toString(16)}`);
  return s;
}

/** The rest of a slice as its own cell (toncenter's `slice.to_cell()`). */
const restCell = (s: Slice) => s.asCell();

export interface NftTransferBody {
  queryId: bigint;
  newOwner: string | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardAmount: bigint;
  /** null when the body ends before the Either bit */
  forwardPayload: string | null;
}

/** nft_transfer#5fcc3d14 query_id:uint64 new_owner response_destination custom_payload:(Maybe ^Cell) forward_amount:Coins forward_payload:(Either Cell ^Cell). */
export function readNftTransfer(msg: { body: string }): NftTransferBody {
  const s = opBody(msg, NFT_OPCODES.nft_transfer);
  const queryId = s.loadUintBig(64);
  const newOwner = loadAnyAddress(s);
  const responseDestination = loadAnyAddress(s);
  const custom = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  let forwardPayload: string | null = null;
  if (s.remainingBits > 0) forwardPayload = payloadBoc(s.loadBit() ? s.loadRef() : restCell(s));
  return { queryId, newOwner, responseDestination, customPayload: custom ? payloadBoc(custom) : null, forwardAmount, forwardPayload };
}

/** teleitem_bid_info#38127de1 bid:Grams bid_ts:uint32: the payload a teleitem sends its auction's winner. */
export const TELEITEM_BID_INFO = 0x38127de1;

export interface OwnershipAssignedBody {
  queryId: bigint;
  prevOwner: string | null;
  /** the payload as a BoC; null when it could not be read */
  forwardPayload: string | null;
  /** set when the payload is a teleitem_bid_info (a Fragment auction's end) */
  bidInfo: { bid: bigint; bidTs: number } | null;
}

function readBidInfo(payload: Slice): { bid: bigint; bidTs: number } | null {
  if (payload.remainingBits < 32) return null;
  if (payload.loadUint(32) !== TELEITEM_BID_INFO) return null;
  return { bid: payload.loadCoins(), bidTs: payload.loadUint(32) };
}

/** ownership_assigned#05138d91 query_id:uint64 prev_owner forward_payload:(Either Cell ^Cell). */
export function readOwnershipAssigned(msg: { body: string }): OwnershipAssignedBody {
  const s = opBody(msg, NFT_OPCODES.nft_ownership_assigned);
  const queryId = s.loadUintBig(64);
  const prevOwner = loadAnyAddress(s);
  try {
    const payload = s.loadBit() ? s.loadRef().beginParse() : s;
    const raw = payloadBoc(payload.asCell());
    return { queryId, prevOwner, forwardPayload: raw, bidInfo: readBidInfo(payload) };
  } catch {
    // a payload toncenter cannot read (no bit left, a malformed bid) is dropped, not fatal
    return { queryId, prevOwner, forwardPayload: null, bidInfo: null };
  }
}

/** report_static_data#8b771735 query_id:uint64 index:uint256 collection:MsgAddress. */
export function readReportStaticData(msg: { body: string }): { queryId: bigint; index: bigint; collection: string | null } {
  const s = opBody(msg, NFT_OPCODES.report_static_data);
  return { queryId: s.loadUintBig(64), index: s.loadUintBig(256), collection: loadAnyAddress(s) };
}

export const TELEITEM_OPCODES = {
  start_auction: 0x487a8e81,
  cancel_auction: 0x371638ae,
  ok: 0xa37a0983,
  deploy: 0x299a3e15,
} as const;

export interface TeleitemStartAuctionBody {
  queryId: bigint;
  beneficiary: string | null;
  initialMinBid: bigint;
  maxBid: bigint;
}

/** teleitem_msg_start_auction#487a8e81 query_id:int64 auction_config:^TeleitemAuctionConfig; a config toncenter cannot read counts as zeros. */
export function readTeleitemStartAuction(msg: { body: string }): TeleitemStartAuctionBody {
  const s = opBody(msg, TELEITEM_OPCODES.start_auction);
  const queryId = s.loadUintBig(64);
  const config = s.loadRef().beginParse();
  try {
    const beneficiary = loadAnyAddress(config);
    const initialMinBid = config.loadCoins();
    const maxBid = config.loadCoins();
    config.skip(8 + 32 + 32); // min_bid_step, min_extend_time, duration: toncenter reads them, the action does not need them
    return { queryId, beneficiary, initialMinBid, maxBid };
  } catch {
    return { queryId, beneficiary: null, initialMinBid: 0n, maxBid: 0n };
  }
}

/** getgems sale_update_message#6c6c2080 query_id:uint64 new_full_price:Coins new_mp_fee:Coins new_royalty_amount:Coins. */
export const SALE_UPDATE = 0x6c6c2080;

export function readSaleUpdate(msg: { body: string }): { queryId: bigint; fullPrice: bigint; marketplaceFee: bigint; royaltyAmount: bigint } {
  const s = opBody(msg, SALE_UPDATE);
  return { queryId: s.loadUintBig(64), fullPrice: s.loadCoins(), marketplaceFee: s.loadCoins(), royaltyAmount: s.loadCoins() };
}

/** A body `op query_id:uint64` whose query_id toncenter reads only when it is there (auction_fill_up, dns_balance_release). */
export function readOptionalQueryId(msg: { body: string }, opcode: number): bigint | null {
  const s = opBody(msg, opcode);
  return s.remainingBits >= 64 ? s.loadUintBig(64) : null;
}
