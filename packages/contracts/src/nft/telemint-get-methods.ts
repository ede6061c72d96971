// telemint get-method results of an item (besides TEP-62's get_nft_data): get_telemint_token_name,
// get_telemint_auction_state, get_telemint_auction_config (royalty_params is TEP-66's, get-methods.ts).
import type { Address } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { StackReader, type StackItem } from "../stack.js";

/** get_telemint_token_name: the name's bytes (a username or a number, without the domain). */
export function readTelemintTokenName(stack: StackItem[]): Buffer {
  const s = new StackReader("get_telemint_token_name", stack, 1).cell(0).beginParse();
  if (s.remainingBits % 8 !== 0) throw new ContractDataError("get_telemint_token_name: the name holds a partial byte");
  return s.loadBuffer(s.remainingBits / 8);
}

/** get_telemint_auction_state: (bidder_address, bid, bid_ts, min_bid, end_time); the bidder is null and bid, bid_ts 0 before a bid. */
export interface TelemintAuctionState {
  bidder: Address | null;
  bid: bigint;
  bidTs: number;
  minBid: bigint;
  endTime: number;
}

export function readTelemintAuctionState(stack: StackItem[]): TelemintAuctionState {
  const s = new StackReader("get_telemint_auction_state", stack, 5);
  return { bidder: s.address(0), bid: s.int(1), bidTs: Number(s.int(2)), minBid: s.int(3), endTime: Number(s.int(4)) };
}

/** get_telemint_auction_config: (beneficiary_address, initial_min_bid, max_bid, min_bid_step, min_extend_time, duration); null and zeros without an auction. */
export interface TelemintAuctionConfig {
  beneficiary: Address | null;
  initialMinBid: bigint;
  maxBid: bigint;
  minBidStep: number;
  minExtendTime: number;
  duration: number;
}

export function readTelemintAuctionConfig(stack: StackItem[]): TelemintAuctionConfig {
  const s = new StackReader("get_telemint_auction_config", stack, 6);
  return { beneficiary: s.address(0), initialMinBid: s.int(1), maxBid: s.int(2), minBidStep: Number(s.int(3)), minExtendTime: Number(s.int(4)), duration: Number(s.int(5)) };
}
