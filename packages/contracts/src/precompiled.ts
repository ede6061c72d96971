// Precompiled readers: for a contract known by its code hash, the state its get-methods would
// answer, read from the data cell with the storage loaders instead of running the TVM. Each state
// is named after the get-methods it stands for and has their shape (the get-method readers' views);
// a get-method that throws on the data is a null there. No reader (undefined): run the get-methods
// in the emulator.
import type { Cell } from "@ton/core";
import type { KnownContract } from "./detect.js";
import { DNS_READERS } from "./dns/precompiled.js";
import { ContractDataError } from "./errors.js";
import { JETTON_READERS, type JettonMasterState, type JettonWalletState } from "./jetton/precompiled.js";
import { NFT_READERS, type NftInterfaceState } from "./nft/precompiled.js";
import { STAKING_READERS, type WhalesPoolState } from "./staking/precompiled.js";

/** What a get-method reads besides the data cell, as the emulator's run would give it. */
export interface ReadStateContext {
  /**
   * The account's code as stored (the library cell when the code is a library): my_code(), which
   * the Jetton 2.0 family's get_wallet_data returns.
   */
  code: Cell;
  /** c7's unixtime, the block's gen_utime: the Whales pool's get_staking_status. */
  now?: number;
  /** The block's ConfigParams dictionary root: the Whales pool's get_staking_status reads params 32 and 34. */
  config?: Cell;
}

export type InterfaceState = JettonMasterState | JettonWalletState | NftInterfaceState | WhalesPoolState;

type Reader = (data: Cell, ctx: ReadStateContext) => InterfaceState;

const READERS = new Map<string, Reader>(Object.entries<Reader>({ ...JETTON_READERS, ...NFT_READERS, ...DNS_READERS, ...STAKING_READERS }));

/** Whether the contract has a precompiled reader. */
export const hasPrecompiledReader = (known: KnownContract): boolean => READERS.has(known.name);

/**
 * The state of a known contract from its data cell; undefined when there is no reader for it.
 * Throws a ContractDataError when the data does not load as the contract's storage (its
 * get-methods would fail too).
 */
export function readStateByCode(known: KnownContract, data: Cell, ctx: ReadStateContext): InterfaceState | undefined {
  const read = READERS.get(known.name);
  if (!read) return undefined;
  try {
    return read(data, ctx);
  } catch (e) {
    if (e instanceof ContractDataError) throw e;
    throw new ContractDataError(`${known.name}: the data does not load as its storage: ${(e as Error).message}`);
  }
}

export type { JettonMasterState, JettonWalletState } from "./jetton/precompiled.js";
export { jettonContentFromUri } from "./jetton/precompiled.js";
export type {
  GetgemsMarketplaceState,
  NftAuctionState,
  NftAuctionV4State,
  NftCollectionState,
  NftInterfaceState,
  NftItemState,
  NftOfferState,
  NftSaleState,
  NftSaleV1State,
  NftSaleV4State,
  TelemintItemState,
} from "./nft/precompiled.js";
export { nftContentByCode } from "./nft/precompiled.js";
export { WHALES_DEFAULT_PARAMS, type WhalesPoolState } from "./staking/precompiled.js";
