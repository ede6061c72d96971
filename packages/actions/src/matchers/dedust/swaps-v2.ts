// DeDust CPMM v2 swaps (toncenter's DedustV2SwapBlockMatcher and DedustV2FailedSwapBlockMatcher).
// A carrier brings the input to the pool: pay_native (TON) or a jetton transfer whose forward
// payload is pay_jetton; either carries the swap. A pool that swapped logs a swap event and passes
// the output on: to the next pool of a route (another carrier) or to the user (a jetton transfer,
// or a TON payout). A pool that refused (slippage, deadline) logs nothing and refunds the input.
import {
  DEDUST_V2_OPCODES,
  DEDUST_V2_PAYMENT_OPCODES,
  dedustV2FinalMinOut,
  dedustV2PaymentOpcode,
  loadDedustV2PayJetton,
  loadDedustV2PayNative,
  loadDedustV2Payout,
  loadDedustV2SwapEvent,
  loadDedustV2SwapPayload,
  type DedustV2SwapPayload,
} from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, findCallContracts, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { forwardPayloadOf, opcodeOf } from "../swaps/assets.js";
import { JettonSwapBlock, type PeerSwap, type SwapTransfer } from "../swaps/jetton-swap.js";
import { excessMatcher } from "./payouts-v2.js";

const OP = { ...DEDUST_V2_OPCODES, ...DEDUST_V2_PAYMENT_OPCODES };

function hasSwapEvent(block: Block): boolean {
  return block.next.some((b) => b instanceof CallContractBlock && b.opcode === OP.dedust_v2_swap_event);
}

/** A jetton transfer into a pool that swapped. */
function isJettonCarrierThatSwapped(block: Block): boolean {
  return block instanceof JettonTransferBlock && hasSwapEvent(block);
}

/** The swap a jetton transfer carries (pay_jetton → swap), or null. */
function jettonSwapPayload(block: Block): DedustV2SwapPayload | null {
  if (!(block instanceof JettonTransferBlock)) return null;
  const payload = forwardPayloadOf(block);
  if (opcodeOf(payload) !== OP.dedust_v2_pay_jetton || payload === null) return null;
  try {
    const carrier = loadDedustV2PayJetton(payload.beginParse());
    if (dedustV2PaymentOpcode(carrier) !== OP.dedust_v2_swap) return null;
    return loadDedustV2SwapPayload(carrier.paymentPayload.beginParse());
  } catch {
    return null;
  }
}

/** The swap a pay_native carries, with its amount, or null (pay_native also carries deposits and reward funding). */
function nativeSwapPayload(block: Block): { amount: bigint; payload: DedustV2SwapPayload } | null {
  if (!(block instanceof CallContractBlock) || block.opcode !== OP.dedust_v2_pay_native) return null;
  try {
    const carrier = loadDedustV2PayNative(block.body());
    if (dedustV2PaymentOpcode(carrier) !== OP.dedust_v2_swap) return null;
    return { amount: carrier.amount, payload: loadDedustV2SwapPayload(carrier.paymentPayload.beginParse()) };
  } catch {
    return null;
  }
}

function swapPayload(block: Block): DedustV2SwapPayload | null {
  return block instanceof JettonTransferBlock ? jettonSwapPayload(block) : (nativeSwapPayload(block)?.payload ?? null);
}

function finalMinOut(block: Block): bigint | null {
  const p = swapPayload(block);
  if (p === null) return null;
  try {
    return dedustV2FinalMinOut(p);
  } catch {
    return null;
  }
}

const carrierAsset = (b: Block): string | null => (b instanceof JettonTransferBlock ? b.data.asset : null);

/** A transfer side from a jetton transfer, or from a TON message (no jetton wallets). */
function side(b: Block, asset: string | null, amount: bigint | null): SwapTransfer {
  if (b instanceof JettonTransferBlock) {
    return { asset, amount, source: b.data.sender, sourceJettonWallet: b.data.senderWallet, destination: b.data.receiver, destinationJettonWallet: b.data.receiverWallet };
  }
  const m = b.firstMessage();
  return { asset, amount, source: m.source, sourceJettonWallet: null, destination: m.destination, destinationJettonWallet: null };
}

export class DedustV2SwapBlockMatcher extends BlockMatcher {
  constructor() {
    const swapEvent = new ContractMatcher(OP.dedust_v2_swap_event, { includeExcess: false });
    const outLeg = labeled("out", new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.dedust_v2_payout, { includeExcess: false })]));
    const nativeHop = labeled("hop", new ContractMatcher(OP.dedust_v2_pay_native, { includeExcess: false }));
    const jettonHop = labeled("hop", new GenericMatcher(isJettonCarrierThatSwapped, { includeExcess: false }));
    const hopChildren = [swapEvent, new OrMatcher([nativeHop, jettonHop, outLeg]), excessMatcher()];
    nativeHop.children = hopChildren;
    jettonHop.children = hopChildren;
    super({ includeExcess: false, children: hopChildren });
  }

  override testSelf(block: Block): boolean {
    return (block instanceof CallContractBlock && block.opcode === OP.dedust_v2_pay_native) || isJettonCarrierThatSwapped(block);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (block instanceof CallContractBlock && nativeSwapPayload(block) === null) return [];
    const swapBlocks = findCallContracts([block, ...others], OP.dedust_v2_swap_event).sort(byMinLt);
    if (swapBlocks.length === 0) return [];
    const events = swapBlocks.map((b) => loadDedustV2SwapEvent(b.body()));
    const out = getLabeled("out", others, JettonTransferBlock) ?? getLabeled("out", others, CallContractBlock);
    // an out leg still carrying a swap is a route that stopped half-way
    if (out === null || jettonSwapPayload(out) !== null) return [];

    const carriers = [block, ...getMultipleLabeled("hop", others, Block)].sort(byMinLt);
    // on a linear route, carrier i brought the input of swap i
    const outAsset = out instanceof JettonTransferBlock ? out.data.asset : null;
    const assets = [...carriers.map(carrierAsset), outAsset];
    const peerSwaps: PeerSwap[] = [];
    if (assets.length === events.length + 1) {
      events.forEach((e, i) => peerSwaps.push({ assetIn: assets[i], amountIn: e.amountIn, assetOut: assets[i + 1], amountOut: e.amountOut }));
    }

    const sourceAsset = assets[0];
    const incoming = side(block, sourceAsset, events[0].amountIn);
    const outgoing = side(out, outAsset, events[events.length - 1].amountOut);
    const success = swapBlocks.every((b) => !b.node.tx.aborted && (b.node.tx.computeExitCode === null || b.node.tx.computeExitCode === 0));

    const built = new JettonSwapBlock({
      dex: "dedust_v2",
      sender: incoming.source,
      incoming,
      outgoing,
      sourceAsset,
      destinationAsset: outAsset,
      minOutAmount: finalMinOut(block),
      peerSwaps: events.length > 1 ? peerSwaps : [],
      success,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

/** The pool's other asset than `source` (null is TON), undefined when the pool is not known. */
function otherPoolAsset(ctx: MatchContext, pool: string | null, source: string | null): string | null | undefined {
  const facts = ctx.dedustPool(pool);
  if (facts === null) return undefined;
  for (const a of facts.assets) {
    const asset = a.isTon ? null : a.address;
    if (asset !== source) return asset;
  }
  return undefined;
}

export class DedustV2FailedSwapBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      includeExcess: false,
      children: [labeled("refund", new OrMatcher([new ContractMatcher(OP.dedust_v2_payout, { includeExcess: false }), new BlockTypeMatcher("jetton_transfer")])), excessMatcher()],
    });
  }

  override testSelf(block: Block): boolean {
    if (block instanceof CallContractBlock) return block.opcode === OP.dedust_v2_pay_native;
    // a jetton transfer that carries pay_jetton (build checks it carries a swap)
    return block instanceof JettonTransferBlock && opcodeOf(forwardPayloadOf(block)) === OP.dedust_v2_pay_jetton;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (hasSwapEvent(block)) return [];
    const refund = getLabeled("refund", others, JettonTransferBlock) ?? getLabeled("refund", others, CallContractBlock);
    if (refund === null) return [];
    const parsed = block instanceof JettonTransferBlock ? this.jettonIn(block, refund) : this.nativeIn(block, refund);
    if (parsed === null) return [];
    const outAsset = otherPoolAsset(ctx, parsed.incoming.destination, parsed.incoming.asset) ?? null;
    const built = new JettonSwapBlock({
      dex: "dedust_v2",
      sender: parsed.incoming.source,
      incoming: parsed.incoming,
      outgoing: { asset: outAsset, amount: 0n, source: parsed.incoming.destination, sourceJettonWallet: null, destination: parsed.incoming.source, destinationJettonWallet: null },
      sourceAsset: parsed.incoming.asset,
      destinationAsset: outAsset,
      minOutAmount: parsed.minOut,
      peerSwaps: [],
      success: false,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }

  private nativeIn(block: Block, refund: Block): { incoming: SwapTransfer; minOut: bigint | null } | null {
    const swap = nativeSwapPayload(block);
    if (swap === null || !(refund instanceof CallContractBlock) || refund.opcode !== OP.dedust_v2_payout) return null;
    // exit code 0 is a payout, not a refund
    if (loadDedustV2Payout(refund.body()).exitCode === 0) return null;
    const m = block.firstMessage();
    // a refund goes back to whoever sent the carrier (a pool of a failed route refunds the route's initiator instead)
    if (refund.destination !== m.source) return null;
    let minOut: bigint | null;
    try {
      minOut = dedustV2FinalMinOut(swap.payload);
    } catch {
      minOut = null;
    }
    return { incoming: { asset: null, amount: swap.amount, source: m.source, sourceJettonWallet: null, destination: m.destination, destinationJettonWallet: null }, minOut };
  }

  private jettonIn(block: JettonTransferBlock, refund: Block): { incoming: SwapTransfer; minOut: bigint | null } | null {
    const payload = jettonSwapPayload(block);
    if (payload === null || !(refund instanceof JettonTransferBlock)) return null;
    if (refund.data.asset !== block.data.asset || refund.data.receiver !== block.data.sender) return null;
    return { incoming: side(block, block.data.asset, block.data.amount), minOut: dedustV2FinalMinOut(payload) };
  }
}
