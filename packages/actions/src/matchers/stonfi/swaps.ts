// STON.fi v1 swaps (toncenter's StonfiSwapBlockMatcher): a jetton (or pTON) transfer to the router,
// the router's swap call to the pool, the pool's payment request back, and the router's transfer
// out. The input's asset is what the router's wallet named in the swap holds; the output's is
// what the wallet the pool asked to pay from holds; the user's wanted asset is what the wallet
// named in the transfer's forward payload holds (the row's asset2 when known).
import { loadStonfiPaymentRequest, loadStonfiSwap, loadStonfiSwapForwardPayload, STONFI_OPCODES, type StonfiPaymentRequest, type StonfiSwapForwardPayload } from "@tongate/contracts";
import type { Block } from "../../engine/block.js";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract, findCallContracts } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, childSequenceMatcher, ContractMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import { forwardPayloadOf, opcodeOf } from "../swaps/assets.js";
import { JettonSwapBlock, type SwapTransfer } from "../swaps/jetton-swap.js";

const OP = STONFI_OPCODES;

/** Payment requests that pay the swap's sender: the output, or the refund of a swap that failed. */
const SENDER_EXIT_CODES: ReadonlySet<number> = new Set([OP.swap_ok, OP.swap_no_liquidity, OP.swap_reserve_error]);

/** The swap request a transfer to the v1 router carried, when it is one. */
export function stonfiSwapRequest(t: JettonTransferBlock): StonfiSwapForwardPayload | null {
  const payload = forwardPayloadOf(t);
  if (opcodeOf(payload) !== OP.stonfi_swap || payload === null) return null;
  try {
    return loadStonfiSwapForwardPayload(payload.beginParse());
  } catch {
    return null;
  }
}

/** What a payment request pays: its non-zero amount and the router wallet it comes from. */
function paidOut(p: StonfiPaymentRequest): { amount: bigint; wallet: string | null } {
  const q = p.params;
  return q.amount0Out > 0n ? { amount: q.amount0Out, wallet: rawAddress(q.token0Address) } : { amount: q.amount1Out, wallet: rawAddress(q.token1Address) };
}

export class StonfiSwapBlockMatcher extends BlockMatcher {
  constructor() {
    super({ child: childSequenceMatcher([new ContractMatcher(OP.stonfi_swap), new ContractMatcher(OP.stonfi_payment_request), new BlockTypeMatcher("jetton_transfer")]) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof JettonTransferBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    if (!(block instanceof JettonTransferBlock)) return [];
    const swapCall = findCallContract(others, OP.stonfi_swap);
    if (swapCall === null) throw new Error("stonfi: no swap call");
    const swap = loadStonfiSwap(swapCall.body());
    const requests = findCallContracts(others, OP.stonfi_payment_request);
    if (requests.length === 0) throw new Error("stonfi: no payment request");

    let out: { amount: bigint; wallet: string | null } | null = null;
    let outTransfer: JettonTransferBlock | null = null;
    let success = false;
    const referralBlocks = new Set<Block>();
    for (const r of requests) {
      const p = loadStonfiPaymentRequest(r.body());
      const paid = paidOut(p);
      if (SENDER_EXIT_CODES.has(p.exitCode)) {
        success = p.exitCode === OP.swap_ok;
        if (out === null || out.amount < paid.amount) {
          outTransfer = r.next.find((b): b is JettonTransferBlock => b instanceof JettonTransferBlock) ?? null;
          out = paid;
        }
      } else if (p.exitCode === OP.swap_ok_ref) {
        // the referral's share is its own payment: not part of the user's swap
        r.bfs((b) => referralBlocks.add(b));
      }
    }
    if (out === null || outTransfer === null) throw new Error("stonfi: no payment to the sender");

    // the transfer into the router is the block before the swap call
    const inTransfer = swapCall.previous instanceof JettonTransferBlock ? swapCall.previous : block;
    const request = stonfiSwapRequest(block);
    const wantedWallet = request !== null ? rawAddress(request.tokenWallet) : out.wallet;
    const dexInWallet = rawAddress(swap.senderAddress);
    const dexIn = ctx.jettonWallet(dexInWallet);
    if (dexIn === null) throw new Error("stonfi: the router's input wallet is not known");
    const actualOut = ctx.jettonWallet(out.wallet);
    const wanted = ctx.jettonWallet(wantedWallet);
    const fromRealUser = rawAddress(swap.fromUser);

    const incoming: SwapTransfer = {
      asset: dexIn.jetton,
      amount: swap.jettonAmount,
      source: fromRealUser,
      sourceJettonWallet: inTransfer.data.hasInternalTransfer ? inTransfer.data.senderWallet : null,
      destination: dexIn.owner,
      destinationJettonWallet: dexInWallet,
    };
    const outgoing: SwapTransfer = {
      asset: actualOut?.jetton ?? null,
      amount: out.amount,
      source: outTransfer.data.sender,
      sourceJettonWallet: outTransfer.data.senderWallet,
      destination: null,
      destinationJettonWallet: null,
    };
    const inRequest = stonfiSwapRequest(inTransfer);
    if (outTransfer.data.hasInternalTransfer) {
      outgoing.destination = outTransfer.data.receiver;
      outgoing.destinationJettonWallet = outTransfer.data.receiverWallet;
    } else if (inRequest !== null) {
      outgoing.destination = rawAddress(inRequest.toAddress);
    } else {
      outgoing.destination = rawAddress(swap.toAddress);
    }

    const built = new JettonSwapBlock({
      dex: "stonfi",
      sender: fromRealUser,
      incoming,
      outgoing,
      destinationAsset: wanted?.jetton ?? null,
      destinationWallet: wantedWallet,
      peerSwaps: [],
      success,
    });
    built.mergeBlocks([block, ...others.filter((b) => !referralBlocks.has(b))]);
    return [built];
  }
}
