// swap.coffee staking (toncenter's CoffeeStaking*Matcher): a deposit is a jetton transfer to the
// staking pool, which tells the master (coffee_staking_deposit, logged again by the master) and
// the master mints a position NFT; a withdrawal is the owner's withdraw to the position NFT, the
// NFT's to the master (nft id, owner, points, the stake), the master's to the pool, and the
// pool's jetton transfer back; the admin's claim_rewards makes the pool transfer rewards.
import { loadCoffeeStakingClaimRewards, loadCoffeeStakingPositionWithdraw2, loadCoffeeStakingPositionWithdraw3 } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { NftMintBlock } from "../nft/mint.js";
import { addressOf, OP } from "./common.js";

export interface CoffeeStakingDepositData {
  source: string | null;
  userJettonWallet: string | null;
  poolJettonWallet: string | null;
  pool: string | null;
  value: bigint;
  mintedItem: string;
  mintedItemIndex: bigint;
  asset: string | null;
}

export class CoffeeStakingDepositBlock extends Block {
  constructor(readonly data: CoffeeStakingDepositData) {
    super("coffee_staking_deposit", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.userJettonWallet;
    row.destination = d.pool;
    row.destination_secondary = d.poolJettonWallet;
    row.asset = d.asset;
    row.amount = d.value;
    row.coffee_staking_deposit_data = { minted_item_address: d.mintedItem, minted_item_index: d.mintedItemIndex };
  }
}

export class CoffeeStakingDepositMatcher extends BlockMatcher {
  constructor() {
    super({
      child: labeled(
        "pool_call",
        new ContractMatcher(OP.coffee_staking_deposit, {
          children: [labeled("log", new ContractMatcher(OP.coffee_staking_deposit, { optional: true })), labeled("nft_mint", new BlockTypeMatcher("nft_mint"))],
        }),
      ),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof JettonTransferBlock)) return [];
    const poolCall = getLabeled("pool_call", others, CallContractBlock);
    const mint = getLabeled("nft_mint", others, NftMintBlock);
    if (poolCall === null || mint === null) return [];
    const d = block.data;
    const built = new CoffeeStakingDepositBlock({
      source: d.sender,
      userJettonWallet: d.senderWallet,
      poolJettonWallet: d.receiverWallet,
      pool: poolCall.destination,
      value: d.amount,
      mintedItem: mint.data.item,
      mintedItemIndex: mint.data.index,
      asset: d.asset,
    });
    const merged: Block[] = [block, poolCall, mint];
    const log = getLabeled("log", others, CallContractBlock);
    if (log !== null) merged.push(log);
    built.mergeBlocks(merged);
    return [built];
  }
}

export interface CoffeeStakingWithdrawData {
  source: string;
  pool: string | null;
  asset: string | null;
  amount: bigint;
  userJettonWallet: string | null;
  poolJettonWallet: string;
  nft: string | null;
  nftIndex: bigint;
  points: bigint;
}

export class CoffeeStakingWithdrawBlock extends Block {
  constructor(readonly data: CoffeeStakingWithdrawData) {
    super("coffee_staking_withdraw", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.source;
    row.source_secondary = d.userJettonWallet;
    row.destination = d.pool;
    row.destination_secondary = d.poolJettonWallet;
    row.asset = d.asset;
    row.amount = d.amount;
    row.coffee_staking_withdraw_data = { nft_address: d.nft, nft_index: d.nftIndex, points: d.points };
  }
}

export class CoffeeStakingWithdrawMatcher extends BlockMatcher {
  constructor() {
    const withdraw3 = labeled("withdraw_3", new ContractMatcher(OP.coffee_staking_position_withdraw, { children: [labeled("jetton_transfer", new BlockTypeMatcher("jetton_transfer"))] }));
    const withdraw2 = labeled(
      "withdraw_2",
      new ContractMatcher(OP.coffee_staking_position_withdraw, {
        children: [withdraw3, labeled("log", new ContractMatcher(OP.coffee_staking_position_withdraw, { optional: true }))],
      }),
    );
    super({ child: withdraw2 });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_staking_position_withdraw);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const w2 = getLabeled("withdraw_2", others, CallContractBlock);
    const w3 = getLabeled("withdraw_3", others, CallContractBlock);
    const transfer = getLabeled("jetton_transfer", others, JettonTransferBlock);
    if (w2 === null || w3 === null || transfer === null) return [];
    const position = loadCoffeeStakingPositionWithdraw2(w2.body());
    const payout = loadCoffeeStakingPositionWithdraw3(w3.body());
    const built = new CoffeeStakingWithdrawBlock({
      source: addressOf(position.owner),
      // toncenter names the sender of the second step (the position NFT) the pool
      pool: w2.source,
      asset: transfer.data.asset,
      amount: payout.jettonAmount,
      userJettonWallet: transfer.data.receiverWallet,
      poolJettonWallet: addressOf(payout.jettonWallet),
      nft: block.destination,
      nftIndex: position.nftId,
      points: position.points,
    });
    const merged: Block[] = [block, w2, w3, transfer];
    const log = getLabeled("log", others, CallContractBlock);
    if (log !== null) merged.push(log);
    built.mergeBlocks(merged);
    return [built];
  }
}

export interface CoffeeStakingClaimRewardsData {
  recipient: string;
  pool: string | null;
  asset: string | null;
  amount: bigint;
  poolJettonWallet: string;
  recipientJettonWallet: string | null;
}

export class CoffeeStakingClaimRewardsBlock extends Block {
  constructor(readonly data: CoffeeStakingClaimRewardsData) {
    super("coffee_staking_claim_rewards", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    // the admin that asked is always the same highload wallet: toncenter keeps no field for it
    row.source = d.pool;
    row.source_secondary = d.poolJettonWallet;
    row.destination = d.recipient;
    row.destination_secondary = d.recipientJettonWallet;
    row.asset = d.asset;
    row.amount = d.amount;
  }
}

export class CoffeeStakingClaimRewardsMatcher extends BlockMatcher {
  constructor() {
    super({
      children: [labeled("jetton_transfer", new BlockTypeMatcher("jetton_transfer")), labeled("log", new ContractMatcher(OP.coffee_staking_claim_rewards, { optional: true }))],
    });
  }

  /** The admin's request, not the pool's log of it (a log starts nothing). */
  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_staking_claim_rewards) && block.next.length > 0;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const transfer = getLabeled("jetton_transfer", others, JettonTransferBlock);
    if (transfer === null) return [];
    const claim = loadCoffeeStakingClaimRewards(block.body());
    const built = new CoffeeStakingClaimRewardsBlock({
      recipient: addressOf(claim.receiver),
      pool: block.destination,
      asset: transfer.data.asset,
      amount: claim.jettonAmount,
      poolJettonWallet: addressOf(claim.jettonWallet),
      recipientJettonWallet: transfer.data.receiverWallet,
    });
    const merged: Block[] = [block, transfer];
    const log = getLabeled("log", others, CallContractBlock);
    if (log !== null) merged.push(log);
    built.mergeBlocks(merged);
    return [built];
  }
}
