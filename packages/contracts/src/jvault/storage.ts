// The heads of JVault's contract data, what the classifier needs of them (toncenter's
// address_selectors: derive_accounts_from_stake_wallet / _from_stake_pool): a stake wallet names
// its pool and the minter of the pool's stake jettons; a pool names its lock wallet (the pool's
// jetton wallet of the staked jetton, whose master is the staked asset).
import type { Address, Slice } from "@ton/core";

/** staking_pool_address:MsgAddress minter_address:MsgAddress ... — a stake wallet's data. */
export interface JvaultStakeWalletHead {
  stakingPool: Address;
  minter: Address;
}

export function loadJvaultStakeWalletHead(s: Slice): JvaultStakeWalletHead {
  return { stakingPool: s.loadAddress(), minter: s.loadAddress() };
}

/** 33 bits (a flag and a 32-bit field) admin_address:MsgAddress creator_address:MsgAddress lock_wallet_address:MsgAddress ... — a pool's data. */
export interface JvaultStakingPoolHead {
  admin: Address;
  creator: Address;
  lockWallet: Address;
}

export function loadJvaultStakingPoolHead(s: Slice): JvaultStakingPoolHead {
  s.skip(1 + 32);
  return { admin: s.loadAddress(), creator: s.loadAddress(), lockWallet: s.loadAddress() };
}
