// What swap.coffee's matchers share: assets as toncenter names them (null for TON, the jetton
// master's raw address), and how a vault pays out: a jetton transfer, a TON payout, or a
// notification carrying the TON to a contract the user named.
import type { Address } from "@ton/core";
import { COFFEE_OPCODES, type CoffeeAsset } from "@tongate/contracts";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonTransferBlock } from "../jettons/transfer.js";
import type { SwapTransfer } from "../swaps/jetton-swap.js";

export const OP = COFFEE_OPCODES;

/** An address a body always carries (MsgAddressInt), raw upper-case. */
export function addressOf(a: Address): string {
  return `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
}

/** An asset as toncenter writes it; an extra currency has no such name (toncenter gives up on it too). */
export function assetOf(a: CoffeeAsset): string | null {
  if (a.kind === "native") return null;
  if (a.kind === "jetton") return addressOf(a.master);
  throw new Error(`swap.coffee: extra currency ${a.id} is not an asset toncenter names`);
}

/** A vault paying out: a jetton transfer, a TON payout, or a notification (labelled `label`). */
export function vaultOutMatcher(label: string): BlockMatcher {
  return labeled(label, new OrMatcher([new BlockTypeMatcher("jetton_transfer"), new ContractMatcher(OP.coffee_payout), new ContractMatcher(OP.coffee_notification)]));
}

/** A jetton transfer as one side of a swap; null when its jetton is unknown. */
export function jettonSide(t: JettonTransferBlock): SwapTransfer {
  const d = t.data;
  return { asset: d.asset, amount: d.amount, source: d.sender, sourceJettonWallet: d.senderWallet, destination: d.receiver, destinationJettonWallet: d.receiverWallet };
}
