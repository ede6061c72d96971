// Liquid staking (tonstakers) and nominator pool message bodies the staking matchers read.
// The elector's opcodes are @tongate/contracts' STAKING_OPCODES; the jetton bodies its jetton loaders.
import type { Address, Slice } from "@ton/core";

export const TONSTAKERS_OPCODES = {
  /** a user deposits TON to the pool */
  deposit_request: 0x47d54391,
  /** the jetton master, after a burn, asks the pool for the TON */
  withdraw_request: 0x319b0cdc,
  /** the pool to the jetton master (mint tsTON) or to the payout collection (mint a withdrawal NFT): the same opcode */
  mint: 0x1674b0a0,
  /** the payout collection deploys a withdrawal NFT */
  init_nft: 0x132f9a45,
  /** the pool pays an immediate withdrawal */
  pool_withdrawal: 0x0a77535c,
  /** the pool starts paying the withdrawal NFTs of a round out */
  start_distribution: 0x1140a64f,
  /** the payout collection burns a withdrawal NFT */
  nft_burn: 0xf127fe4e,
  /** the NFT reports its burn to the collection */
  nft_burn_notification: 0xed58b0b2,
  /** the collection pays the NFT's owner */
  distributed_asset: 0xdb3b8abd,
} as const;

/** The nominator pool's owner command that pays out the pending withdrawals (op = 2). */
export const NOMINATOR_POOL_PROCESS_WITHDRAW_REQUESTS = 0x00000002;

/** burn_notification#ed58b0b2 query_id:uint64 amount:Coins owner:MsgAddress: a tonstakers withdrawal NFT was burnt. */
export interface TonstakersNftBurnNotification {
  queryId: bigint;
  amount: bigint;
  owner: Address | null;
}

export function loadTonstakersNftBurnNotification(s: Slice): TonstakersNftBurnNotification {
  s.loadUint(32);
  return { queryId: s.loadUintBig(64), amount: s.loadCoins(), owner: s.loadMaybeAddress() };
}
