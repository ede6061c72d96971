// What DeDust v2 pools pay out (toncenter's dedust_v2/common.py): a leg is either a jetton transfer
// from the pool's jetton wallet or a payout#3216ca09 carrying TON. Withdrawals, claims and
// deposit refunds all end in such legs.
import { COMMON_OPCODES, DEDUST_V2_PAYMENT_OPCODES, loadDedustV2Payout } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { TON, type DexAsset } from "../liquidity/assets.js";

/** An optional excess (toncenter's excess_matcher). */
export function excessMatcher(): ContractMatcher {
  return new ContractMatcher(COMMON_OPCODES.excess, { optional: true, includeExcess: false });
}

/** An optional payout leg, labelled `payout`. */
export function payoutLegMatcher(): OrMatcher {
  return new OrMatcher(
    [
      labeled("payout", new BlockTypeMatcher("jetton_transfer")),
      labeled("payout", new ContractMatcher(DEDUST_V2_PAYMENT_OPCODES.dedust_v2_payout, { includeExcess: false })),
    ],
    true,
  );
}

export interface PayoutLeg {
  amount: bigint;
  asset: DexAsset | null;
  userWallet: string | null;
  /** the pool (the jetton transfer's sender, the payout's source) */
  dexWallet: string | null;
  dexJettonWallet: string | null;
}

/** A leg's amount, asset and wallets; null for a block that is no leg. */
export function parsePayoutLeg(payout: Block): PayoutLeg | null {
  if (payout instanceof JettonTransferBlock) {
    const d = payout.data;
    return { amount: d.amount, asset: d.asset, userWallet: d.receiverWallet, dexWallet: d.sender, dexJettonWallet: d.senderWallet };
  }
  if (payout instanceof CallContractBlock && payout.opcode === DEDUST_V2_PAYMENT_OPCODES.dedust_v2_payout) {
    let amount: bigint;
    try {
      amount = loadDedustV2Payout(payout.body()).amount;
    } catch {
      return null;
    }
    return { amount, asset: TON, userWallet: null, dexWallet: payout.source, dexJettonWallet: null };
  }
  return null;
}
