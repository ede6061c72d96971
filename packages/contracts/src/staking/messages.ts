// Validator staking message bodies: the elector's (sent by the nominator pool and the single
// nominator, message-schemes.tlb "known.xml") and the single nominator's owner commands
// (orbs-network/single-nominator; deposits to pools are plain transfers or "d"/"w" text comments).
import { beginCell, type Address, type Builder, type Cell, type Slice } from "@ton/core";
import { relaxedMessageCell, relaxedMessageOf, type RelaxedMessage } from "../out-actions.js";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";

export const STAKING_OPCODES = {
  elector_new_stake: 0x4e73744b,
  elector_new_stake_confirmation: 0xf374484c,
  elector_recover_stake_request: 0x47657424,
  elector_recover_stake_response: 0xf96f7324,
  single_nominator_withdraw: 0x1000,
  single_nominator_change_validator: 0x1001,
  single_nominator_send_raw_msg: 0x7702,
  single_nominator_upgrade: 0x9903,
} as const;

const OP = STAKING_OPCODES;

/**
 * elector_new_stake#4e73744b query_id:uint64 validator_pubkey:bits256 stake_at:uint32
 * max_factor:uint32 adnl_addr:bits256 signature:^bits512.
 */
export interface ElectorNewStake {
  queryId: bigint;
  validatorPubkey: Buffer;
  stakeAt: number;
  maxFactor: number;
  adnlAddr: Buffer;
  signature: Buffer;
}

export function loadElectorNewStake(s: Slice): ElectorNewStake {
  loadOpcode(s, OP.elector_new_stake, "elector_new_stake");
  return {
    queryId: s.loadUintBig(64),
    validatorPubkey: s.loadBuffer(32),
    stakeAt: s.loadUint(32),
    maxFactor: s.loadUint(32),
    adnlAddr: s.loadBuffer(32),
    signature: s.loadRef().beginParse().loadBuffer(64),
  };
}

export const storeElectorNewStake = (src: ElectorNewStake) => (b: Builder) =>
  b
    .storeUint(OP.elector_new_stake, 32)
    .storeUint(src.queryId, 64)
    .storeBuffer(src.validatorPubkey, 32)
    .storeUint(src.stakeAt, 32)
    .storeUint(src.maxFactor, 32)
    .storeBuffer(src.adnlAddr, 32)
    .storeRef(beginCell().storeBuffer(src.signature, 64));

/** A staking body of one query_id: elector_new_stake_confirmation, elector_recover_stake_request, elector_recover_stake_response. */
export interface ElectorQuery {
  queryId: bigint;
}

export const loadElectorNewStakeConfirmation = (s: Slice): ElectorQuery => ({
  queryId: loadQueryIdOnly(s, OP.elector_new_stake_confirmation, "elector_new_stake_confirmation"),
});
export const storeElectorNewStakeConfirmation = (src: ElectorQuery) => storeQueryIdOnly(OP.elector_new_stake_confirmation, src.queryId);
export const loadElectorRecoverStakeRequest = (s: Slice): ElectorQuery => ({
  queryId: loadQueryIdOnly(s, OP.elector_recover_stake_request, "elector_recover_stake_request"),
});
export const storeElectorRecoverStakeRequest = (src: ElectorQuery) => storeQueryIdOnly(OP.elector_recover_stake_request, src.queryId);
export const loadElectorRecoverStakeResponse = (s: Slice): ElectorQuery => ({
  queryId: loadQueryIdOnly(s, OP.elector_recover_stake_response, "elector_recover_stake_response"),
});
export const storeElectorRecoverStakeResponse = (src: ElectorQuery) => storeQueryIdOnly(OP.elector_recover_stake_response, src.queryId);

/** single_nominator_withdraw#00001000 query_id:uint64 amount:Coins: the owner takes coins out. */
export interface SingleNominatorWithdraw {
  queryId: bigint;
  amount: bigint;
}

export function loadSingleNominatorWithdraw(s: Slice): SingleNominatorWithdraw {
  loadOpcode(s, OP.single_nominator_withdraw, "single_nominator_withdraw");
  return { queryId: s.loadUintBig(64), amount: s.loadCoins() };
}

export const storeSingleNominatorWithdraw = (src: SingleNominatorWithdraw) => (b: Builder) =>
  b.storeUint(OP.single_nominator_withdraw, 32).storeUint(src.queryId, 64).storeCoins(src.amount);

/** single_nominator_change_validator#00001001 query_id:uint64 new_validator_address:MsgAddress. */
export interface SingleNominatorChangeValidator {
  queryId: bigint;
  newValidatorAddress: Address | null;
}

export function loadSingleNominatorChangeValidator(s: Slice): SingleNominatorChangeValidator {
  loadOpcode(s, OP.single_nominator_change_validator, "single_nominator_change_validator");
  return { queryId: s.loadUintBig(64), newValidatorAddress: s.loadMaybeAddress() };
}

export const storeSingleNominatorChangeValidator = (src: SingleNominatorChangeValidator) => (b: Builder) =>
  b.storeUint(OP.single_nominator_change_validator, 32).storeUint(src.queryId, 64).storeAddress(src.newValidatorAddress);

/** single_nominator_send_raw_msg#00007702 query_id:uint64 mode:uint8 msg:^(MessageRelaxed Any): the owner's emergency send. */
export interface SingleNominatorSendRawMsg {
  queryId: bigint;
  mode: number;
  message: RelaxedMessage;
}

export function loadSingleNominatorSendRawMsg(s: Slice): SingleNominatorSendRawMsg {
  loadOpcode(s, OP.single_nominator_send_raw_msg, "single_nominator_send_raw_msg");
  return { queryId: s.loadUintBig(64), mode: s.loadUint(8), message: relaxedMessageOf(s.loadRef()) };
}

export const storeSingleNominatorSendRawMsg = (src: SingleNominatorSendRawMsg) => (b: Builder) =>
  b.storeUint(OP.single_nominator_send_raw_msg, 32).storeUint(src.queryId, 64).storeUint(src.mode, 8).storeRef(relaxedMessageCell(src.message));

/** single_nominator_upgrade#00009903 query_id:uint64 new_code:^Cell. */
export interface SingleNominatorUpgrade {
  queryId: bigint;
  newCode: Cell;
}

export function loadSingleNominatorUpgrade(s: Slice): SingleNominatorUpgrade {
  loadOpcode(s, OP.single_nominator_upgrade, "single_nominator_upgrade");
  return { queryId: s.loadUintBig(64), newCode: s.loadRef() };
}

export const storeSingleNominatorUpgrade = (src: SingleNominatorUpgrade) => (b: Builder) =>
  b.storeUint(OP.single_nominator_upgrade, 32).storeUint(src.queryId, 64).storeRef(src.newCode);
