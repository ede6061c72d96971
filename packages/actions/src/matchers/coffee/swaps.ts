// swap.coffee swaps (toncenter's CoffeeSwapBlockMatcher): a jetton transfer (or a coffee_swap of
// TON) to a vault, then a swap_internal to each pool of the route, each pool logging
// swap_succeeded, and the last pool's payout_internal to the vault of the bought asset, which
// pays the user (a jetton transfer, a TON payout or a notification).
import { loadCoffeePayoutInternal, loadCoffeeSwap, loadCoffeeSwapSucceeded } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, findCallContracts, getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher, RecursiveMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { JettonSwapBlock, type PeerSwap, type SwapTransfer } from "../swaps/jetton-swap.js";
import { addressOf, assetOf, jettonSide, OP, vaultOutMatcher } from "./common.js";

export class CoffeeSwapBlockMatcher extends BlockMatcher {
  constructor() {
    const payout = labeled("payout", new ContractMatcher(OP.coffee_payout_internal, { child: vaultOutMatcher("out_transfer") }));
    // the pools after the first: a swap_internal and its log each, until one pays out
    const hops = new RecursiveMatcher(new ContractMatcher(OP.coffee_swap_internal, { child: new ContractMatcher(OP.coffee_swap_succeeded) }), payout, true);
    super({
      parent: labeled("in_transfer", new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.coffee_swap)])),
      children: [new ContractMatcher(OP.coffee_swap_succeeded), new OrMatcher([hops, payout])],
    });
  }

  /** The first pool's swap_internal anchors the swap. */
  override testSelf(block: Block): boolean {
    return isCall(block, OP.coffee_swap_internal);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const inTransfer = getLabeled("in_transfer", others, Block);
    const payout = getLabeled("payout", others, CallContractBlock);
    const outTransfer = getLabeled("out_transfer", others, Block);
    if (inTransfer === null || payout === null || outTransfer === null) return [];

    const hops = new Set(findCallContracts(others, OP.coffee_swap_internal));
    if (block instanceof CallContractBlock) hops.add(block);
    let ok = true;
    const peerSwaps: PeerSwap[] = [];
    for (const hop of [...hops].sort((a, b) => (a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0))) {
      const event = findCallContract(hop.next, OP.coffee_swap_succeeded);
      if (event === null) {
        // a pool that did not log a swap failed it, and with it the route
        ok = false;
        continue;
      }
      const e = loadCoffeeSwapSucceeded(event.body());
      peerSwaps.push({ assetIn: assetOf(e.input), amountIn: e.inputAmount, assetOut: null, amountOut: e.outputAmount });
    }
    if (peerSwaps.length === 0) return [];

    let incoming: SwapTransfer;
    if (inTransfer instanceof JettonTransferBlock) incoming = jettonSide(inTransfer);
    else if (isCall(inTransfer, OP.coffee_swap)) {
      const amount = loadCoffeeSwap(inTransfer.body()).amount;
      incoming = { asset: null, amount, source: inTransfer.source, sourceJettonWallet: null, destination: inTransfer.destination, destinationJettonWallet: null };
    } else return [];

    let outgoing: SwapTransfer;
    if (outTransfer instanceof JettonTransferBlock) outgoing = jettonSide(outTransfer);
    else if (isCall(outTransfer, OP.coffee_payout)) {
      // the TON paid is what the pool ordered, not the payout message's value (it carries the gas left)
      const p = loadCoffeePayoutInternal(payout.body());
      outgoing = { asset: null, amount: p.amount, source: payout.source, sourceJettonWallet: null, destination: addressOf(p.recipient), destinationJettonWallet: null };
    } else if (isCall(outTransfer, OP.coffee_notification)) {
      outgoing = { asset: null, amount: outTransfer.value, source: outTransfer.source, sourceJettonWallet: null, destination: outTransfer.destination, destinationJettonWallet: null };
    } else return [];

    // each hop sold what the next one bought; the last one what the vault paid out
    for (let i = 0; i + 1 < peerSwaps.length; i++) peerSwaps[i].assetOut = peerSwaps[i + 1].assetIn;
    peerSwaps[peerSwaps.length - 1].assetOut = outgoing.asset;

    const built = new JettonSwapBlock({
      dex: "coffee",
      sender: incoming.source,
      incoming,
      outgoing,
      sourceAsset: incoming.asset,
      destinationAsset: outgoing.asset,
      peerSwaps: peerSwaps.length > 1 ? peerSwaps : [],
      success: ok,
    });
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
