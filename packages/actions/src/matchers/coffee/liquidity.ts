// swap.coffee liquidity (toncenter's CoffeeDepositLiquidityMatcher and
// CoffeeWithdrawLiquidityMatcher). A deposit sends each side to its vault; the vault asks the
// factory (create_liquidity_depository_request) to deploy the user's depository, and the second
// side's depository, now holding both, deposits into the pool: LP tokens minted, a
// deposit_liquidity_succeeded log, and what the pool did not take paid back by a vault. Each side
// is its own dex_deposit_liquidity. A withdrawal burns LP tokens; the pool pays both assets out
// through their vaults and logs withdraw_liquidity_succeeded.
import {
  JETTON_OPCODES,
  loadCoffeeCreateLiquidityDepositoryRequest,
  loadCoffeeDepositLiquiditySucceeded,
  loadCoffeeWithdrawLiquiditySucceeded,
  loadJettonInternalTransfer,
} from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonBurnBlock } from "../jettons/burn.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { addressOf, assetOf, OP, vaultOutMatcher } from "./common.js";

const EXCESS = 0xd53276db;

export interface CoffeeDepositLiquidityData {
  sender: string | null;
  pool: string | null;
  depository: string | null;
  /** what a vault paid back: asset (null: TON) and amount */
  vaultExcesses: { asset: string | null; amount: bigint }[];
  asset1: string | null;
  amount1: bigint | null;
  userJettonWallet1: string | null;
  asset2: string | null;
  amount2: bigint | null;
  userJettonWallet2: string | null;
  targetAsset1: string | null;
  targetAsset2: string | null;
  lpTokensMinted: bigint | null;
}

/** One side of a deposit, published as dex_deposit_liquidity (toncenter fills it as DeDust's). */
export class CoffeeDepositLiquidityBlock extends Block {
  constructor(readonly data: CoffeeDepositLiquidityData) {
    super("coffee_deposit_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    row.source = d.sender;
    row.destination = d.pool;
    row.destination_secondary = d.depository;
    row.dex_deposit_liquidity_data = {
      dex: "coffee",
      asset1: d.asset1,
      amount1: d.amount1,
      asset2: d.asset2,
      amount2: d.amount2,
      user_jetton_wallet_1: d.userJettonWallet1,
      user_jetton_wallet_2: d.userJettonWallet2,
      lp_tokens_minted: d.lpTokensMinted,
      target_asset_1: d.targetAsset1,
      // the user may put any amount into the depository after it is deployed
      target_amount_1: null,
      target_asset_2: d.targetAsset2,
      target_amount_2: null,
      vault_excesses: d.vaultExcesses.map((e) => ({ asset: e.asset, amount: e.amount })),
    };
  }
}

export class CoffeeDepositLiquidityMatcher extends BlockMatcher {
  constructor() {
    const payout = labeled("payout", new ContractMatcher(OP.coffee_payout_internal, { optional: true, child: vaultOutMatcher("out_transfer") }));
    const lpTransfer = labeled(
      "lp_transfer",
      new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, { child: new ContractMatcher(EXCESS, { optional: true }) }),
    );
    const successEvent = labeled("success_event", new ContractMatcher(OP.coffee_deposit_liquidity_succeeded));
    // only the side that completes the pair reaches the pool
    const depositInternal = labeled(
      "deposit_internal",
      new ContractMatcher(OP.coffee_deposit_liquidity_internal, { optional: true, children: [lpTransfer, successEvent, payout] }),
    );
    super({
      parent: labeled("in_transfer", new OrMatcher([new ContractMatcher(OP.coffee_deposit_liquidity), new BlockTypeMatcher("jetton_transfer")])),
      child: labeled("deploy", new ContractMatcher(OP.coffee_deploy, { child: depositInternal })),
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_create_liquidity_depository_request);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const inTransfer = getLabeled("in_transfer", others, Block);
    const deploy = getLabeled("deploy", others, CallContractBlock);
    if (inTransfer === null || deploy === null) return [];
    let inAsset: string | null = null;
    let inWallet: string | null = null;
    if (inTransfer instanceof JettonTransferBlock) {
      if (inTransfer.data.asset === null) return [];
      inAsset = inTransfer.data.asset;
      inWallet = inTransfer.data.senderWallet;
    }
    const req = loadCoffeeCreateLiquidityDepositoryRequest(block.body());
    const first = assetOf(req.poolParams.first);
    const second = assetOf(req.poolParams.second);
    // the side the user provided is named after its place in the pool; the targets start with it
    const side = inAsset === first ? 1 : inAsset === second ? 2 : 0;
    if (side === 0) return [];

    let lpTokensMinted: bigint | null = null;
    let pool: string | null = null;
    const success = getLabeled("success_event", others, CallContractBlock);
    if (success !== null) {
      lpTokensMinted = loadCoffeeDepositLiquiditySucceeded(success.body()).lpAmount;
      pool = success.source;
    }
    const lp = getLabeled("lp_transfer", others, CallContractBlock);
    if (lp !== null && (lpTokensMinted === null || pool === null)) {
      lpTokensMinted = loadJettonInternalTransfer(lp.body()).amount;
      pool = lp.source;
    }

    const vaultExcesses: CoffeeDepositLiquidityData["vaultExcesses"] = [];
    const out = getLabeled("out_transfer", others, Block);
    if (out instanceof JettonTransferBlock) vaultExcesses.push({ asset: out.data.asset, amount: out.data.amount });
    else if (out instanceof CallContractBlock) vaultExcesses.push({ asset: null, amount: out.value ?? 0n });

    const built = new CoffeeDepositLiquidityBlock({
      sender: addressOf(req.sender),
      pool,
      depository: deploy.destination,
      vaultExcesses,
      asset1: side === 1 ? inAsset : null,
      amount1: side === 1 ? req.amount : null,
      userJettonWallet1: side === 1 ? inWallet : null,
      asset2: side === 2 ? inAsset : null,
      amount2: side === 2 ? req.amount : null,
      userJettonWallet2: side === 2 ? inWallet : null,
      targetAsset1: side === 1 ? first : second,
      targetAsset2: side === 1 ? second : first,
      lpTokensMinted,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

/** One asset a withdrawal paid out, as toncenter's dex_withdraw_liquidity row names it. */
interface WithdrawnAsset {
  amount: bigint;
  asset: string | null;
  /** the vault that paid */
  dexWallet: string | null;
  dexJettonWallet: string | null;
  /** the user's jetton wallet (the receiver, for TON) */
  wallet: string | null;
}

export interface CoffeeWithdrawLiquidityData {
  sender: string;
  senderWallet: string;
  pool: string | null;
  lpAsset: string;
  lpTokensBurnt: bigint;
  out1: WithdrawnAsset;
  out2: WithdrawnAsset;
}

export class CoffeeWithdrawLiquidityBlock extends Block {
  constructor(readonly data: CoffeeWithdrawLiquidityData) {
    super("dex_withdraw_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.destination = d.pool;
    row.asset = d.lpAsset;
    row.dex_withdraw_liquidity_data = {
      dex: "coffee",
      amount1: d.out1.amount,
      amount2: d.out2.amount,
      asset1_out: d.out1.asset,
      asset2_out: d.out2.asset,
      user_jetton_wallet_1: d.out1.wallet,
      user_jetton_wallet_2: d.out2.wallet,
      dex_jetton_wallet_1: d.out1.dexJettonWallet,
      dex_wallet_1: d.out1.dexWallet,
      dex_wallet_2: d.out2.dexWallet,
      dex_jetton_wallet_2: d.out2.dexJettonWallet,
      is_refund: false,
      lp_tokens_burnt: d.lpTokensBurnt,
    };
  }
}

/** What a payout_internal's vault paid: a jetton transfer or a TON payout after it. */
function withdrawn(payout: CallContractBlock | null, amount: bigint, pool: string | null): WithdrawnAsset {
  const w: WithdrawnAsset = { amount, asset: null, dexWallet: pool, dexJettonWallet: null, wallet: null };
  if (payout === null) return w;
  w.dexWallet = payout.source;
  for (const next of payout.next) {
    if (next instanceof JettonTransferBlock) {
      w.asset = next.data.asset;
      w.dexJettonWallet = next.data.senderWallet;
      w.wallet = next.data.receiverWallet;
      break;
    }
    if (isCall(next, OP.coffee_payout)) {
      w.wallet = next.destination;
      break;
    }
  }
  return w;
}

export class CoffeeWithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const payout = () => new ContractMatcher(OP.coffee_payout_internal, { child: vaultOutMatcher("out_transfer") });
    super({
      children: [labeled("payout_1", payout()), labeled("payout_2", payout()), labeled("success_event", new ContractMatcher(OP.coffee_withdraw_liquidity_succeeded))],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonBurnBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof JettonBurnBlock)) return [];
    const success = getLabeled("success_event", others, CallContractBlock);
    if (success === null) return [];
    const event = loadCoffeeWithdrawLiquiditySucceeded(success.body());
    const pool = success.source;
    const built = new CoffeeWithdrawLiquidityBlock({
      sender: block.data.owner,
      senderWallet: block.data.jettonWallet,
      pool,
      lpAsset: block.data.asset,
      lpTokensBurnt: block.data.amount,
      out1: withdrawn(getLabeled("payout_1", others, CallContractBlock), event.amount1, pool),
      out2: withdrawn(getLabeled("payout_2", others, CallContractBlock), event.amount2, pool),
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
