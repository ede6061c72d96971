// The same states as the precompiled readers give (precompiled.ts), from the contract's get-methods
// run by the caller (in the emulator, on a liteserver): the path for data a reader cannot load, and
// the reference the readers are checked against.
import type { KnownContract } from "./detect.js";
import { ContractDataError } from "./errors.js";
import { readIsClaimed, readJettonData, readJettonWalletData } from "./jetton/get-methods.js";
import { readCollectionData, readNftData, readRoyaltyParams } from "./nft/get-methods.js";
import {
  readNftAuctionData,
  readNftAuctionDataV4,
  readNftAuctionSaleData,
  readNftFixPriceData,
  readNftFixPriceDataV4,
  readNftOfferData,
  readNftOfferDataV2,
  readNftSaleData,
  readNftSaleV1Data,
} from "./nft/getgems-get-methods.js";
import { readTelemintAuctionConfig, readTelemintAuctionState, readTelemintTokenName } from "./nft/telemint-get-methods.js";
import type { InterfaceState } from "./precompiled.js";
import { StackReader, type StackItem } from "./stack.js";
import { readWhalesAddress, readWhalesMembersRaw, readWhalesPoolParams, readWhalesPoolStatus, readWhalesStakingStatus } from "./staking/get-methods.js";

/** Runs one get-method of the account without arguments: its result stack, or null when it exits with an error. */
export type GetMethodRunner = (method: string) => Promise<StackItem[] | null>;

type Assemble = (run: GetMethodRunner) => Promise<InterfaceState>;

async function required(run: GetMethodRunner, method: string): Promise<StackItem[]> {
  const r = await run(method);
  if (!r) throw new ContractDataError(`${method} failed`);
  return r;
}

const optional = async <T>(run: GetMethodRunner, method: string, read: (s: StackItem[]) => T): Promise<T | null> => {
  const r = await run(method);
  return r ? read(r) : null;
};

const jettonMaster: Assemble = async (run) => ({ kind: "jetton_master", jettonData: await optional(run, "get_jetton_data", readJettonData) });
const jettonWallet: Assemble = async (run) => ({ kind: "jetton_wallet", walletData: readJettonWalletData(await required(run, "get_wallet_data")) });
const statusInt = (s: StackItem[]) => Number(new StackReader("get_status", s, 1).int(0));

const jettonWalletV2 =
  (mintless: boolean): Assemble =>
  async (run) => {
    const state: InterfaceState = { kind: "jetton_wallet", walletData: readJettonWalletData(await required(run, "get_wallet_data")), status: statusInt(await required(run, "get_status")) };
    if (mintless) state.isClaimed = readIsClaimed(await required(run, "is_claimed"));
    return state;
  };

const collection: Assemble = async (run) => ({ kind: "nft_collection", collectionData: readCollectionData(await required(run, "get_collection_data")) });
const item: Assemble = async (run) => ({ kind: "nft_item", nftData: readNftData(await required(run, "get_nft_data")) });

const telemintItem: Assemble = async (run) => ({
  kind: "nft_item",
  nftData: readNftData(await required(run, "get_nft_data")),
  telemint: {
    tokenName: await optional(run, "get_telemint_token_name", readTelemintTokenName),
    auctionState: await optional(run, "get_telemint_auction_state", readTelemintAuctionState),
    auctionConfig: await optional(run, "get_telemint_auction_config", readTelemintAuctionConfig),
    royaltyParams: await optional(run, "royalty_params", readRoyaltyParams),
  },
});

const int = (method: string) => (s: StackItem[]) => new StackReader(method, s, 1).int(0);

const ASSEMBLERS = new Map<string, Assemble>(
  Object.entries<Assemble>({
    jetton_minter_legacy: jettonMaster,
    jetton_minter_tokencontract: jettonMaster,
    jetton_minter_discoverable_tokencontract: jettonMaster,
    jetton2_minter: jettonMaster,
    stablecoin_minter: jettonMaster,
    mintless_minter: jettonMaster,
    jetton_wallet_legacy: jettonWallet,
    jetton_wallet_tokencontract: jettonWallet,
    jetton2_wallet: jettonWalletV2(false),
    stablecoin_wallet: jettonWalletV2(false),
    mintless_wallet: jettonWalletV2(true),
    nft_collection_editable: collection,
    nft_collection_tokencontract: collection,
    telemint_collection: collection,
    telemint_collection_no_dns: collection,
    dns_collection: collection,
    nft_item: item,
    nft_item_tokencontract: item,
    nft_single: item,
    dns_item: item,
    telemint_item: telemintItem,
    telemint_item_no_dns: telemintItem,
    telemint_item_no_dns_cheap: telemintItem,
    telemint_item_no_dns_cheap_delayed: telemintItem,
    nft_marketplace_getgems: async (run) => ({
      kind: "getgems_marketplace",
      seqno: Number(int("seqno")(await required(run, "seqno"))),
      publicKey: int("get_public_key")(await required(run, "get_public_key")),
    }),
    nft_sale_getgems_v1: async (run) => ({ kind: "nft_sale_v1", saleData: readNftSaleV1Data(await required(run, "get_sale_data")) }),
    nft_sale_getgems_v2: async (run) => ({ kind: "nft_sale", saleData: await optional(run, "get_sale_data", readNftSaleData) }),
    nft_sale_getgems_v3: async (run) => ({ kind: "nft_sale", saleData: await optional(run, "get_sale_data", readNftSaleData) }),
    nft_sale_getgems_v3r2: async (run) => ({ kind: "nft_sale", saleData: await optional(run, "get_sale_data", readNftSaleData) }),
    nft_sale_getgems_v3r3: async (run) => ({
      kind: "nft_sale",
      saleData: await optional(run, "get_sale_data", readNftSaleData),
      fixPriceData: await optional(run, "get_fix_price_data", readNftFixPriceData),
    }),
    nft_sale_getgems_v4r1: async (run) => ({ kind: "nft_sale_v4", fixPriceDataV4: readNftFixPriceDataV4(await required(run, "get_fix_price_data_v4")) }),
    nft_auction_getgems_v1: async (run) => ({ kind: "nft_auction", saleData: await optional(run, "get_sale_data", readNftAuctionSaleData) }),
    nft_auction_getgems_v2: async (run) => ({ kind: "nft_auction", saleData: await optional(run, "get_sale_data", readNftAuctionSaleData) }),
    nft_auction_getgems_v3r2: async (run) => ({ kind: "nft_auction", saleData: await optional(run, "get_sale_data", readNftAuctionSaleData) }),
    nft_auction_getgems_v3r3: async (run) => ({
      kind: "nft_auction",
      saleData: await optional(run, "get_sale_data", readNftAuctionSaleData),
      auctionData: await optional(run, "get_auction_data", readNftAuctionData),
    }),
    nft_auction_getgems_v4r1: async (run) => ({ kind: "nft_auction_v4", auctionDataV4: readNftAuctionDataV4(await required(run, "get_auction_data_v4")) }),
    nft_offer_getgems_v1r3: async (run) => ({
      kind: "nft_offer",
      offerData: await optional(run, "get_offer_data", readNftOfferData),
      offerDataV2: await optional(run, "get_offer_data_v2", readNftOfferDataV2),
    }),
    whales_nominator_pool: async (run) => ({
      kind: "whales_pool",
      owner: readWhalesAddress("get_owner", await required(run, "get_owner")),
      controller: readWhalesAddress("get_controller", await required(run, "get_controller")),
      proxy: readWhalesAddress("get_proxy", await required(run, "get_proxy")),
      poolStatus: readWhalesPoolStatus(await required(run, "get_pool_status")),
      params: readWhalesPoolParams(await required(run, "get_params")),
      membersRaw: readWhalesMembersRaw(await required(run, "get_members_raw")),
      stakingStatus: await optional(run, "get_staking_status", readWhalesStakingStatus),
    }),
  }),
);

/**
 * The state readStateByCode gives for this contract, from its get-methods (each run once, in
 * order); undefined for a contract without one. Throws a ContractDataError when a get-method the
 * state cannot do without fails or answers out of shape.
 */
export async function readStateByGetMethods(known: KnownContract, run: GetMethodRunner): Promise<InterfaceState | undefined> {
  return ASSEMBLERS.get(known.name)?.(run);
}
