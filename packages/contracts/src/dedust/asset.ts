// DeDust's asset reference (the vault/pool protocol's DedustAsset), read by swaps, deposits and
// pool parameters alike.
import { Address, type Builder, type Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";

/** native$0000 = DedustAsset; jetton$0001 workchain_id:int8 address:bits256 = DedustAsset. jetton null: TON. */
export interface DedustAsset {
  jetton: Address | null;
}

export function loadDedustAsset(s: Slice): DedustAsset {
  const kind = s.loadUint(4);
  if (kind === 0) return { jetton: null };
  if (kind !== 1) throw new ContractDataError(`DedustAsset: kind ${kind} is neither native nor jetton`);
  const wc = s.loadInt(8);
  return { jetton: new Address(wc, s.loadBuffer(32)) };
}

export function storeDedustAsset(src: DedustAsset): (b: Builder) => void {
  return (b) => {
    if (src.jetton === null) b.storeUint(0, 4);
    else b.storeUint(1, 4).storeInt(src.jetton.workChain, 8).storeBuffer(src.jetton.hash, 32);
  };
}
