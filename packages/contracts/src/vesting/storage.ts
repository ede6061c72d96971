// The vesting wallet's data cell (vesting_wallet.fc load_data / load_vesting_parameters).
import { beginCell, type Address, type Builder, type Slice } from "@ton/core";
import { loadAddressSet, storeAddressSet, TRUE_BIT } from "../tlb.js";

/**
 * vesting_start_time:uint64 vesting_total_duration:uint32 unlock_period:uint32 cliff_duration:uint32
 * vesting_total_amount:Coins vesting_sender_address:MsgAddress owner_address:MsgAddress.
 */
export interface VestingParameters {
  vestingStartTime: number;
  vestingTotalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  vestingTotalAmount: bigint;
  vestingSenderAddress: Address | null;
  ownerAddress: Address | null;
}

/** seqno:uint32 subwallet_id:uint32 public_key:bits256 whitelist:(HashmapE 264 int1) params:^VestingParameters. */
export interface VestingStorage {
  seqno: number;
  subwalletId: number;
  publicKey: Buffer;
  /** The whitelisted destinations, in key order. */
  whitelist: Address[];
  params: VestingParameters;
}

export function loadVestingStorage(s: Slice): VestingStorage {
  const [seqno, subwalletId, publicKey, whitelist] = [s.loadUint(32), s.loadUint(32), s.loadBuffer(32), loadAddressSet(s, TRUE_BIT)];
  const p = s.loadRef().beginParse();
  return {
    seqno,
    subwalletId,
    publicKey,
    whitelist,
    params: {
      vestingStartTime: p.loadUint(64),
      vestingTotalDuration: p.loadUint(32),
      unlockPeriod: p.loadUint(32),
      cliffDuration: p.loadUint(32),
      vestingTotalAmount: p.loadCoins(),
      vestingSenderAddress: p.loadMaybeAddress(),
      ownerAddress: p.loadMaybeAddress(),
    },
  };
}

export function storeVestingStorage(src: VestingStorage): (b: Builder) => void {
  const p = src.params;
  const params = beginCell()
    .storeUint(p.vestingStartTime, 64)
    .storeUint(p.vestingTotalDuration, 32)
    .storeUint(p.unlockPeriod, 32)
    .storeUint(p.cliffDuration, 32)
    .storeCoins(p.vestingTotalAmount)
    .storeAddress(p.vestingSenderAddress)
    .storeAddress(p.ownerAddress);
  return (b) => b.storeUint(src.seqno, 32).storeUint(src.subwalletId, 32).storeBuffer(src.publicKey, 32).store(storeAddressSet(src.whitelist, TRUE_BIT)).storeRef(params);
}
