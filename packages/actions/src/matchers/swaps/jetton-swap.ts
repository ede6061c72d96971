// A DEX swap (toncenter's JettonSwapBlock, its row by block_tree_serializer's jetton_swap filler):
// what came into the DEX, what went out of it, and for a route through several pools the swaps
// between them (peer_swaps). Every DEX's matcher builds this one block; `dex` names the DEX.
import type { ActionRow } from "../../action.js";
import { Block } from "../../engine/block.js";

/** One side of a swap as the DEX saw it; asset null means TON. */
export interface SwapTransfer {
  asset: string | null;
  amount: bigint | null;
  source: string | null;
  sourceJettonWallet: string | null;
  destination: string | null;
  destinationJettonWallet: string | null;
}

/** A hop of a multi-pool route; assets null mean TON. */
export interface PeerSwap {
  assetIn: string | null;
  amountIn: bigint | null;
  assetOut: string | null;
  amountOut: bigint | null;
}

export type SwapDex = "stonfi" | "stonfi_v2" | "dedust" | "dedust_v2" | "tonco" | "coffee";

export interface JettonSwapData {
  dex: SwapDex;
  sender: string | null;
  incoming: SwapTransfer;
  outgoing: SwapTransfer;
  /** The asset the user asked for (toncenter's source_asset / destination_asset; stonfi_v2, dedust, dedust_v2 and tonco set them). */
  sourceAsset?: string | null;
  destinationAsset?: string | null;
  /** The jetton wallet the user receives on, when the DEX names it. */
  destinationWallet?: string | null;
  minOutAmount?: bigint | null;
  /** null: toncenter's row has no peer_swaps key (an empty list renders the same). */
  peerSwaps: PeerSwap[] | null;
  success: boolean;
}

function transferRow(t: SwapTransfer): Record<string, unknown> {
  return {
    amount: t.amount,
    source: t.source,
    source_jetton_wallet: t.sourceJettonWallet,
    destination: t.destination,
    destination_jetton_wallet: t.destinationJettonWallet,
    asset: t.asset,
  };
}

export class JettonSwapBlock extends Block {
  constructor(readonly data: JettonSwapData) {
    super("jetton_swap", []);
    if (!data.success) this.failed = true;
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.asset = d.incoming.asset;
    row.asset2 = d.outgoing.asset;
    if (d.dex === "stonfi_v2" || d.dex === "dedust" || d.dex === "dedust_v2" || d.dex === "tonco") {
      row.asset = d.sourceAsset ?? null;
      row.asset2 = d.destinationAsset ?? null;
    }
    row.source = d.incoming.source;
    row.source_secondary = d.incoming.sourceJettonWallet;
    row.destination = d.outgoing.destination;
    row.destination_secondary = d.outgoing.destinationJettonWallet;
    if (d.destinationWallet !== undefined && d.destinationWallet !== null) row.destination_secondary = d.destinationWallet;
    if (d.destinationAsset !== undefined && d.destinationAsset !== null) row.asset2 = d.destinationAsset;
    const data: Record<string, unknown> = {
      dex: d.dex,
      sender: d.sender,
      dex_incoming_transfer: transferRow(d.incoming),
      dex_outgoing_transfer: transferRow(d.outgoing),
      min_out_amount: d.minOutAmount ?? null,
    };
    if (d.peerSwaps !== null) {
      data.peer_swaps = d.peerSwaps.map((p) => ({ amount_in: p.amountIn, asset_in: p.assetIn, amount_out: p.amountOut, asset_out: p.assetOut }));
    }
    row.jetton_swap_data = data;
  }
}
