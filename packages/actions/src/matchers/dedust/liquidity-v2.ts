// DeDust v2 liquidity (toncenter's dedust_v2/liquidity.py). A withdrawal: withdraw → pool →
// withdraw_liquidity → position → exit_liquidity → pool, which emits the withdrawal event and two
// payout legs. A deposit: each asset reaches the pool (a jetton transfer or pay_native) and is
// credited to a deposit contract (credit_asset); the last credit makes the deposit contract send
// join_liquidity to the pool, which emits the deposit event (or refunds everything). The leg that
// completed the deposit is matched with join_liquidity; the other leg becomes a partial that
// postProcessDedustV2Liquidity folds into it by deposit contract.
import {
  DEDUST_LIQUIDITY_OPCODES as OP,
  DEDUST_V2_PAYMENT_OPCODES as PAYMENT,
  loadDedustV2CreditAsset,
  loadDedustV2DepositEvent,
  loadDedustV2DepositPayload,
  loadDedustV2JoinLiquidity,
  loadDedustV2PayJetton,
  loadDedustV2PayNative,
  loadDedustV2Payout,
  loadDedustV2Withdraw,
  loadDedustV2WithdrawalEvent,
  type DedustV2DepositPayload,
} from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { assetColumn, TON, type DexAsset } from "../liquidity/assets.js";
import { DexWithdrawLiquidityBlock, fillDexDepositLiquidity, mergeInto } from "../liquidity/blocks.js";
import { excessMatcher, parsePayoutLeg, payoutLegMatcher, type PayoutLeg } from "./payouts-v2.js";

export class DedustV2WithdrawBlockMatcher extends BlockMatcher {
  constructor() {
    const exitLiquidity = new ContractMatcher(OP.v2_exit_liquidity, {
      includeExcess: false,
      children: [labeled("event", new ContractMatcher(OP.v2_withdrawal_event, { optional: true, includeExcess: false })), payoutLegMatcher(), payoutLegMatcher()],
    });
    super({ includeExcess: false, child: new ContractMatcher(OP.v2_withdraw_liquidity, { includeExcess: false, child: exitLiquidity }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_withdraw;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const withdraw = loadDedustV2Withdraw(block.body());
    // fee payouts of auto_claim_fees come in the same pool transaction: legs can't be told apart
    if (withdraw.autoClaimFees) return [];
    const event = getLabeled("event", others, CallContractBlock);
    const success = event !== null;
    const legs: (PayoutLeg | null)[] = [];
    for (const payout of getMultipleLabeled("payout", others, Block).sort(byMinLt).slice(0, 2)) {
      const leg = parsePayoutLeg(payout);
      if (leg === null) return [];
      legs.push(leg);
    }
    while (legs.length < 2) legs.push(null);
    const built = new DexWithdrawLiquidityBlock({
      dex: "dedust_v2",
      sender: block.source,
      senderWallet: null,
      pool: block.destination,
      asset: null,
      lpTokensBurnt: success ? loadDedustV2WithdrawalEvent(event.body()).liquidity : withdraw.liquidity,
      isRefund: !success,
      out: [legs[0], legs[1]],
    });
    built.mergeBlocks([block, ...others]);
    built.failed = !success;
    return [built];
  }
}

export interface DedustV2DepositData {
  sender: string | null;
  pool: string | null;
  depositContract: string | null;
  amount1: bigint | null;
  asset1: DexAsset | null;
  senderWallet1: string | null;
  amount2: bigint | null;
  asset2: DexAsset | null;
  senderWallet2: string | null;
  targetAmount1?: bigint | null;
  targetAmount2?: bigint | null;
  lpTokensMinted: bigint | null;
  vaultExcesses?: { asset: DexAsset | null; amount: bigint }[];
}

/** The completed (or rejected) deposit. */
export class DedustV2DepositLiquidityBlock extends Block {
  constructor(public data: DedustV2DepositData) {
    super("dedust_v2_deposit_liquidity", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    row.source = d.sender;
    row.destination = d.pool;
    if (d.depositContract !== null) row.destination_secondary = d.depositContract;
    row.dex_deposit_liquidity_data = {
      dex: "dedust_v2",
      asset1: assetColumn(d.asset1),
      amount1: d.amount1,
      asset2: assetColumn(d.asset2),
      amount2: d.amount2,
      user_jetton_wallet_1: d.senderWallet1,
      user_jetton_wallet_2: d.senderWallet2,
      lp_tokens_minted: d.lpTokensMinted,
      target_asset_1: assetColumn(d.asset1),
      target_amount_1: d.targetAmount1 ?? null,
      target_asset_2: assetColumn(d.asset2),
      target_amount_2: d.targetAmount2 ?? null,
      vault_excesses: (d.vaultExcesses ?? []).map((e) => ({ asset: assetColumn(e.asset), amount: e.amount })),
    };
  }
}

/** One credited leg whose deposit did not complete in this trace. */
export class DedustV2DepositLiquidityPartialBlock extends Block {
  constructor(public data: DedustV2DepositData) {
    super("dedust_v2_deposit_liquidity_partial", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.type = "dex_deposit_liquidity";
    fillDexDepositLiquidity(row, { ...d, dex: "dedust_v2" });
    if (d.depositContract !== null) row.destination_secondary = d.depositContract;
  }
}

/** A deposit leg's carrier: the jetton transfer or pay_native that brought it to the pool. */
function carrierMatcher(): OrMatcher {
  return new OrMatcher([
    labeled("carrier", new BlockTypeMatcher("jetton_transfer")),
    labeled("carrier", new ContractMatcher(PAYMENT.dedust_v2_pay_native, { includeExcess: false })),
  ]);
}

function creditParent(): BlockMatcher {
  return labeled("credit", new ContractMatcher(OP.v2_credit_asset, { includeExcess: false, parent: carrierMatcher() }));
}

/** The desired amounts the user sent with the leg (null when the carrier holds no deposit payload). */
function depositPayload(carrier: Block): DedustV2DepositPayload | null {
  try {
    if (carrier instanceof JettonTransferBlock) {
      const cell = carrier.data.payload.cell;
      if (cell === null) return null;
      return loadDedustV2DepositPayload(loadDedustV2PayJetton(cell.beginParse()).paymentPayload.beginParse());
    }
    if (carrier instanceof CallContractBlock) return loadDedustV2DepositPayload(loadDedustV2PayNative(carrier.body()).paymentPayload.beginParse());
  } catch {
    return null;
  }
  return null;
}

interface DepositLeg {
  slot: 1 | 2;
  asset: DexAsset | null;
  userWallet: string | null;
  sender: string | null;
}

function depositLeg(carrier: Block, credit: CallContractBlock): DepositLeg {
  const slot = loadDedustV2CreditAsset(credit.body()).isX ? 1 : 2;
  if (carrier instanceof JettonTransferBlock) return { slot, asset: carrier.data.asset, userWallet: carrier.data.senderWallet, sender: carrier.data.sender };
  if (carrier instanceof CallContractBlock) return { slot, asset: TON, userWallet: null, sender: carrier.source };
  throw new Error("dedust v2 deposit: the carrier is neither a jetton transfer nor pay_native");
}

function withLeg(data: DedustV2DepositData, leg: DepositLeg): DedustV2DepositData {
  if (leg.slot === 1) return { ...data, asset1: leg.asset, senderWallet1: leg.userWallet };
  return { ...data, asset2: leg.asset, senderWallet2: leg.userWallet };
}

/** The refunds of unused input; every one must go to the initiator (null when one does not). */
function refundsTo(initiator: string, others: Block[]): { asset: DexAsset | null; amount: bigint }[] | null {
  const out: { asset: DexAsset | null; amount: bigint }[] = [];
  for (const rj of getMultipleLabeled("refund_jetton", others, Block).sort(byMinLt)) {
    if (!(rj instanceof JettonTransferBlock) || rj.data.receiver !== initiator) return null;
    out.push({ asset: rj.data.asset, amount: rj.data.amount });
  }
  const refundTon = getLabeled("refund_ton", others, CallContractBlock);
  if (refundTon !== null) {
    const payout = loadDedustV2Payout(refundTon.body());
    if (refundTon.destination !== initiator) return null;
    out.push({ asset: TON, amount: payout.amount });
  }
  return out;
}

const refundMatchers = () => [
  labeled("refund_jetton", new BlockTypeMatcher("jetton_transfer", { optional: true })),
  labeled("refund_jetton", new BlockTypeMatcher("jetton_transfer", { optional: true })),
  labeled("refund_ton", new ContractMatcher(PAYMENT.dedust_v2_payout, { optional: true, includeExcess: false })),
];

export class DedustV2DepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      includeExcess: false,
      parent: creditParent(),
      children: [
        labeled("event", new ContractMatcher(OP.v2_deposit_event, { optional: true, includeExcess: false })),
        labeled("credit_liquidity", new ContractMatcher(OP.v2_credit_liquidity, { optional: true })),
        ...refundMatchers(),
      ],
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_join_liquidity;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const join = loadDedustV2JoinLiquidity(block.body());
    const eventBlock = getLabeled("event", others, CallContractBlock);
    // no deposit event: the rejected-deposit matcher's case
    if (eventBlock === null) return [];
    const event = loadDedustV2DepositEvent(eventBlock.body());
    const carrier = getLabeled("carrier", others, Block);
    const credit = getLabeled("credit", others, CallContractBlock);
    if (carrier === null || credit === null) return [];
    const leg = depositLeg(carrier, credit);
    const payload = depositPayload(carrier);
    const initiator = rawAddress(join.initiator)!;
    const excesses = refundsTo(initiator, others);
    if (excesses === null) return [];
    const data = withLeg(
      {
        sender: initiator,
        pool: block.destination,
        depositContract: block.source,
        amount1: event.amountXIn,
        asset1: null,
        senderWallet1: null,
        amount2: event.amountYIn,
        asset2: null,
        senderWallet2: null,
        targetAmount1: payload?.amountX ?? null,
        targetAmount2: payload?.amountY ?? null,
        lpTokensMinted: event.liquidity,
        vaultExcesses: excesses,
      },
      leg,
    );
    const built = new DedustV2DepositLiquidityBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export class DedustV2RejectedDepositBlockMatcher extends BlockMatcher {
  constructor() {
    super({ includeExcess: false, parent: creditParent(), children: [...refundMatchers(), excessMatcher()] });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_join_liquidity;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    // a join with a deposit event succeeded: the completing matcher's case
    if (block.next.some((b) => b instanceof CallContractBlock && b.opcode === OP.v2_deposit_event)) return [];
    const join = loadDedustV2JoinLiquidity(block.body());
    const initiator = rawAddress(join.initiator)!;
    const excesses = refundsTo(initiator, others);
    if (excesses === null || excesses.length === 0) return [];
    const carrier = getLabeled("carrier", others, Block);
    const credit = getLabeled("credit", others, CallContractBlock);
    if (carrier === null || credit === null) return [];
    const leg = depositLeg(carrier, credit);
    const payload = depositPayload(carrier);
    const data = withLeg(
      {
        sender: initiator,
        pool: block.destination,
        depositContract: block.source,
        amount1: join.amountX,
        asset1: null,
        senderWallet1: null,
        amount2: join.amountY,
        asset2: null,
        senderWallet2: null,
        targetAmount1: payload?.amountX ?? null,
        targetAmount2: payload?.amountY ?? null,
        lpTokensMinted: null,
        vaultExcesses: excesses,
      },
      leg,
    );
    const built = new DedustV2DepositLiquidityBlock(data);
    built.mergeBlocks([block, ...others]);
    built.failed = true;
    return [built];
  }
}

export class DedustV2DepositPartialBlockMatcher extends BlockMatcher {
  constructor() {
    // the deposit contract's gas excess is a child: the top-level excess option would not merge it
    super({ includeExcess: false, parent: carrierMatcher(), child: excessMatcher() });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.v2_credit_asset;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const carrier = getLabeled("carrier", others, Block);
    if (carrier === null) return [];
    const credit = loadDedustV2CreditAsset(block.body());
    const leg = depositLeg(carrier, block);
    const base: DedustV2DepositData = {
      sender: leg.sender,
      pool: block.source,
      depositContract: block.destination,
      amount1: null,
      asset1: null,
      senderWallet1: null,
      amount2: null,
      asset2: null,
      senderWallet2: null,
      lpTokensMinted: null,
    };
    const data = withLeg(leg.slot === 1 ? { ...base, amount1: credit.amount } : { ...base, amount2: credit.amount }, leg);
    const built = new DedustV2DepositLiquidityPartialBlock(data);
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

/** Folds each partial leg into the completed deposit of the same deposit contract (toncenter's post_process_dedust_v2_liquidity). */
export function postProcessDedustV2Liquidity(blocks: Block[]): Block[] {
  const partials = blocks.filter((b): b is DedustV2DepositLiquidityPartialBlock => b instanceof DedustV2DepositLiquidityPartialBlock);
  if (partials.length === 0) return blocks;
  const finals = blocks.filter((b): b is DedustV2DepositLiquidityBlock => b instanceof DedustV2DepositLiquidityBlock);
  const uses = new Map<string | null, number>();
  for (const b of [...partials, ...finals]) uses.set(b.data.depositContract, (uses.get(b.data.depositContract) ?? 0) + 1);
  // more legs than a deposit has: leave them as they are
  for (const n of uses.values()) if (n > 2) return blocks;
  let out = blocks;
  for (const final of finals) {
    const partial = partials.find((p) => out.includes(p) && p.data.depositContract === final.data.depositContract);
    if (partial === undefined) continue;
    const d = { ...final.data };
    const p = partial.data;
    if (d.asset1 === null && p.asset1 !== null) {
      d.asset1 = p.asset1;
      d.senderWallet1 = p.senderWallet1;
      if (d.amount1 === null) d.amount1 = p.amount1;
    }
    if (d.asset2 === null && p.asset2 !== null) {
      d.asset2 = p.asset2;
      d.senderWallet2 = p.senderWallet2;
      if (d.amount2 === null) d.amount2 = p.amount2;
    }
    final.data = d;
    out = out.filter((b) => b !== partial);
    mergeInto(final, partial);
  }
  return out;
}
