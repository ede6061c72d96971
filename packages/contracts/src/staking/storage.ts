// Validator pool data cells: the TON nominator pool (nominator-pool's pool.fc load_data), the
// single nominator and the Whales nominator pool.
import { beginCell, Dictionary, type Address, type Builder, type Cell, type DictionaryValue, type Slice } from "@ton/core";

/** owner_address:MsgAddress validator_address:MsgAddress. */
export interface SingleNominatorStorage {
  ownerAddress: Address | null;
  validatorAddress: Address | null;
}

export const loadSingleNominatorStorage = (s: Slice): SingleNominatorStorage => ({ ownerAddress: s.loadMaybeAddress(), validatorAddress: s.loadMaybeAddress() });
export const storeSingleNominatorStorage = (src: SingleNominatorStorage) => (b: Builder) => b.storeAddress(src.ownerAddress).storeAddress(src.validatorAddress);

/** A nominator's amount:Coins pending_deposit_amount:Coins. */
export interface PoolNominator {
  amount: bigint;
  pendingDepositAmount: bigint;
}

const NOMINATOR: DictionaryValue<PoolNominator> = {
  serialize: (n, b) => {
    b.storeCoins(n.amount).storeCoins(n.pendingDepositAmount);
  },
  parse: (s) => ({ amount: s.loadCoins(), pendingDepositAmount: s.loadCoins() }),
};

/**
 * config:^[validator_address:bits256 validator_reward_share:uint16 max_nominators_count:uint16
 * min_validator_stake:Coins min_nominator_stake:Coins].
 */
export interface NominatorPoolConfig {
  /** The hash of the validator's wallet in the masterchain. */
  validatorAddress: bigint;
  /** In hundredths of a percent. */
  validatorRewardShare: number;
  maxNominatorsCount: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
}

/**
 * state:uint8 nominators_count:uint16 stake_amount_sent:Coins validator_amount:Coins config:^NominatorPoolConfig
 * nominators:(HashmapE 256 PoolNominator) withdraw_requests:(HashmapE 256 ()) stake_at:uint32
 * saved_validator_set_hash:uint256 validator_set_changes_count:uint8 validator_set_change_time:uint32
 * stake_held_for:uint32 config_proposal_votings:(HashmapE 256 ...).
 */
export interface NominatorPoolStorage {
  /** 0: the stake is not sent, 1: sent to the elector, 2: accepted. */
  state: number;
  nominatorsCount: number;
  stakeAmountSent: bigint;
  validatorAmount: bigint;
  config: NominatorPoolConfig;
  /** By the hash of the nominator's basechain wallet. */
  nominators: Dictionary<bigint, PoolNominator>;
  /** The withdraw requests' dictionary (keyed by nominator hash), its root. */
  withdrawRequests: Cell | null;
  stakeAt: number;
  savedValidatorSetHash: bigint;
  validatorSetChangesCount: number;
  validatorSetChangeTime: number;
  stakeHeldFor: number;
  /** The config proposal votes' dictionary, its root. */
  configProposalVotings: Cell | null;
}

export function loadNominatorPoolStorage(s: Slice): NominatorPoolStorage {
  const [state, nominatorsCount, stakeAmountSent, validatorAmount] = [s.loadUint(8), s.loadUint(16), s.loadCoins(), s.loadCoins()];
  const c = s.loadRef().beginParse();
  const config = { validatorAddress: c.loadUintBig(256), validatorRewardShare: c.loadUint(16), maxNominatorsCount: c.loadUint(16), minValidatorStake: c.loadCoins(), minNominatorStake: c.loadCoins() };
  return {
    state,
    nominatorsCount,
    stakeAmountSent,
    validatorAmount,
    config,
    nominators: s.loadDict(Dictionary.Keys.BigUint(256), NOMINATOR),
    withdrawRequests: s.loadMaybeRef(),
    stakeAt: s.loadUint(32),
    savedValidatorSetHash: s.loadUintBig(256),
    validatorSetChangesCount: s.loadUint(8),
    validatorSetChangeTime: s.loadUint(32),
    stakeHeldFor: s.loadUint(32),
    configProposalVotings: s.loadMaybeRef(),
  };
}

export function storeNominatorPoolStorage(src: NominatorPoolStorage): (b: Builder) => void {
  const c = src.config;
  const config = beginCell().storeUint(c.validatorAddress, 256).storeUint(c.validatorRewardShare, 16).storeUint(c.maxNominatorsCount, 16).storeCoins(c.minValidatorStake).storeCoins(c.minNominatorStake);
  return (b) =>
    b
      .storeUint(src.state, 8)
      .storeUint(src.nominatorsCount, 16)
      .storeCoins(src.stakeAmountSent)
      .storeCoins(src.validatorAmount)
      .storeRef(config)
      .storeDict(src.nominators, Dictionary.Keys.BigUint(256), NOMINATOR)
      .storeMaybeRef(src.withdrawRequests)
      .storeUint(src.stakeAt, 32)
      .storeUint(src.savedValidatorSetHash, 256)
      .storeUint(src.validatorSetChangesCount, 8)
      .storeUint(src.validatorSetChangeTime, 32)
      .storeUint(src.stakeHeldFor, 32)
      .storeMaybeRef(src.configProposalVotings);
}

/** An empty nominators dictionary (a new pool). */
export const emptyPoolNominators = (): Dictionary<bigint, PoolNominator> => Dictionary.empty(Dictionary.Keys.BigUint(256), NOMINATOR);

/**
 * A Whales pool member: profit_per_coin:int128 balance:Coins pending_withdraw:Coins
 * pending_withdraw_all:int1 pending_deposit:Coins withdraw:Coins (store-nominators.fc).
 */
export interface WhalesMember {
  profitPerCoin: bigint;
  balance: bigint;
  pendingWithdraw: bigint;
  pendingWithdrawAll: boolean;
  pendingDeposit: bigint;
  withdraw: bigint;
}

const WHALES_MEMBER: DictionaryValue<WhalesMember> = {
  serialize: (m, b) => {
    b.storeInt(m.profitPerCoin, 128).storeCoins(m.balance).storeCoins(m.pendingWithdraw).storeBit(m.pendingWithdrawAll).storeCoins(m.pendingDeposit).storeCoins(m.withdraw);
  },
  parse: (s) => ({ profitPerCoin: s.loadIntBig(128), balance: s.loadCoins(), pendingWithdraw: s.loadCoins(), pendingWithdrawAll: s.loadBit(), pendingDeposit: s.loadCoins(), withdraw: s.loadCoins() }),
};

/** A Whales pool's members (its nominators dictionary root), by the hash of their basechain address; the owner is member 0. */
export function loadWhalesMembers(root: Cell | null): Dictionary<bigint, WhalesMember> {
  return root ? Dictionary.loadDirect(Dictionary.Keys.BigUint(256), WHALES_MEMBER, root) : Dictionary.empty(Dictionary.Keys.BigUint(256), WHALES_MEMBER);
}

/** The root of a members dictionary (null when empty). */
export function whalesMembersCell(members: Dictionary<bigint, WhalesMember>): Cell | null {
  return members.size === 0 ? null : beginCell().storeDictDirect(members, Dictionary.Keys.BigUint(256), WHALES_MEMBER).endCell();
}

/**
 * The Whales pool's pool-wide balances: profit_per_coin:int128 balance:Coins balance_sent:Coins
 * balance_withdraw:Coins balance_pending_withdraw:Coins balance_pending_deposits:Coins.
 */
export interface WhalesPoolBalances {
  profitPerCoin: bigint;
  balance: bigint;
  balanceSent: bigint;
  balanceWithdraw: bigint;
  balancePendingWithdraw: bigint;
  balancePendingDeposits: bigint;
}

/** The proxy's stake: stake_at:uint32 stake_until:uint32 stake_sent:Coins stored_query_id:uint64 stored_query_op:uint32 stored_query_stake:Coins. */
export interface WhalesProxyState {
  stakeAt: number;
  stakeUntil: number;
  stakeSent: bigint;
  storedQueryId: bigint;
  storedQueryOp: number;
  storedQueryStake: bigint;
}

/** enabled:int1 updates_enabled:int1 min_stake:Coins deposit_fee:Coins withdraw_fee:Coins pool_fee:Coins receipt_price:Coins. */
export interface WhalesPoolExtras {
  enabled: boolean;
  updatesEnabled: boolean;
  minStake: bigint;
  depositFee: bigint;
  withdrawFee: bigint;
  /** In hundredths of a percent. */
  poolFee: bigint;
  receiptPrice: bigint;
}

/**
 * The Whales nominator pool (whales-nominators modules/store-base.fc load_base_data): locked:int1
 * owner:MsgAddress controller:MsgAddress proxy:MsgAddress balances:^WhalesPoolBalances
 * nominators:(HashmapE 256 WhalesMember) proxy_state:^WhalesProxyState extras:^WhalesPoolExtras (the
 * ref may be absent: then the contract's defaults apply).
 */
export interface WhalesPoolStorage {
  locked: boolean;
  owner: Address | null;
  controller: Address | null;
  proxy: Address | null;
  balances: WhalesPoolBalances;
  /** The members' dictionary root (loadWhalesMembers reads it). */
  members: Cell | null;
  proxyState: WhalesProxyState;
  extras: WhalesPoolExtras | null;
}

export function loadWhalesPoolStorage(s: Slice): WhalesPoolStorage {
  const [locked, owner, controller, proxy] = [s.loadBit(), s.loadMaybeAddress(), s.loadMaybeAddress(), s.loadMaybeAddress()];
  const b = s.loadRef().beginParse();
  const balances = {
    profitPerCoin: b.loadIntBig(128),
    balance: b.loadCoins(),
    balanceSent: b.loadCoins(),
    balanceWithdraw: b.loadCoins(),
    balancePendingWithdraw: b.loadCoins(),
    balancePendingDeposits: b.loadCoins(),
  };
  const members = s.loadMaybeRef();
  const p = s.loadRef().beginParse();
  const proxyState = { stakeAt: p.loadUint(32), stakeUntil: p.loadUint(32), stakeSent: p.loadCoins(), storedQueryId: p.loadUintBig(64), storedQueryOp: p.loadUint(32), storedQueryStake: p.loadCoins() };
  const e = s.remainingRefs > 0 ? s.loadRef().beginParse() : null;
  const extras = e
    ? { enabled: e.loadBit(), updatesEnabled: e.loadBit(), minStake: e.loadCoins(), depositFee: e.loadCoins(), withdrawFee: e.loadCoins(), poolFee: e.loadCoins(), receiptPrice: e.loadCoins() }
    : null;
  return { locked, owner, controller, proxy, balances, members, proxyState, extras };
}

export function storeWhalesPoolStorage(src: WhalesPoolStorage): (b: Builder) => void {
  const x = src.balances;
  const p = src.proxyState;
  const e = src.extras;
  return (b) => {
    b.storeBit(src.locked)
      .storeAddress(src.owner)
      .storeAddress(src.controller)
      .storeAddress(src.proxy)
      .storeRef(beginCell().storeInt(x.profitPerCoin, 128).storeCoins(x.balance).storeCoins(x.balanceSent).storeCoins(x.balanceWithdraw).storeCoins(x.balancePendingWithdraw).storeCoins(x.balancePendingDeposits))
      .storeMaybeRef(src.members)
      .storeRef(beginCell().storeUint(p.stakeAt, 32).storeUint(p.stakeUntil, 32).storeCoins(p.stakeSent).storeUint(p.storedQueryId, 64).storeUint(p.storedQueryOp, 32).storeCoins(p.storedQueryStake));
    if (e)
      b.storeRef(
        beginCell().storeBit(e.enabled).storeBit(e.updatesEnabled).storeCoins(e.minStake).storeCoins(e.depositFee).storeCoins(e.withdrawFee).storeCoins(e.poolFee).storeCoins(e.receiptPrice),
      );
  };
}
