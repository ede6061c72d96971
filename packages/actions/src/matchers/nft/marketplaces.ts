// Names of NFT marketplaces by address, for API v3's `details.marketplace` (toncenter keeps them in
// a `marketplace_names` table that ton-index-go loads at start). The key is a marketplace contract,
// or a collection whose items only one marketplace sells.

export const MARKETPLACE_NAMES: ReadonlyMap<string, string> = new Map([
  // EQBYTuYbLf8INxFtD8tQeNk5ZLy-nAX9ahQbG_yl1qQ-GEMS: the getgems marketplace (its sales' and auctions' marketplace_address)
  ["0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18", "getgems"],
  // Telegram Usernames and Anonymous Telegram Numbers: sold on Fragment
  ["0:80D78A35F955A14B679FAA887FF4CD5BFC0F43B4A4EEA2A7E6927F3701B273C2", "fragment"],
  ["0:0E41DC1DC3C9067ED24248580E12B3359818D83DEE0304FABCF80845EAFAFDB2", "fragment"],
]);

/**
 * ton-index-go's GetMarketplaceName: the marketplace address decides when there is one (an unknown
 * one gives no name); only without it the collection is looked up.
 */
export function marketplaceName(marketplaceAddress: string | null | undefined, collection: string | null | undefined, names: ReadonlyMap<string, string> = MARKETPLACE_NAMES): string | null {
  if (marketplaceAddress) return names.get(marketplaceAddress) ?? null;
  return collection ? (names.get(collection) ?? null) : null;
}
