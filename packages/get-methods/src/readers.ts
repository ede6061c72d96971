// The standard get-methods of jettons (TEP-74) and NFTs (TEP-62), read into @tongate/contracts'
// typed views, and the confirmations toncenter asks for before it lists a wallet or an item as a
// token's: the master's get_wallet_address(owner) or the collection's get_nft_address_by_index(index)
// must answer the account's own address.
import { beginCell, type Address, type Cell, type TupleItem } from "@ton/core";
import {
  readCollectionData,
  readIsClaimed,
  readJettonData,
  readJettonWalletData,
  readNftAddressByIndex,
  readNftContent,
  readNftData,
  readWalletAddress,
  type JettonData,
  type JettonWalletData,
  type NftCollectionData,
  type NftItemData,
  type StackItem,
} from "@tongate/contracts";
import { MAX_VM_STACK_DEPTH } from "@tongate/ton";
import { failed, readGetMethod, type AccountState, type GetMethodContext, type Read, type ReadFailure } from "./run.js";

/** A jetton master's get_jetton_data. */
export const getJettonData = (ctx: GetMethodContext, master: AccountState): Promise<Read<JettonData>> => readGetMethod(ctx, master, "get_jetton_data", [], readJettonData);

/** A jetton wallet's get_wallet_data. */
export const getWalletData = (ctx: GetMethodContext, wallet: AccountState): Promise<Read<JettonWalletData>> => readGetMethod(ctx, wallet, "get_wallet_data", [], readJettonWalletData);

/** A mintless jetton wallet's is_claimed (undefined when it answers no integer). */
export const isClaimed = (ctx: GetMethodContext, wallet: AccountState): Promise<Read<boolean | undefined>> => readGetMethod(ctx, wallet, "is_claimed", [], readIsClaimed);

/** An NFT collection's get_collection_data. */
export const getCollectionData = (ctx: GetMethodContext, collection: AccountState): Promise<Read<NftCollectionData>> => readGetMethod(ctx, collection, "get_collection_data", [], readCollectionData);

/** An NFT item's get_nft_data. */
export const getNftData = (ctx: GetMethodContext, item: AccountState): Promise<Read<NftItemData>> => readGetMethod(ctx, item, "get_nft_data", [], readNftData);

/** A collection's get_nft_content(index, individual_content): an item's full content. */
export function getNftContent(ctx: GetMethodContext, collection: AccountState, index: bigint, individualContent: Cell): Promise<Read<Cell>> {
  // The content goes to the emulator as an argument, and a get-method's stack has a depth bound.
  if (individualContent.depth() + 2 > MAX_VM_STACK_DEPTH) {
    return Promise.resolve(failed({ method: "get_nft_content", reason: "result", message: `the item's content is ${individualContent.depth()} cells deep, too deep to pass to get_nft_content` }));
  }
  return readGetMethod(ctx, collection, "get_nft_content", [{ type: "int", value: index }, { type: "cell", cell: individualContent }], readNftContent);
}

/**
 * What a master or collection says of an account that claims to be its wallet or item:
 * confirmed (it gives the account's address), denied (it gives another, none, or cannot answer:
 * an exit code), or unknown (the run did not finish, or needs a library: ask again).
 */
export type Confirmation = { verdict: "confirmed" } | { verdict: "denied"; answered: Address | null; failure?: ReadFailure } | { verdict: "unknown"; failure: ReadFailure };

async function confirm(ctx: GetMethodContext, parent: AccountState, method: string, args: TupleItem[], read: (stack: StackItem[]) => Address | null, claimed: Address): Promise<Confirmation> {
  const r = await readGetMethod(ctx, parent, method, args, read);
  if (r.ok) return r.value?.equals(claimed) ? { verdict: "confirmed" } : { verdict: "denied", answered: r.value };
  const f = r.failure;
  return f.reason === "exit_code" || f.reason === "result" ? { verdict: "denied", answered: null, failure: f } : { verdict: "unknown", failure: f };
}

/** Whether `master` gives `wallet` as the jetton wallet of `owner` (get_wallet_address). */
export function confirmJettonWallet(ctx: GetMethodContext, master: AccountState, owner: Address, wallet: Address): Promise<Confirmation> {
  return confirm(ctx, master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(owner).endCell() }], readWalletAddress, wallet);
}

/** Whether `collection` gives `item` as its item number `index` (get_nft_address_by_index). */
export function confirmNftItem(ctx: GetMethodContext, collection: AccountState, index: bigint, item: Address): Promise<Confirmation> {
  return confirm(ctx, collection, "get_nft_address_by_index", [{ type: "int", value: index }], readNftAddressByIndex, item);
}
