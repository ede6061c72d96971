// STON.fi v2 swaps (toncenter's StonfiV2SwapBlockMatcher): a jetton transfer to the router (or TON
// through the router's pTON wallet: pton_ton_transfer, then its notification), the router's swap
// call to the pool, the pool's pay_to back, and the router's transfer out. A route through several
// pools continues from a pay_to into the next swap: straight on the same router, or through a
// transfer to the next router (a pTON one when the hop's output is TON). The hops become
// peer_swaps; a pay_to whose exit code is not swap_ok marks the swap failed (a refund).
import {
  JETTON_OPCODES,
  loadJettonNotify,
  loadPtonTonTransfer,
  loadStonfiPayToV2,
  loadStonfiSwapV2,
  loadStonfiSwapV2ForwardPayload,
  PTON_OPCODES,
  STONFI_OPCODES,
  stonfiV2RouteWallets,
  type StonfiPayToV2,
} from "@tongate/contracts";
import type { Cell } from "@ton/core";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { forwardPayloadOf, opcodeOf, ptonTonTransferOf, swapAsset, transferSide, walletAsset } from "../swaps/assets.js";
import { JettonSwapBlock, type PeerSwap, type SwapTransfer } from "../swaps/jetton-swap.js";

const OP = { ...STONFI_OPCODES, ...PTON_OPCODES };

/** pTON's ton_transfer into a router whose forward payload asks for a swap: a route's next hop through pTON. */
function isPtonHopIntoSwap(block: Block): boolean {
  if (!(block instanceof CallContractBlock) || block.opcode !== OP.pton_ton_transfer) return false;
  const prev = block.previous;
  if (!(prev instanceof JettonTransferBlock) || prev.data.hasInternalTransfer) return false;
  if (prev.data.receiver !== block.destination) return false;
  try {
    const payload = loadPtonTonTransfer(block.body()).forwardPayload;
    return payload !== null && opcodeOf(payload.cell) === OP.stonfi_swap_v2;
  } catch {
    return false;
  }
}

function buildMatcherTree(): { payout: BlockMatcher; inTransfer: BlockMatcher } {
  const payout = labeled("payout", new ContractMatcher(OP.stonfi_pay_to_v2));
  const peerSwap = labeled("peer_swap", new ContractMatcher(OP.stonfi_swap_v2, { child: payout, optional: true }));
  const ptonHop = new GenericMatcher(isPtonHopIntoSwap, { child: new ContractMatcher(JETTON_OPCODES.jetton_notify, { child: peerSwap }), optional: true });
  const transferToPton = new GenericMatcher((b) => b instanceof JettonTransferBlock && !b.data.hasInternalTransfer, { child: ptonHop });
  payout.child = new OrMatcher([
    labeled("out_transfer", transferToPton),
    labeled("out_transfer", new BlockTypeMatcher("jetton_transfer", { child: peerSwap, optional: true })),
    peerSwap,
  ]);
  const inPton = new ContractMatcher(JETTON_OPCODES.jetton_notify, { parent: labeled("in_transfer", new ContractMatcher(OP.pton_ton_transfer)) });
  const inTransfer = new OrMatcher([labeled("in_transfer", new BlockTypeMatcher("jetton_transfer")), inPton]);
  return { payout, inTransfer };
}

/** What a pay_to pays: the larger of its two amounts and the router wallet it leaves from. */
function largerOut(p: StonfiPayToV2): { amount: bigint; wallet: string | null } {
  const a = { amount: p.amount0Out, wallet: rawAddress(p.token0Address) };
  const b = { amount: p.amount1Out, wallet: rawAddress(p.token1Address) };
  return b.amount > a.amount ? b : a;
}

/** The asset a v2 swap request (a notification's or transfer's forward payload) asks for, from the router wallet it names. */
function requestedAsset(ctx: MatchContext, payload: Cell | null): string | null | undefined {
  if (payload === null || opcodeOf(payload) !== OP.stonfi_swap_v2) return undefined;
  try {
    return walletAsset(ctx, rawAddress(loadStonfiSwapV2ForwardPayload(payload.beginParse()).tokenWallet1));
  } catch {
    return undefined;
  }
}

export class StonfiV2SwapBlockMatcher extends BlockMatcher {
  constructor() {
    const { payout, inTransfer } = buildMatcherTree();
    super({ parent: inTransfer, child: payout });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.stonfi_swap_v2;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const swaps = [block, ...getMultipleLabeled("peer_swap", others, CallContractBlock)].sort(byMinLt);
    const payouts = getMultipleLabeled("payout", others, CallContractBlock).sort(byMinLt);
    if (swaps.length !== payouts.length) throw new Error("stonfi v2: a swap without its pay_to");
    const outTransfers = getMultipleLabeled("out_transfer", others, JettonTransferBlock).sort(byMinLt);
    const inTransfer = getLabeled("in_transfer", others, JettonTransferBlock) ?? getLabeled("in_transfer", others, CallContractBlock);
    if (inTransfer === null) throw new Error("stonfi v2: no transfer in");
    const outTransfer = outTransfers[outTransfers.length - 1];
    if (outTransfer === undefined) throw new Error("stonfi v2: no transfer out");

    let ok = true;
    const steps = swaps.map((s, i) => {
      const payTo = loadStonfiPayToV2(payouts[i].body());
      if (payTo.exitCode !== OP.swap_ok) ok = false;
      return { swap: loadStonfiSwapV2(s.body()), payTo };
    });

    // the asset the route ends in: what the router wallet of its last hop holds
    const route = stonfiV2RouteWallets(steps[0].swap.payload);
    const routeTarget = walletAsset(ctx, rawAddress(route[route.length - 1]));

    // the asset each hop's output wallet holds
    const hopAsset = new Map<string, string | null>();
    for (const s of steps) {
      const wallet = rawAddress(s.swap.payload.tokenWallet1);
      const asset = walletAsset(ctx, wallet);
      if (wallet === null || asset === undefined) {
        block.broken = true;
        break;
      }
      hopAsset.set(wallet, asset);
    }

    let sender: string | null;
    let incoming: SwapTransfer;
    if (inTransfer instanceof JettonTransferBlock) {
      sender = inTransfer.data.sender;
      incoming = transferSide(inTransfer, swapAsset(inTransfer.data.asset));
    } else {
      const m = inTransfer.firstMessage();
      const amount = inTransfer.opcode === OP.pton_ton_transfer ? loadPtonTonTransfer(inTransfer.body()).tonAmount : m.value;
      sender = m.source;
      incoming = { asset: null, amount, source: m.source, sourceJettonWallet: null, destination: block.source, destinationJettonWallet: m.destination };
    }

    const peerSwaps: PeerSwap[] = [];
    if (steps.length > 1) {
      const first = largerOut(steps[0].payTo);
      const assetOf = (wallet: string | null) => {
        const a = wallet === null ? undefined : hopAsset.get(wallet);
        if (a === undefined) throw new Error("stonfi v2: a hop's output wallet is not known");
        return a;
      };
      peerSwaps.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: assetOf(first.wallet), amountOut: first.amount });
      if (steps[0].payTo.exitCode === OP.swap_ok) {
        for (const s of steps.slice(1)) {
          if (s.payTo.exitCode !== OP.swap_ok) continue;
          const out = largerOut(s.payTo);
          const prev = peerSwaps[peerSwaps.length - 1];
          peerSwaps.push({ assetIn: prev.assetOut, amountIn: prev.amountOut, assetOut: assetOf(out.wallet), amountOut: out.amount });
        }
      }
    }

    const extra: Block[] = [];
    let outgoing: SwapTransfer;
    const ptonOut = ptonTonTransferOf(outTransfer);
    if (ptonOut === null && outTransfer.data.hasInternalTransfer) {
      outgoing = transferSide(outTransfer, swapAsset(outTransfer.data.asset));
    } else {
      if (ptonOut === null) throw new Error("stonfi v2: a pTON transfer out with no ton_transfer");
      extra.push(ptonOut);
      outgoing = {
        asset: null,
        amount: loadPtonTonTransfer(ptonOut.body()).tonAmount,
        source: outTransfer.data.sender,
        sourceJettonWallet: outTransfer.data.senderWallet,
        destination: ptonOut.destination,
        destinationJettonWallet: null,
      };
    }

    let destinationAsset = outgoing.asset;
    if (!ok) {
      // a refund pays the input back: the asset asked for is the route's target
      if (routeTarget !== undefined && routeTarget !== null) destinationAsset = routeTarget;
      else {
        const prev = block.previous;
        const payload = prev instanceof JettonTransferBlock ? forwardPayloadOf(prev) : prev instanceof CallContractBlock && prev.opcode === JETTON_OPCODES.jetton_notify ? (loadJettonNotify(prev.body()).forwardPayload?.cell ?? null) : null;
        const asked = requestedAsset(ctx, payload);
        if (asked !== undefined) destinationAsset = asked;
      }
    }

    const built = new JettonSwapBlock({
      dex: "stonfi_v2",
      sender,
      incoming,
      outgoing,
      sourceAsset: incoming.asset,
      destinationAsset,
      peerSwaps: peerSwaps.length > 1 ? peerSwaps : [],
      success: ok,
    });
    built.mergeBlocks([block, ...others, ...extra]);
    return [built];
  }
}
