// TONCO swaps (toncenter's ToncoSwapBlockMatcher): a jetton transfer to the router (or TON through
// the router's wTTON wallet: pton_ton_transfer, then its notification), the router's swap call to
// the pool, the pool's pay_to back, and the router's transfer out (a wTTON transfer pays TON out).
// A route's next hop starts from the router itself: it transfers the hop's output to its own
// wallet, which notifies it, and it calls the next pool. A pay_to whose exit code is neither 0 nor
// 200 marks the swap failed; the asset asked for is then the last hop's target in the request.
import {
  JETTON_OPCODES,
  loadPtonTonTransfer,
  loadToncoPoolSwap,
  loadToncoRouterPayTo,
  loadToncoSwapRequest,
  PTON_OPCODES,
  TONCO_OPCODES,
  TONCO_PAY_TO_OPCODES,
  toncoPayToCoins,
  toncoRouteTargets,
  type ToncoRouterPayTo,
} from "@tongate/contracts";
import type { Cell } from "@ton/core";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { byMinLt, getLabeled, getMultipleLabeled } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { forwardPayloadOf, opcodeOf, ptonTonTransferOf, swapAsset, transferSide, walletAsset } from "../swaps/assets.js";
import { JettonSwapBlock, type PeerSwap, type SwapTransfer } from "../swaps/jetton-swap.js";

const OP = { ...TONCO_OPCODES, ...TONCO_PAY_TO_OPCODES };
const PTON_TRANSFER = PTON_OPCODES.pton_ton_transfer;

function buildMatcherTree(): { payout: BlockMatcher; inTransfer: BlockMatcher } {
  const peerSwap = labeled("peer_swap", new ContractMatcher(OP.tonco_pool_swap));
  const hopTrigger = labeled("intermediate_hop_trigger", new ContractMatcher(JETTON_OPCODES.jetton_notify, { child: peerSwap }));
  // a hop's output sent back to the router: through wTTON (transfer, ton_transfer, notification) or as a jetton
  const ptonToNextHop = new BlockTypeMatcher("jetton_transfer", { child: new ContractMatcher(PTON_TRANSFER, { child: hopTrigger }) });
  const jettonToNextHop = new BlockTypeMatcher("jetton_transfer", { child: peerSwap });
  const finalPton = new ContractMatcher(JETTON_OPCODES.jetton_transfer, { optional: true, child: new ContractMatcher(PTON_TRANSFER) });
  const finalJetton = new BlockTypeMatcher("jetton_transfer", { optional: true });
  const payout = labeled(
    "payout",
    new ContractMatcher(OP.tonco_router_pay_to, {
      // the hops first: a final transfer would also match them
      child: new OrMatcher([
        labeled("intermediate_transfer", ptonToNextHop),
        labeled("intermediate_transfer", jettonToNextHop),
        labeled("out_transfer", finalPton),
        labeled("out_transfer", finalJetton),
      ]),
    }),
  );
  peerSwap.child = payout;
  const inPton = new ContractMatcher(JETTON_OPCODES.jetton_notify, { parent: labeled("in_transfer", new ContractMatcher(PTON_TRANSFER)) });
  const inTransfer = new OrMatcher([labeled("in_transfer", new BlockTypeMatcher("jetton_transfer")), inPton]);
  return { payout, inTransfer };
}

/** What a pay_to pays: its larger amount and the router wallet it leaves from, null without coins info. */
function largerOut(p: ToncoRouterPayTo): { amount: bigint; wallet: string | null } | null {
  const c = toncoPayToCoins(p);
  if (c === null) return null;
  const a = { amount: c.amount0, wallet: rawAddress(c.jetton0Address) };
  const b = { amount: c.amount1, wallet: rawAddress(c.jetton1Address) };
  return b.amount > a.amount ? b : a;
}

const swapOk = (p: ToncoRouterPayTo) => p.exitCode === 0 || p.exitCode === OP.pay_to_swap_ok;

export class ToncoSwapBlockMatcher extends BlockMatcher {
  constructor() {
    const { payout, inTransfer } = buildMatcherTree();
    super({ parent: inTransfer, child: payout });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === OP.tonco_pool_swap;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof CallContractBlock)) return [];
    const swaps = [block, ...getMultipleLabeled("peer_swap", others, CallContractBlock)].sort(byMinLt);
    const payouts = getMultipleLabeled("payout", others, CallContractBlock).sort(byMinLt);
    const inTransfer = getLabeled("in_transfer", others, JettonTransferBlock) ?? getLabeled("in_transfer", others, CallContractBlock);
    if (inTransfer === null || swaps.length !== payouts.length) return [];

    let ok = true;
    // the asset each router wallet holds, as far as the swap shows it (null is TON)
    const walletAssets = new Map<string, string | null>();
    const steps = swaps.map((s, i) => {
      const swap = loadToncoPoolSwap(s.body());
      const payTo = loadToncoRouterPayTo(payouts[i].body());
      if (!swapOk(payTo)) ok = false;
      const source = rawAddress(swap.sourceWallet);
      if (source !== null && !walletAssets.has(source)) {
        const asset = walletAsset(ctx, source);
        if (asset !== undefined) walletAssets.set(source, asset);
      }
      return { swap, payTo };
    });

    let sender: string | null;
    let incoming: SwapTransfer;
    let requestPayload: Cell | null = null;
    if (inTransfer instanceof JettonTransferBlock) {
      sender = inTransfer.data.sender;
      incoming = transferSide(inTransfer, swapAsset(inTransfer.data.asset));
      requestPayload = forwardPayloadOf(inTransfer);
    } else {
      const m = inTransfer.firstMessage();
      let amount = m.value;
      if (inTransfer.opcode === PTON_TRANSFER) {
        const pton = loadPtonTonTransfer(inTransfer.body());
        amount = pton.tonAmount;
        requestPayload = pton.forwardPayload?.cell ?? null;
      }
      sender = m.source;
      incoming = { asset: null, amount: amount ?? 0n, source: m.source, sourceJettonWallet: null, destination: block.source, destinationJettonWallet: m.destination };
    }

    const outTransfer = getMultipleLabeled("out_transfer", others, JettonTransferBlock).sort(byMinLt).pop();
    if (outTransfer === undefined) return [];
    const extra: Block[] = [];
    const ptonOut = ptonTonTransferOf(outTransfer);
    if (ptonOut !== null) extra.push(ptonOut);
    const outAsset = swapAsset(outTransfer.data.asset);
    for (const w of [outTransfer.data.receiverWallet, outTransfer.data.senderWallet]) if (w !== null) walletAssets.set(w, outAsset);
    const outgoing = transferSide(outTransfer, outAsset);

    for (const t of getMultipleLabeled("intermediate_transfer", others, JettonTransferBlock)) {
      const p = ptonTonTransferOf(t);
      if (p !== null) extra.push(p);
    }

    const peerSwaps: PeerSwap[] = [];
    if (steps.length > 1) {
      const first = largerOut(steps[0].payTo);
      const firstAsset = first === null || first.wallet === null ? undefined : walletAssets.get(first.wallet);
      if (first !== null && firstAsset !== undefined) {
        peerSwaps.push({ assetIn: incoming.asset, amountIn: incoming.amount, assetOut: firstAsset, amountOut: first.amount });
        for (const s of steps.slice(1)) {
          if (!swapOk(s.payTo)) continue;
          const out = largerOut(s.payTo);
          if (out === null) continue;
          const prev = peerSwaps[peerSwaps.length - 1];
          const asset = out.wallet === null ? undefined : walletAssets.get(out.wallet);
          peerSwaps.push({ assetIn: prev.assetOut, amountIn: prev.amountOut, assetOut: asset ?? null, amountOut: out.amount });
        }
      }
    }

    let destinationAsset = outgoing.asset;
    let minOutAmount = outgoing.amount;
    if (!ok && requestPayload !== null && opcodeOf(requestPayload) === OP.tonco_pool_swap) {
      // a failed swap pays the input back: the asked-for asset and minimum are the route's last hop's
      try {
        const targets = toncoRouteTargets(loadToncoSwapRequest(requestPayload.beginParse()));
        const last = targets[targets.length - 1];
        const wallet = rawAddress(last.wallet);
        if (wallet !== null) {
          const asset = walletAssets.has(wallet) ? walletAssets.get(wallet) : walletAsset(ctx, wallet);
          if (asset !== undefined) {
            destinationAsset = asset;
            minOutAmount = last.minOut;
          }
        }
      } catch {
        // the request is not one TONCO's SDK writes: the payout's values stand
      }
    }

    const built = new JettonSwapBlock({
      dex: "tonco",
      sender,
      incoming,
      outgoing,
      sourceAsset: incoming.asset,
      destinationAsset,
      minOutAmount,
      peerSwaps,
      success: ok,
    });
    built.mergeBlocks([block, ...others, ...extra]);
    return [built];
  }
}
