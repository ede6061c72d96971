// STON.fi v2 liquidity (toncenter's StonfiV2ProvideLiquidityMatcher and
// StonfiV2WithdrawLiquidityMatcher). A provision: each asset reaches the router (a jetton transfer,
// or pTON's ton_transfer), the router sends provide_lp to the pool, the pool add_liquidity to the
// user's LP account; the account's cb_add_liquidity makes the pool mint LP jettons (or refund).
// Each asset is one action; when both sides hang below one message, the second absorbs the first.
// A withdrawal: the LP burn's notification (or a refunded provision) makes the pool send pay_to to
// the router for each asset, and the router transfers them out.
import {
  JETTON_OPCODES,
  loadJettonInternalTransfer,
  loadPtonTonTransfer,
  loadStonfiProvideLpV2,
  PTON_OPCODES,
  STONFI_OPCODES,
  STONFI_V2_LIQUIDITY_OPCODES as OP,
} from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import { Block, EmptyBlock } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, LabelBlock, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonBurnBlock } from "../jettons/burn.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { TON, type DexAsset } from "../liquidity/assets.js";
import { ptonTonTransferOf } from "../swaps/assets.js";
import { DexDepositLiquidityBlock, DexWithdrawLiquidityBlock, type WithdrawLeg } from "../liquidity/blocks.js";

const PTON_TON_TRANSFER = PTON_OPCODES.pton_ton_transfer;
const PAY_TO = STONFI_OPCODES.stonfi_pay_to_v2;

function labelsOf(others: readonly Block[]): Map<string, Block> {
  const out = new Map<string, Block>();
  for (const b of others) if (b instanceof LabelBlock) out.set(b.label, b.block);
  return out;
}

export class StonfiV2ProvideLiquidityMatcher extends BlockMatcher {
  constructor() {
    // a provision of the other asset hanging below the same message
    const anotherDeposit = labeled("deposit_part", new GenericMatcher((b) => b instanceof DexDepositLiquidityBlock && b.data.dex === "stonfi_v2"));
    const anotherDepositParent = () => new BlockMatcher({ child: anotherDeposit, optional: true });
    const inPton = new ContractMatcher(JETTON_OPCODES.jetton_notify, { parent: labeled("in_transfer", new ContractMatcher(PTON_TON_TRANSFER, { parent: anotherDepositParent() })) });
    const inJetton = () => labeled("in_transfer", new BlockTypeMatcher("jetton_transfer", { parent: anotherDepositParent() }));
    const inJettonNotify = new ContractMatcher(JETTON_OPCODES.jetton_notify, { parent: new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer, { parent: inJetton() }) });
    const cbAddLiquidity = new ContractMatcher(OP.cb_add_liquidity, {
      optional: true,
      child: new OrMatcher([labeled("lp_token_transfer", new ContractMatcher(JETTON_OPCODES.jetton_internal_transfer)), labeled("refund_add_liquidity", new ContractMatcher(OP.add_liquidity))]),
    });
    super({ parent: new OrMatcher([inPton, inJetton(), inJettonNotify]), child: new ContractMatcher(OP.add_liquidity, { child: cbAddLiquidity }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.provide_lp;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const labels = labelsOf(others);
    const failed = labels.has("refund_add_liquidity");
    const inTransfer = labels.get("in_transfer") ?? null;
    const lpTransfer = labels.get("lp_token_transfer");
    const anotherDeposit = labels.get("deposit_part");
    const lpTokensMinted = lpTransfer === undefined ? null : loadJettonInternalTransfer(lpTransfer.body()).amount;
    const provide = loadStonfiProvideLpV2(block.body());
    const asset: DexAsset | null = inTransfer instanceof JettonTransferBlock ? inTransfer.data.asset : TON;
    const data = {
      dex: "stonfi_v2",
      sender: rawAddress(provide.fromUser),
      pool: block.destination,
      amount1: provide.leftAmount > 0n ? provide.leftAmount : provide.rightAmount,
      asset1: asset,
      senderWallet1: inTransfer instanceof JettonTransferBlock ? inTransfer.data.senderWallet : null,
      amount2: null as bigint | null,
      asset2: null as DexAsset | null,
      senderWallet2: null as string | null,
      lpTokensMinted,
    };
    const toMerge = [block, ...others];
    if (anotherDeposit instanceof DexDepositLiquidityBlock && inTransfer !== null) {
      const o = anotherDeposit.data;
      if (o.sender === data.sender && o.pool === data.pool && o.lpTokensMinted !== data.lpTokensMinted) {
        // take the other side in, but not the message both hang below: an empty block stands between
        const proxy = new EmptyBlock();
        const proxied = anotherDeposit.previous;
        if (proxied !== null) {
          proxied.insertBetween([anotherDeposit, inTransfer], proxy);
          toMerge.push(proxy);
          const i = toMerge.indexOf(proxied);
          if (i >= 0) toMerge.splice(i, 1);
        }
        data.amount2 = o.amount1;
        data.asset2 = o.asset1;
        data.senderWallet2 = o.senderWallet1;
        if (lpTokensMinted === null) data.lpTokensMinted = o.lpTokensMinted;
      }
    }
    const built = new DexDepositLiquidityBlock(data);
    built.mergeBlocks(toMerge);
    built.failed = failed;
    return [built];
  }
}

export class StonfiV2WithdrawLiquidityMatcher extends BlockMatcher {
  constructor() {
    const refunded = labeled("withdraw_refunded_liquidity", new ContractMatcher(OP.cb_refund_me, { parent: new ContractMatcher(OP.refund_me) }));
    const withdraw = labeled("withdraw_liquidity", new ContractMatcher(OP.burn_notification_ext, { parent: new BlockTypeMatcher("jetton_burn") }));
    super({ parent: new OrMatcher([refunded, withdraw]), child: new BlockTypeMatcher("jetton_transfer") });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === PAY_TO;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    // the pool's other pay_to (the second asset) is a sibling of this one
    const payouts: Block[] = [block];
    const extra: Block[] = [];
    for (const b of block.previous?.next ?? []) {
      if (b === block || others.includes(b)) continue;
      if (b instanceof CallContractBlock && b.opcode === PAY_TO) {
        const transfers = b.next.filter((x) => x instanceof JettonTransferBlock);
        if (transfers.length > 0) {
          payouts.push(b);
          extra.push(...transfers);
        }
      }
    }
    const legs: WithdrawLeg[] = [];
    for (const payout of payouts) {
      const transfer = payout.next.find((x): x is JettonTransferBlock => x instanceof JettonTransferBlock);
      if (transfer === undefined) continue;
      const pton = ptonTonTransferOf(transfer);
      let amount: bigint;
      let asset: DexAsset | null;
      if (pton !== null) {
        amount = loadPtonTonTransfer(pton.body()).tonAmount;
        asset = TON;
        extra.push(pton);
      } else {
        amount = transfer.data.amount;
        asset = transfer.data.asset;
      }
      if (legs.length < 2) legs.push({ amount, asset, userWallet: transfer.data.receiverWallet, dexWallet: transfer.data.sender, dexJettonWallet: transfer.data.senderWallet });
      else legs[1] = { amount, asset, userWallet: transfer.data.receiverWallet, dexWallet: transfer.data.sender, dexJettonWallet: transfer.data.senderWallet };
    }
    let sender: string | null = null;
    let senderWallet: string | null = null;
    let lpAsset: string | null = null;
    let burnt: bigint | null = null;
    let isRefund = false;
    const labels = labelsOf(others);
    const refunded = labels.get("withdraw_refunded_liquidity");
    if (refunded !== undefined) {
      isRefund = true;
      sender = refunded.previous?.node.source ?? null;
    }
    const withdrawn = labels.get("withdraw_liquidity");
    if (withdrawn !== undefined) {
      const burn = withdrawn.previous;
      if (!(burn instanceof JettonBurnBlock)) return [];
      sender = burn.data.owner;
      senderWallet = burn.data.jettonWallet;
      burnt = burn.data.amount;
      lpAsset = burn.data.asset;
    }
    const built = new DexWithdrawLiquidityBlock({
      dex: "stonfi_v2",
      sender,
      senderWallet,
      pool: block.source,
      asset: lpAsset,
      lpTokensBurnt: burnt,
      isRefund,
      out: [legs[0] ?? null, legs[1] ?? null],
    });
    built.mergeBlocks([...payouts, ...others, ...extra]);
    return [built];
  }
}
