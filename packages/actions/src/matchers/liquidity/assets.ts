// Assets of a DEX action as toncenter's Asset: TON or a jetton master. "TON" stands for TON so
// that an unknown asset (null) stays distinct from it; rows show both as null.
import type { DedustAsset } from "@tongate/contracts";
import { rawAddress } from "../../engine/cells.js";
import type { MatchContext } from "../../engine/context.js";
import { walletAsset } from "../swaps/assets.js";

export const TON = "TON";

/** TON, a jetton master's raw address, or null when unknown. */
export type DexAsset = typeof TON | string;

/** How a row shows an asset: the jetton master, null for TON or an unknown asset. */
export function assetColumn(a: DexAsset | null | undefined): string | null {
  return a === undefined || a === null || a === TON ? null : a;
}

/** A DeDust TL-B asset as a DexAsset. */
export function dedustAsset(a: DedustAsset): DexAsset {
  return a.jetton === null ? TON : rawAddress(a.jetton)!;
}

/** The asset a jetton wallet holds (TON for the proxy-TON masters, as swaps read it); null when the wallet is unknown. */
export function walletDexAsset(ctx: MatchContext, wallet: string | null): DexAsset | null {
  const asset = walletAsset(ctx, wallet);
  return asset === undefined ? null : (asset ?? TON);
}
