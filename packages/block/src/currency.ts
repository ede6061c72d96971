// CurrencyCollection arithmetic and the augmentations built from it.
import { type CurrencyCollection, Dictionary, loadCurrencyCollection, storeCurrencyCollection } from "@ton/core";
import type { Augmentation } from "./dict.js";

export function zeroCurrencyCollection(): CurrencyCollection {
  return { coins: 0n };
}

/** a + b, extra currencies added per id (like block::CurrencyCollection::operator+). */
export function addCurrencyCollections(a: CurrencyCollection, b: CurrencyCollection): CurrencyCollection {
  const coins = a.coins + b.coins;
  const ao = a.other && a.other.size > 0 ? a.other : undefined;
  const bo = b.other && b.other.size > 0 ? b.other : undefined;
  if (!ao && !bo) return { coins };
  const other = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
  for (const src of [ao, bo]) {
    if (!src) continue;
    for (const [id, amount] of src) other.set(id, (other.get(id) ?? 0n) + amount);
  }
  return { coins, other };
}

export function currencyCollectionsEqual(a: CurrencyCollection, b: CurrencyCollection): boolean {
  if (a.coins !== b.coins) return false;
  const ao = a.other ?? undefined;
  const bo = b.other ?? undefined;
  const an = ao?.size ?? 0;
  const bn = bo?.size ?? 0;
  if (an !== bn) return false;
  if (an === 0) return true;
  for (const [id, v] of ao!) if (bo!.get(id) !== v) return false;
  return true;
}

/** Augmentation by CurrencyCollection, summed at forks (OutMsgDescr, ShardAccountBlocks, AccountBlock.transactions). */
export const currencyCollectionAug: Augmentation<CurrencyCollection> = {
  load: loadCurrencyCollection,
  store: storeCurrencyCollection,
  fork: addCurrencyCollections,
  empty: zeroCurrencyCollection,
};
