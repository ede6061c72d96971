// JVault matchers. A stake is a jetton transfer to the pool whose forward payload names the lock
// period; the pool passes the jettons to the staker's stake wallet (receive_jettons), which asks
// the pool to update rewards (or the pool cancels and sends the jettons back). Unstaking, asking
// to unstake and claiming rewards are calls to the stake wallet that end in the same reward
// update, with the referrers' wallets updated along the way.
import { JVAULT_OPCODES, loadJvaultClaimRewardsMsg, loadJvaultStakeJettons, loadJvaultUnstakeJettons, loadJvaultUnstakeRequest } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher, RecursiveMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { jvaultAssets } from "./assets.js";
import { JvaultClaimBlock, JvaultStakeBlock, JvaultUnstakeBlock, JvaultUnstakeRequestBlock, type JvaultUnstakeData } from "./blocks.js";

const OP = JVAULT_OPCODES;

/** The referrers' wallets updated one after another, each chain ended by update_referrer. */
const referralChain = () =>
  new RecursiveMatcher(
    new RecursiveMatcher(new ContractMatcher(OP.jvault_request_update_referrer, { includeExcess: true }), new ContractMatcher(OP.jvault_update_referrer, { includeExcess: true }), true),
    null,
    true,
  );

/** The pool's answer to the stake wallet, with the staker's change. */
const updateRewards = () => labeled("update_rewards_on_stake_wallet", new ContractMatcher(OP.jvault_update_rewards, { includeExcess: true }));

export class JVaultStakeBlockMatcher extends BlockMatcher {
  constructor() {
    const requestUpdate = labeled("request_update_rewards_from_pool", new ContractMatcher(OP.jvault_request_update_rewards, { children: [referralChain(), updateRewards()] }));
    const cancellation = labeled("cancellation", new ContractMatcher(OP.jvault_cancel_stake, { child: new BlockTypeMatcher("jetton_transfer", { optional: true }) }));
    super({
      children: [
        labeled("receive_stake_jettons_on_stake_wallet", new ContractMatcher(OP.jvault_receive_jettons, { child: new OrMatcher([requestUpdate, cancellation]) })),
        new ContractMatcher(OP.jvault_set_data, { optional: true }),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof JettonTransferBlock)) return [];
    const receive = getLabeled("receive_stake_jettons_on_stake_wallet", others, CallContractBlock);
    if (receive === null) return [];
    const payload = block.data.payload.cell;
    if (payload === null) return [];
    const { lockPeriod } = loadJvaultStakeJettons(payload.beginParse());
    let failed = receive.failed;
    const request = getLabeled("request_update_rewards_from_pool", others, CallContractBlock);
    if (getLabeled("cancellation", others, CallContractBlock) !== null) failed = true;
    else if (request !== null) failed ||= request.failed;
    else return [];
    const built = new JvaultStakeBlock({
      sender: block.data.sender,
      senderWallet: block.data.senderWallet,
      asset: block.data.asset,
      stakeWallet: receive.destination,
      stakingPool: receive.source,
      stakedAmount: block.request.amount,
      period: lockPeriod,
    });
    built.failed = failed;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class JVaultUnstakeBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled(
        "request_update_rewards_from_pool",
        new ContractMatcher(OP.jvault_request_update_rewards, {
          optional: true,
          children: [
            referralChain(),
            labeled("unstake_fee", new BlockTypeMatcher("ton_transfer", { optional: true })),
            labeled("withdraw_unstaked_jettons", new BlockTypeMatcher("jetton_transfer")),
            updateRewards(),
          ],
        }),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.jvault_unstake_jettons);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const unstake = loadJvaultUnstakeJettons(block.body());
    const stakeWallet = block.destination;
    const assets = jvaultAssets(ctx, stakeWallet);
    if (assets === null || assets.asset === null) return [];
    const transfer = getLabeled("withdraw_unstaked_jettons", others, JettonTransferBlock);
    const request = getLabeled("request_update_rewards_from_pool", others, CallContractBlock);
    const data: JvaultUnstakeData = {
      sender: block.source,
      stakeWallet,
      stakingPool: assets.stakingPool,
      amount: unstake.jettonsToUnstake,
      asset: assets.asset,
      jvaultAsset: assets.jvaultAsset,
      exitCode: null,
    };
    if (request === null || transfer === null) {
      // the stake wallet refused: its exit code says why
      data.exitCode = block.node.tx.computeExitCode;
    } else {
      if (transfer.data.asset !== assets.asset) throw new Error(`jvault unstake: paid out ${transfer.data.asset}, staked ${assets.asset}`);
      data.stakingPool = request.destination;
    }
    const built = new JvaultUnstakeBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class JVaultClaimBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled(
        "send_claimed_rewards",
        new ContractMatcher(OP.jvault_send_claimed_rewards, { children: [labeled("withdraw_claimed_jettons", new BlockTypeMatcher("jetton_transfer")), updateRewards()] }),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.jvault_claim_rewards_msg);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const claim = loadJvaultClaimRewardsMsg(block.body());
    const withdrawal = getLabeled("withdraw_claimed_jettons", others, JettonTransferBlock);
    const toPool = getLabeled("send_claimed_rewards", others, CallContractBlock);
    if (withdrawal === null || toPool === null) return [];
    const built = new JvaultClaimBlock({
      sender: block.source,
      stakeWallet: block.destination,
      stakingPool: toPool.destination,
      claimedJettons: claim.jettonsToClaim.keys().flatMap((a) => rawAddress(a) ?? []),
      claimedAmounts: [withdrawal.request.amount],
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class JVaultUnstakeRequestBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled("request_update_rewards_from_pool", new ContractMatcher(OP.jvault_request_update_rewards, { optional: true, children: [referralChain(), updateRewards()] })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.jvault_unstake_request);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const request = loadJvaultUnstakeRequest(block.body());
    const stakeWallet = block.destination;
    const update = getLabeled("request_update_rewards_from_pool", others, CallContractBlock);
    const assets = jvaultAssets(ctx, stakeWallet);
    let built: JvaultUnstakeRequestBlock;
    if (update === null) {
      // the request failed before the pool heard of it: the stake wallet's data names the pool
      if (assets === null || assets.asset === null) return [];
      built = new JvaultUnstakeRequestBlock({
        sender: block.source,
        stakeWallet,
        stakingPool: assets.stakingPool,
        amount: request.jettonsToUnstake,
        asset: assets.asset,
        jvaultAsset: assets.jvaultAsset,
        exitCode: block.node.tx.computeExitCode,
      });
      built.failed = true;
    } else {
      built = new JvaultUnstakeRequestBlock({
        sender: block.source,
        stakeWallet,
        stakingPool: update.destination,
        amount: request.jettonsToUnstake,
        asset: assets?.asset ?? null,
        jvaultAsset: assets?.jvaultAsset ?? null,
        exitCode: null,
      });
      built.failed = block.failed || update.failed;
    }
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
