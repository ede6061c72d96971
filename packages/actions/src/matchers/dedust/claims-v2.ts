// DeDust v2 position claims (toncenter's dedust_v2/claims.py): the LP's trading fees
// (claim_position_fees → pool → position → payout_position_fees → pool → one payout leg per
// non-zero side) and liquidity-mining rewards (claim_reward → pool → position → payout_reward →
// pool → a payout leg). The position's message carries the exact amounts.
import { DEDUST_LIQUIDITY_OPCODES as OP, loadDedustV2ClaimReward, loadDedustV2PayoutPositionFees, loadDedustV2PayoutReward } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, ContractMatcher, labeled, type MatcherOptions } from "../../engine/matcher.js";
import { assetColumn, type DexAsset } from "../liquidity/assets.js";
import { excessMatcher, parsePayoutLeg, payoutLegMatcher, type PayoutLeg } from "./payouts-v2.js";

type LegWallets = Omit<PayoutLeg, "amount">;

const NO_LEG: LegWallets = { asset: null, userWallet: null, dexWallet: null, dexJettonWallet: null };

/**
 * A claim's path after the user's call: the pool asks the position (poolCall), the position sends
 * its payout message (labeled payoutLabel) to the pool, which pays `legs` payout legs and the
 * excess. Excesses are matched as children, not taken in automatically.
 */
function claimPath(poolCall: number, payoutLabel: string, payoutCall: number, legs: number): MatcherOptions {
  const payout = labeled(
    payoutLabel,
    new ContractMatcher(payoutCall, { includeExcess: false, children: [...Array.from({ length: legs }, () => payoutLegMatcher()), excessMatcher()] }),
  );
  return { includeExcess: false, child: new ContractMatcher(poolCall, { includeExcess: false, child: payout }) };
}

export interface DedustV2ClaimFeesData {
  sender: string | null;
  pool: string | null;
  position: string | null;
  owner: string | null;
  amountX: bigint;
  amountY: bigint;
  x: LegWallets;
  y: LegWallets;
}

export class DedustV2ClaimFeesBlock extends Block {
  constructor(readonly data: DedustV2ClaimFeesData) {
    super("dedust_v2_claim_fees", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.destination = d.pool;
    row.destination_secondary = d.position;
    row.dex_withdraw_liquidity_data = {
      dex: "dedust_v2",
      amount1: d.amountX,
      amount2: d.amountY,
      asset1_out: assetColumn(d.x.asset),
      asset2_out: assetColumn(d.y.asset),
      user_jetton_wallet_1: d.x.userWallet,
      user_jetton_wallet_2: d.y.userWallet,
      dex_wallet_1: d.x.dexWallet,
      dex_wallet_2: d.y.dexWallet,
      dex_jetton_wallet_1: d.x.dexJettonWallet,
      dex_jetton_wallet_2: d.y.dexJettonWallet,
      is_refund: false,
      lp_tokens_burnt: null,
    };
  }
}

export interface DedustV2ClaimRewardData {
  sender: string | null;
  pool: string | null;
  position: string | null;
  owner: string | null;
  rewardIndex: number;
  amount: bigint;
  asset: DexAsset | null;
  leg: LegWallets;
}

export class DedustV2ClaimRewardBlock extends Block {
  constructor(readonly data: DedustV2ClaimRewardData) {
    super("dedust_v2_claim_reward", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.destination = d.pool;
    row.destination_secondary = d.position;
    row.dex_withdraw_liquidity_data = {
      dex: "dedust_v2",
      amount1: d.amount,
      amount2: null,
      asset1_out: assetColumn(d.asset),
      asset2_out: null,
      user_jetton_wallet_1: d.leg.userWallet,
      user_jetton_wallet_2: null,
      dex_wallet_1: d.leg.dexWallet,
      dex_wallet_2: null,
      dex_jetton_wallet_1: d.leg.dexJettonWallet,
      dex_jetton_wallet_2: null,
      is_refund: false,
      lp_tokens_burnt: null,
    };
  }
}

export class DedustV2ClaimFeesBlockMatcher extends BlockMatcher {
  constructor() {
    super(claimPath(OP.v2_claim_available_fees, "payout_fees", OP.v2_payout_position_fees, 2));
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_claim_position_fees;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const payoutFees = getLabeled("payout_fees", others, CallContractBlock);
    if (payoutFees === null) return [];
    const fees = loadDedustV2PayoutPositionFees(payoutFees.body());
    // a leg belongs to the side whose fee it pays exactly
    let x: LegWallets | null = null;
    let y: LegWallets | null = null;
    for (const payout of getMultipleLabeled("payout", others, Block).sort(byMinLt)) {
      const leg = parsePayoutLeg(payout);
      if (leg === null) return [];
      const { amount, ...wallets } = leg;
      if (amount === fees.xFees && x === null) x = wallets;
      else if (amount === fees.yFees && y === null) y = wallets;
    }
    const built = new DedustV2ClaimFeesBlock({
      sender: block.source,
      pool: block.destination,
      position: payoutFees.source,
      owner: rawAddress(fees.owner),
      amountX: fees.xFees,
      amountY: fees.yFees,
      x: x ?? NO_LEG,
      y: y ?? NO_LEG,
    });
    built.mergeBlocks([block, ...others]);
    built.failed = false;
    return [built];
  }
}

export class DedustV2ClaimRewardBlockMatcher extends BlockMatcher {
  constructor() {
    super(claimPath(OP.v2_claim_position_reward, "payout_reward", OP.v2_payout_reward, 1));
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_claim_reward;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const payoutRewardBlock = getLabeled("payout_reward", others, CallContractBlock);
    if (payoutRewardBlock === null) return [];
    const claim = loadDedustV2ClaimReward(block.body());
    const reward = loadDedustV2PayoutReward(payoutRewardBlock.body());
    let leg: PayoutLeg | null = null;
    const payout = getLabeled("payout", others, Block);
    if (payout !== null) {
      leg = parsePayoutLeg(payout);
      if (leg === null) return [];
    }
    const built = new DedustV2ClaimRewardBlock({
      sender: block.source,
      pool: block.destination,
      position: payoutRewardBlock.source,
      owner: rawAddress(reward.owner),
      rewardIndex: claim.rewardIndex,
      amount: reward.amount,
      asset: leg?.asset ?? null,
      leg: leg ?? NO_LEG,
    });
    built.mergeBlocks([block, ...others]);
    built.failed = false;
    return [built];
  }
}
