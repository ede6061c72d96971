// Validator pool data cells: the TON nominator pool (nominator-pool's pool.fc load_data) and the
// single nominator.
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
