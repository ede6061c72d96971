// DeDust swaps (toncenter's DedustSwapBlockMatcher): the asset reaches its vault (a jetton
// transfer whose forward payload is a swap, or a swap call to the native vault), the vault asks
// the first pool to swap (swap_external), a route's pools pass the output on (swap_peer), each
// pool logs its swap (the swap event), and the last pool pays out through the output's vault (a
// jetton transfer, or a TON payout). The swap events give the hops; a pool call without its
// event failed. The asset the user wanted is the other asset of the route's last pool.
import {
  DEDUST_OPCODES,
  DEDUST_PAYOUT_OPCODES,
  dedustRoutePools,
  loadDedustPayOutFromPool,
  loadDedustSwap,
  loadDedustSwapEvent,
  loadDedustSwapForwardPayload,
  type DedustSwapStep,
} from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, findCallContracts } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, childSequenceMatcher, ContractMatcher, OrMatcher, RecursiveMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { forwardPayloadOf, opcodeOf } from "../swaps/assets.js";
import { JettonSwapBlock, type PeerSwap } from "../swaps/jetton-swap.js";

const OP = { ...DEDUST_OPCODES, ...DEDUST_PAYOUT_OPCODES };

/** The assets a route goes through, from the input on: each pool's other asset (null is TON). */
function routeAssets(ctx: MatchContext, step: DedustSwapStep, input: string | null): (string | null)[] {
  let prev = input;
  const seq = [prev];
  for (const pool of dedustRoutePools(step)) {
    const facts = ctx.dedustPool(rawAddress(pool));
    if (facts === null) throw new Error("dedust: a pool of the route is not known");
    for (const a of facts.assets) {
      if (a.isTon && prev === null) continue;
      if (!a.isTon && a.address === prev) continue;
      prev = a.isTon ? null : a.address;
      seq.push(prev);
      break;
    }
  }
  return seq;
}

function payoutMatcher(): BlockMatcher {
  return new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.dedust_payout)]);
}

export class DedustSwapBlockMatcher extends BlockMatcher {
  constructor() {
    const event = () => new ContractMatcher(OP.dedust_swap_event, { optional: true });
    const poolSwap = new OrMatcher([new ContractMatcher(OP.dedust_swap_peer, { children: [event()] }), new ContractMatcher(OP.dedust_swap_external, { children: [event()] })]);
    const route = new RecursiveMatcher(poolSwap, new ContractMatcher(OP.dedust_pay_out_from_pool, { child: payoutMatcher() }));
    const payout = childSequenceMatcher([new ContractMatcher(OP.dedust_pay_out_from_pool), payoutMatcher()]);
    if (payout === null) throw new Error("dedust: empty payout matcher");
    super({
      children: [new OrMatcher([payout, route]), event()],
      parent: new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.dedust_swap)]),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.dedust_swap_external;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const include = [block, ...others];
    const peerSwaps: PeerSwap[] = findCallContracts(include, OP.dedust_swap_event)
      .sort(byMinLt)
      .map((b) => {
        const e = loadDedustSwapEvent(b.body());
        return { assetIn: rawAddress(e.assetIn.jetton), amountIn: e.amountIn, assetOut: rawAddress(e.assetOut.jetton), amountOut: e.amountOut };
      });

    let sender: string | null = null;
    let senderWallet: string | null = null;
    let dexInWallet: string | null = null;
    let dexInJettonWallet: string | null = null;
    let amountIn: bigint | null = null;
    let assetIn: string | null = null;
    let step: DedustSwapStep | null = null;
    const prev = block.previous;
    if (prev instanceof JettonTransferBlock && others.includes(prev)) {
      const payload = forwardPayloadOf(prev);
      if (payload === null || opcodeOf(payload) !== OP.dedust_swap_forward_payload) return [];
      dexInJettonWallet = prev.data.receiverWallet;
      dexInWallet = prev.data.receiver;
      senderWallet = prev.data.senderWallet;
      sender = prev.data.sender;
      assetIn = prev.data.asset;
      amountIn = prev.data.amount;
      step = loadDedustSwapForwardPayload(payload.beginParse()).step;
    } else {
      const request = findCallContracts(others, OP.dedust_swap)[0];
      if (request !== undefined) {
        const swap = loadDedustSwap(request.body());
        sender = request.source;
        dexInWallet = request.destination;
        amountIn = swap.amount;
        step = swap.step;
      }
    }

    const fromPool = findCallContracts(others, OP.dedust_pay_out_from_pool);
    if (fromPool.length !== 1) throw new Error("dedust: expected one payout from a pool");
    let receiver = sender;
    let receiverWallet: string | null = null;
    let dexOutWallet: string | null = null;
    let dexOutJettonWallet: string | null = null;
    let amountOut: bigint | null = loadDedustPayOutFromPool(fromPool[0].body()).amount;
    let assetOut: string | null = null;
    for (const p of fromPool[0].next) {
      if (!include.includes(p)) continue;
      if (p instanceof JettonTransferBlock) {
        receiverWallet = p.data.receiverWallet;
        receiver = p.data.receiver;
        dexOutWallet = p.data.sender;
        dexOutJettonWallet = p.data.senderWallet;
        assetOut = p.data.asset;
        amountOut = p.data.amount;
      } else if (p instanceof CallContractBlock && p.opcode === OP.dedust_payout) {
        dexOutWallet = p.source;
        receiver = p.destination;
        assetOut = null;
      }
    }

    if (step === null) throw new Error("dedust: no swap request");
    const wanted = routeAssets(ctx, step, assetIn);
    if (peerSwaps.length === 0) peerSwaps.push({ assetIn, amountIn, assetOut, amountOut });

    // every pool call must have logged its swap
    let failed = false;
    for (const b of include) {
      if (!(b instanceof CallContractBlock) || (b.opcode !== OP.dedust_swap_external && b.opcode !== OP.dedust_swap_peer)) continue;
      if (!b.next.some((n) => include.includes(n) && n instanceof CallContractBlock && n.opcode === OP.dedust_swap_event)) {
        failed = true;
        break;
      }
    }

    const first = peerSwaps[0];
    const last = peerSwaps[peerSwaps.length - 1];
    const built = new JettonSwapBlock({
      dex: "dedust",
      sender,
      incoming: { asset: first.assetIn, amount: first.amountIn, source: sender, sourceJettonWallet: senderWallet, destination: dexInWallet, destinationJettonWallet: dexInJettonWallet },
      outgoing: { asset: last.assetOut, amount: last.amountOut, source: dexOutWallet, sourceJettonWallet: dexOutJettonWallet, destination: receiver, destinationJettonWallet: receiverWallet },
      sourceAsset: assetIn,
      destinationAsset: wanted[wanted.length - 1],
      peerSwaps: peerSwaps.length > 1 ? peerSwaps : [],
      success: !failed,
    });
    built.mergeBlocks(include);
    return [built];
  }
}
