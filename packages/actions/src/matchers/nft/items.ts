// What the NFT matchers ask of an item's facts: whether it is a Telegram (Fragment) item or a .ton
// domain, which auctions and purchases toncenter treats apart.
import { DNS_CODE_HASHES } from "@tongate/contracts";
import type { NftItemFacts } from "../../interfaces.js";

/** The .ton domains' collection on mainnet. */
export const DNS_COLLECTION = "0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF";

/** Code hashes of .ton domain items: the reference contract's and mainnet's deployed one. */
const DNS_ITEM_CODE_HASHES = new Set([DNS_CODE_HASHES.dns_item, "i1/8nr/TkGTY1fVuRlnIJrt1k5I/XKSHKL5NYK9vUfk="]);

/** A Fragment item (username, number, gift): its content points at nft.fragment.com. */
export function isTeleitem(item: NftItemFacts): boolean {
  const uri = item.content?.uri;
  return typeof uri === "string" && uri.includes("https://nft.fragment.com");
}

/** A .ton domain: by its code, or by its collection when the code is not known. */
export function isDnsItem(item: NftItemFacts): boolean {
  return (item.codeHash != null && DNS_ITEM_CODE_HASHES.has(item.codeHash)) || item.collectionAddress === DNS_COLLECTION;
}
