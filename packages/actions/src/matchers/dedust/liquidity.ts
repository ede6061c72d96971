// DeDust v1 liquidity (toncenter's liquidity.py, DeDust part). A deposit sends each asset to its
// vault (TON: deposit_liquidity; a jetton: a transfer whose forward payload asks for it); the vault
// asks the factory (create_liquidity_deposit), which deploys or tops up the user's deposit
// contract. The asset that completes the deposit makes the deposit contract call the pool
// (deposit_liquidity_all), which mints LP tokens or rejects; the contract then destroys itself and
// the vaults return what the pool did not take. Each asset may come in its own trace: the asset
// that did not complete it is a partial deposit, folded into the final one by
// postProcessDedustLiquidity when both are in one trace. A withdrawal burns LP jettons; the pool
// asks both vaults to pay out.
import {
  DEDUST_LIQUIDITY_OPCODES as OP,
  DEDUST_PAYOUT_OPCODES as PAYOUT,
  JETTON_OPCODES,
  loadDedustDepositLiquidityAll,
  loadDedustDepositLiquidityJettonPayload,
  loadDedustDepositLiquidityNative,
  loadDedustPayOutFromPool,
  loadJettonBurn,
  loadJettonInternalTransfer,
  loadJettonNotify,
  type DedustPoolParams,
} from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock, JettonTransferBlockMatcher } from "../jettons/transfer.js";
import { assetColumn, dedustAsset, TON, type DexAsset } from "../liquidity/assets.js";
import { DexWithdrawLiquidityBlock, mergeInto, type WithdrawLeg } from "../liquidity/blocks.js";

export interface DedustDepositData {
  sender: string | null;
  pool: string | null;
  depositContract: string | null;
  lpTokensMinted: bigint | null;
  asset1: DexAsset | null;
  amount1: bigint | null;
  asset2: DexAsset | null;
  amount2: bigint | null;
  targetAsset1: DexAsset | null;
  targetAmount1: bigint;
  targetAsset2: DexAsset | null;
  targetAmount2: bigint;
  userJettonWallet1: string | null;
  userJettonWallet2: string | null;
  vaultExcesses: { asset: DexAsset | null; amount: bigint }[];
}

function depositRowData(d: DedustDepositData, withLp: boolean): Record<string, unknown> {
  return {
    dex: "dedust",
    asset1: assetColumn(d.asset1),
    amount1: d.amount1,
    asset2: assetColumn(d.asset2),
    amount2: d.amount2,
    user_jetton_wallet_1: d.userJettonWallet1,
    user_jetton_wallet_2: d.userJettonWallet2,
    lp_tokens_minted: withLp ? d.lpTokensMinted : null,
    target_asset_1: assetColumn(d.targetAsset1),
    target_amount_1: d.targetAmount1,
    target_asset_2: assetColumn(d.targetAsset2),
    target_amount_2: d.targetAmount2,
  };
}

/** The deposit the pool saw (with the other asset's partial folded in when it is in the trace). */
export class DedustDepositLiquidityBlock extends Block {
  constructor(public data: DedustDepositData) {
    super("dedust_deposit_liquidity", []);
    if (data.lpTokensMinted === null) this.failed = true;
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    row.source = d.sender;
    row.destination = d.pool;
    row.destination_secondary = d.depositContract;
    row.dex_deposit_liquidity_data = {
      ...depositRowData(d, true),
      vault_excesses: d.vaultExcesses.map((e) => ({ asset: assetColumn(e.asset), amount: e.amount })),
    };
  }
}

/** One asset sent to the deposit contract, the deposit not completed by it. */
export class DedustDepositLiquidityPartialBlock extends Block {
  constructor(public data: DedustDepositData) {
    super("dedust_deposit_liquidity_partial", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    row.source = d.sender;
    row.destination_secondary = d.depositContract;
    row.dex_deposit_liquidity_data = depositRowData(d, false);
  }
}

/** The vault call an asset deposit starts with: TON's deposit_liquidity, or a jetton transfer's notification to the vault. */
function vaultDeposit(label: string | null): BlockMatcher {
  const ton = new ContractMatcher(OP.deposit_liquidity_native);
  const jetton = new ContractMatcher(JETTON_OPCODES.jetton_notify, {
    parent: new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, { includeExcess: true, parent: new ContractMatcher(JETTON_OPCODES.jetton_transfer) }),
  });
  return new OrMatcher(label === null ? [ton, jetton] : [labeled(label, ton), labeled(label, jetton)]);
}

/** What the deposit contract and the vaults return: TON straight from the contract, vault payouts of TON or jettons. */
function excessMatchers(): BlockMatcher[] {
  const vaultReturn = () => {
    const jettonExcess = new JettonTransferBlockMatcher();
    jettonExcess.optional = true;
    return new ContractMatcher(OP.pay_out_from_deposit, {
      optional: true,
      children: [labeled("jetton_excess", jettonExcess, true), labeled("ton_excess", new ContractMatcher(PAYOUT.dedust_payout, { optional: true }))],
    });
  };
  return [new BlockTypeMatcher("ton_transfer", { optional: true }), vaultReturn(), vaultReturn()];
}

export class DedustDepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      parent: new ContractMatcher(OP.top_up_liquidity_deposit, {
        parent: new ContractMatcher(OP.create_liquidity_deposit, {
          parent: vaultDeposit("deposit"),
          child: new ContractMatcher(OP.install, { optional: true }),
        }),
      }),
      children: [
        new OrMatcher([
          labeled(
            "lp_transfer",
            new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, { child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { optional: true }) }),
          ),
          labeled("rejection", new ContractMatcher(OP.deposit_rejected, { children: excessMatchers() })),
        ]),
        new ContractMatcher(OP.destroy_liquidity_deposit, { optional: true, children: excessMatchers() }),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.deposit_liquidity_all;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const info = loadDedustDepositLiquidityAll(block.body());
    const sender = rawAddress(info.owner)!;
    const lpTransfer = getLabeled("lp_transfer", others, CallContractBlock);
    const rejection = getLabeled("rejection", others, CallContractBlock);
    let pool: string | null;
    let lpTokens: bigint | null;
    if (lpTransfer !== null) {
      pool = block.destination;
      lpTokens = loadJettonInternalTransfer(lpTransfer.body()).amount;
    } else if (rejection !== null) {
      pool = rejection.source;
      lpTokens = null;
    } else return [];
    const deposit = getLabeled("deposit", others, CallContractBlock);
    if (deposit === null) return [];
    let asset: DexAsset;
    let amount: bigint;
    if (deposit.opcode === OP.deposit_liquidity_native) {
      asset = TON;
      amount = loadDedustDepositLiquidityNative(deposit.body()).amount;
    } else {
      amount = loadJettonNotify(deposit.body()).amount;
      const wallet = ctx.jettonWallet(deposit.source);
      if (wallet === null) return [];
      asset = wallet.jetton;
    }
    // the user's jetton wallet of the deposited asset, among the user's transfers
    let userWallet: string | null = null;
    for (const b of others) {
      if (!(b instanceof CallContractBlock) || b.opcode !== JETTON_OPCODES.jetton_transfer || b.source !== sender) continue;
      const w = ctx.jettonWallet(b.destination);
      if (w !== null && w.jetton === asset) userWallet = b.destination;
    }
    const excesses: { asset: DexAsset | null; amount: bigint }[] = [];
    for (const t of getMultipleLabeled("ton_excess", others, CallContractBlock)) if (t.destination === sender) excesses.push({ asset: TON, amount: t.value ?? 0n });
    for (const j of getMultipleLabeled("jetton_excess", others, JettonTransferBlock)) if (j.data.receiver === sender) excesses.push({ asset: j.data.asset, amount: j.data.amount });
    const built = new DedustDepositLiquidityBlock({
      sender,
      pool,
      depositContract: block.source,
      lpTokensMinted: lpTokens,
      asset1: asset,
      amount1: amount,
      asset2: null,
      amount2: null,
      targetAsset1: dedustAsset(info.asset0),
      targetAmount1: info.asset0Amount,
      targetAsset2: dedustAsset(info.asset1),
      targetAmount2: info.asset1Amount,
      userJettonWallet1: userWallet,
      userJettonWallet2: null,
      vaultExcesses: excesses,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class DedustDepositFirstAssetBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      parent: new ContractMatcher(OP.create_liquidity_deposit, {
        child: new ContractMatcher(OP.install),
        parent: vaultDeposit(null),
      }),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.top_up_liquidity_deposit;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    // user → vault → factory → deposit contract, or user → wallet → vault's wallet → vault → factory → deposit contract
    const vaultCall = block.previous?.previous;
    if (!(vaultCall instanceof CallContractBlock)) return [];
    // a top-up that went on to the pool is a final deposit that did not match: not a partial one
    const topUp = findCallContract([block, ...others], OP.top_up_liquidity_deposit);
    if (topUp !== null && topUp.next.some((n) => n instanceof CallContractBlock && (n.opcode === OP.deposit_liquidity_all || n.opcode === OP.deposit_rejected))) return [];
    let data: DedustDepositData;
    if (vaultCall.opcode === OP.deposit_liquidity_native) {
      const msg = loadDedustDepositLiquidityNative(vaultCall.body());
      data = partialData(vaultCall.source, block.destination, TON, msg.amount, null, msg.poolParams, msg.asset0TargetBalance, msg.asset1TargetBalance);
    } else {
      const notify = loadJettonNotify(vaultCall.body());
      // toncenter takes the forward payload from the notification's first ref
      const body = vaultCall.body();
      if (body.remainingRefs === 0) return [];
      const payload = loadDedustDepositLiquidityJettonPayload(body.loadRef().beginParse());
      const wallet = ctx.jettonWallet(vaultCall.source);
      if (wallet === null) return [];
      const userWallet = vaultCall.previous instanceof CallContractBlock ? vaultCall.previous.source : null;
      data = partialData(rawAddress(notify.sender), block.destination, wallet.jetton, notify.amount, userWallet, payload.poolParams, payload.asset0TargetBalance, payload.asset1TargetBalance);
    }
    const built = new DedustDepositLiquidityPartialBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

function partialData(
  sender: string | null,
  depositContract: string | null,
  asset: DexAsset,
  amount: bigint,
  userWallet: string | null,
  pool: DedustPoolParams,
  target0: bigint,
  target1: bigint,
): DedustDepositData {
  return {
    sender,
    pool: null,
    depositContract,
    lpTokensMinted: null,
    asset1: asset,
    amount1: amount,
    asset2: null,
    amount2: null,
    targetAsset1: dedustAsset(pool.asset0),
    targetAmount1: target0,
    targetAsset2: dedustAsset(pool.asset1),
    targetAmount2: target1,
    userJettonWallet1: userWallet,
    userJettonWallet2: null,
    vaultExcesses: [],
  };
}

/**
 * The final deposit with the partial one's asset added (toncenter's combine_deposits); null when
 * they do not describe one deposit of the same two assets.
 */
function combineDeposits(first: DedustDepositData, final: DedustDepositData): DedustDepositData | null {
  const targetsFirst = new Set([first.targetAsset1, first.targetAsset2]);
  const targetsFinal = new Set([final.targetAsset1, final.targetAsset2]);
  if (targetsFirst.size !== targetsFinal.size || [...targetsFirst].some((a) => !targetsFinal.has(a))) return null;
  const legs: { asset: DexAsset; amount: bigint | null; wallet: string | null }[] = [];
  for (const [asset, amount, wallet] of [
    [first.asset1, first.amount1, first.userJettonWallet1],
    [first.asset2, first.amount2, first.userJettonWallet2],
  ] as const) {
    if (asset !== null) legs.push({ asset, amount, wallet });
  }
  for (const [asset, amount, wallet] of [
    [final.asset1, final.amount1, final.userJettonWallet1],
    [final.asset2, final.amount2, final.userJettonWallet2],
  ] as const) {
    if (asset === null) continue;
    const i = legs.findIndex((l) => l.asset === asset);
    if (i < 0) {
      legs.push({ asset, amount, wallet });
      continue;
    }
    const existing = legs[i];
    if (existing.wallet !== wallet) return null;
    legs[i] = { asset, amount: existing.amount === null || amount === null ? null : existing.amount + amount, wallet };
  }
  const unique = new Set(legs.map((l) => l.asset));
  if (unique.size !== 2 || [...unique].some((a) => !targetsFirst.has(a))) return null;
  const out = { ...final };
  const [a, b] = legs;
  // toncenter's wallets are never falsy (an absent one is an empty AccountId): each leg's wallet is written
  out.asset1 = a.asset;
  out.amount1 = a.amount;
  out.userJettonWallet1 = a.wallet;
  out.asset2 = b.asset;
  out.amount2 = b.amount;
  out.userJettonWallet2 = b.wallet;
  // the targets' order follows the assets' (their amounts stay as the final deposit had them)
  out.targetAsset1 = a.asset;
  out.targetAsset2 = b.asset;
  return out;
}

/** Folds each partial deposit into the final deposit of the same deposit contract (toncenter's post_process_dedust_liquidity). */
export function postProcessDedustLiquidity(blocks: Block[]): Block[] {
  const firsts = blocks.filter((b): b is DedustDepositLiquidityPartialBlock => b instanceof DedustDepositLiquidityPartialBlock);
  const finals = blocks.filter((b): b is DedustDepositLiquidityBlock => b instanceof DedustDepositLiquidityBlock);
  const uses = new Map<string | null, number>();
  for (const b of [...firsts, ...finals]) uses.set(b.data.depositContract, (uses.get(b.data.depositContract) ?? 0) + 1);
  // one deposit contract used by more deposits than one: which belong together is not known
  for (const n of uses.values()) if (n > 2) return blocks;
  let out = blocks;
  for (const first of firsts) {
    const final = finals.find((b) => b.data.depositContract === first.data.depositContract);
    if (final === undefined) continue;
    // toncenter fails the trace on legs that disagree; here they stay two actions
    const combined = combineDeposits(first.data, final.data);
    if (combined === null) continue;
    out = out.filter((b) => b !== first);
    mergeInto(final, first);
    final.data = combined;
  }
  return out;
}

export class DedustWithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const payout = (label: string) =>
      new ContractMatcher(PAYOUT.dedust_pay_out_from_pool, {
        child: new OrMatcher([labeled(label, new ContractMatcher(PAYOUT.dedust_payout)), labeled(label, new BlockTypeMatcher("jetton_transfer"))]),
      });
    super({ child: new ContractMatcher(JETTON_OPCODES.jetton_burn_notification, { children: [payout("payout_1"), payout("payout_2")] }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === JETTON_OPCODES.jetton_burn;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const burn = loadJettonBurn(block.body());
    const notify = block.next[0];
    if (!(notify instanceof CallContractBlock)) return [];
    const lpWallet = ctx.jettonWallet(block.destination);
    if (lpWallet === null) return [];
    const legs: WithdrawLeg[] = [];
    for (const label of ["payout_1", "payout_2"]) {
      const payout = getLabeled(label, others, Block);
      const request = payout?.previous;
      if (payout === null || !(request instanceof CallContractBlock)) return [];
      const amount = loadDedustPayOutFromPool(request.body()).amount;
      if (payout instanceof CallContractBlock && payout.opcode === PAYOUT.dedust_payout) {
        legs.push({ amount, asset: TON, userWallet: null, dexWallet: payout.source, dexJettonWallet: null });
      } else if (payout instanceof JettonTransferBlock) {
        const d = payout.data;
        legs.push({ amount, asset: d.asset, userWallet: d.receiverWallet, dexWallet: d.sender, dexJettonWallet: d.senderWallet });
      } else return [];
    }
    const built = new DexWithdrawLiquidityBlock({
      dex: "dedust",
      sender: block.source,
      senderWallet: block.destination,
      pool: notify.destination,
      asset: lpWallet.jetton,
      lpTokensBurnt: burn.amount,
      isRefund: false,
      out: [legs[0], legs[1]],
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
