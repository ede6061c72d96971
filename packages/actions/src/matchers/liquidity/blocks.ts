// The liquidity blocks several DEXes share: toncenter's plain dex_deposit_liquidity and
// dex_withdraw_liquidity rows (_fill_dex_deposit_liquidity / _fill_dex_withdraw_liquidity), and
// the fold of one block into another that the DeDust post-processors do.
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";
import { assetColumn, type DexAsset } from "./assets.js";

/** One asset paid out of a withdrawal. */
export interface WithdrawLeg {
  amount: bigint | null;
  asset: DexAsset | null;
  /** the user's jetton wallet that received it */
  userWallet: string | null;
  /** the DEX contract that paid it (a vault, the pool, the router) */
  dexWallet: string | null;
  /** the DEX's jetton wallet that sent it */
  dexJettonWallet: string | null;
}

export interface DexWithdrawLiquidityData {
  dex: string;
  sender: string | null;
  /** the sender's LP jetton wallet */
  senderWallet: string | null;
  pool: string | null;
  /** the LP jetton */
  asset: string | null;
  lpTokensBurnt: bigint | null;
  isRefund: boolean;
  out: [WithdrawLeg | null, WithdrawLeg | null];
}

export class DexWithdrawLiquidityBlock extends Block {
  constructor(readonly data: DexWithdrawLiquidityData) {
    super("dex_withdraw_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    const [a, b] = d.out;
    row.source = d.sender;
    row.source_secondary = d.senderWallet;
    row.destination = d.pool;
    row.asset = d.asset;
    row.dex_withdraw_liquidity_data = {
      dex: d.dex,
      amount1: a?.amount ?? null,
      amount2: b?.amount ?? null,
      asset1_out: assetColumn(a?.asset),
      asset2_out: assetColumn(b?.asset),
      user_jetton_wallet_1: a?.userWallet ?? null,
      user_jetton_wallet_2: b?.userWallet ?? null,
      dex_jetton_wallet_1: a?.dexJettonWallet ?? null,
      dex_wallet_1: a?.dexWallet ?? null,
      dex_wallet_2: b?.dexWallet ?? null,
      dex_jetton_wallet_2: b?.dexJettonWallet ?? null,
      is_refund: d.isRefund,
      lp_tokens_burnt: d.lpTokensBurnt,
    };
  }
}

export interface DexDepositLiquidityData {
  dex: string;
  sender: string | null;
  pool: string | null;
  amount1: bigint | null;
  amount2: bigint | null;
  asset1: DexAsset | null;
  asset2: DexAsset | null;
  senderWallet1: string | null;
  senderWallet2: string | null;
  lpTokensMinted: bigint | null;
}

export class DexDepositLiquidityBlock extends Block {
  constructor(readonly data: DexDepositLiquidityData) {
    super("dex_deposit_liquidity", []);
  }

  override fill(row: ActionRow): void {
    fillDexDepositLiquidity(row, this.data);
  }
}

/** toncenter's plain dex_deposit_liquidity row: who deposited what into which pool. */
export function fillDexDepositLiquidity(row: ActionRow, d: DexDepositLiquidityData): void {
  row.source = d.sender;
  row.destination = d.pool;
  row.dex_deposit_liquidity_data = {
    dex: d.dex,
    amount1: d.amount1,
    amount2: d.amount2,
    asset1: assetColumn(d.asset1),
    asset2: assetColumn(d.asset2),
    user_jetton_wallet_1: d.senderWallet1,
    user_jetton_wallet_2: d.senderWallet2,
    lp_tokens_minted: d.lpTokensMinted,
  };
}

/**
 * Folds `other` (a deposit leg found elsewhere in the trace) into `target`: its nodes, the node
 * that started it and its children join the target's.
 */
export function mergeInto(target: Block, other: Block): void {
  const nodes = new Set(target.nodes);
  for (const n of other.nodes) nodes.add(n);
  if (other.initiating !== null && other.initiating !== target.initiating) nodes.add(other.initiating);
  target.nodes = [...nodes];
  const children = new Set(target.children);
  for (const c of other.children) children.add(c);
  target.children = [...children];
  target.calculateMinMaxLt();
}
