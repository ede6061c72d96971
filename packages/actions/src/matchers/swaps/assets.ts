// What the DEX matchers share: the asset a jetton wallet holds (pTON and TONCO's wTTON stand for
// TON), the pTON ton_transfer that pays a router's TON out, a transfer's side of a swap, and the
// forward payload a jetton transfer carried.
import { PTON_OPCODES } from "@tongate/contracts";
import type { Cell } from "@ton/core";
import type { CallContractBlock } from "../../engine/basic.js";
import type { MatchContext } from "../../engine/context.js";
import { findCallContract } from "../../engine/helpers.js";
import { PTON_MASTERS, type JettonTransferBlock } from "../jettons/transfer.js";
import type { SwapTransfer } from "./jetton-swap.js";

/** The asset of a jetton master as a swap shows it: null (TON) for the proxy-TON masters. */
export function swapAsset(master: string | null): string | null {
  return master === null || PTON_MASTERS.has(master) ? null : master;
}

/** The asset a jetton wallet holds (null for TON), undefined when the wallet is not known. */
export function walletAsset(ctx: MatchContext, wallet: string | null): string | null | undefined {
  const w = ctx.jettonWallet(wallet);
  return w === null ? undefined : swapAsset(w.jetton);
}

/** pTON's ton_transfer below a jetton transfer: a router's pTON wallet paying TON out; null below a plain jetton transfer. */
export function ptonTonTransferOf(t: JettonTransferBlock): CallContractBlock | null {
  return findCallContract(t.next, PTON_OPCODES.pton_ton_transfer);
}

/** A jetton transfer as one side of a swap, the asset read as `asset` says. */
export function transferSide(t: JettonTransferBlock, asset: string | null): SwapTransfer {
  const d = t.data;
  return { asset, amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
}

/** The forward payload of the transfer request, when it had one. */
export function forwardPayloadOf(t: JettonTransferBlock): Cell | null {
  return t.request.forwardPayload?.cell ?? null;
}

/** The first 32 bits of a cell, null when it is shorter. */
export function opcodeOf(c: Cell | null): number | null {
  if (c === null) return null;
  const s = c.beginParse();
  return s.remainingBits >= 32 ? s.preloadUint(32) : null;
}
