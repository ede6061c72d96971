// Listing an item on getgems: the owner transfers it to the marketplace, which deploys a sale (or an
// auction) contract and moves the item there (toncenter's NftPutOnSaleBlockMatcher), and a sale's
// price changed later (UpdateSaleMatcher). teleitem_start_auction (teleitem.ts) has the auction's
// shape.
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, BlockTypeMatcher, GenericMatcher, labeled } from "../../engine/matcher.js";
import { readSaleUpdate, SALE_UPDATE } from "../nft/bodies.js";
import { auctionTerms, saleTerms, type AuctionTerms, type SaleTerms } from "./getgems-state.js";
import { getLabeled } from "../../engine/helpers.js";
import { NftTransferBlock, type NftRef } from "../nft/transfer.js";

interface ListingParties {
  nft: NftRef;
  owner: string | null;
  /** the marketplace contract the owner sent the item to (none for a teleitem's own auction) */
  listing: string | null;
  marketplaceAddress: string | null;
  marketplace: string;
}

export class NftPutOnSaleBlock extends Block {
  constructor(
    readonly parties: ListingParties,
    readonly sale: string,
    readonly terms: SaleTerms,
  ) {
    super("nft_put_on_sale", []);
  }

  override fill(row: ActionRow): void {
    const p = this.parties;
    row.source = p.owner;
    row.source_secondary = p.listing;
    row.destination = this.sale;
    row.nft_transfer_data = { marketplace_address: p.marketplaceAddress };
    row.asset = p.nft.collection;
    row.asset_secondary = p.nft.address;
    row.nft_listing_data = {
      nft_item_index: p.nft.index,
      full_price: this.terms.fullPrice,
      marketplace_fee: this.terms.marketplaceFee,
      royalty_amount: this.terms.royaltyAmount,
      marketplace_fee_address: this.terms.marketplaceFeeAddress,
      marketplace: p.marketplace,
      royalty_address: this.terms.royaltyAddress,
      mp_fee_factor: null,
      mp_fee_base: null,
      royalty_fee_base: null,
      max_bid: null,
      min_bid: null,
    };
  }
}

export class NftPutOnAuctionBlock extends Block {
  constructor(
    readonly parties: ListingParties,
    readonly auction: string,
    readonly terms: AuctionTerms,
    kind: "nft_put_on_auction" | "teleitem_start_auction" = "nft_put_on_auction",
  ) {
    super(kind, []);
  }

  override fill(row: ActionRow): void {
    const p = this.parties;
    row.source = p.owner;
    row.source_secondary = p.listing;
    row.destination = this.auction;
    row.asset = p.nft.collection;
    row.asset_secondary = p.nft.address;
    row.nft_transfer_data = { marketplace_address: p.marketplaceAddress };
    row.nft_listing_data = {
      nft_item_index: p.nft.index,
      mp_fee_factor: this.terms.marketplaceFeeFactor,
      mp_fee_base: this.terms.marketplaceFeeBase,
      royalty_fee_base: this.terms.royaltyFeeBase,
      max_bid: this.terms.maxBid,
      min_bid: this.terms.minBid,
      marketplace_fee_address: this.terms.marketplaceFeeAddress,
      marketplace: p.marketplace,
      royalty_address: this.terms.royaltyAddress,
      full_price: null,
      marketplace_fee: null,
      royalty_amount: null,
    };
  }
}

export class NftPutOnSaleMatcher extends BlockMatcher {
  constructor() {
    const saleInit = new GenericMatcher((b) => (b.btype === "ton_transfer" || b.btype === "call_contract") && b.deployments.size > 0);
    super({ children: [labeled("sale_init", saleInit), labeled("transfer_to_sale", new BlockTypeMatcher("nft_transfer"))], includeExcess: false });
  }

  override testSelf(block: Block): boolean {
    return block instanceof NftTransferBlock;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const toListing = block;
    const toSale = getLabeled("transfer_to_sale", others, NftTransferBlock);
    const saleInit = getLabeled("sale_init", others, Block);
    if (!(toListing instanceof NftTransferBlock) || !toSale || !saleInit) return [];
    if (toSale.data.nft.address !== toListing.data.nft.address) return [];
    const contract = saleInit.node.destination;
    const initState = saleInit.node.message?.initState;
    if (contract === null || toSale.data.newOwner !== contract) return [];
    const sale = ctx.nftSale(contract);
    let built: Block;
    if (sale) {
      if (sale.nftAddress !== toSale.data.nft.address || toListing.data.prevOwner !== sale.nftOwnerAddress) throw new Error("the sale's facts disagree with the transfers");
      if (!initState) throw new Error("the sale was deployed without a StateInit");
      const terms = saleTerms(initState);
      built = new NftPutOnSaleBlock(
        { nft: toSale.data.nft, owner: sale.nftOwnerAddress, listing: toListing.data.newOwner, marketplaceAddress: terms.marketplaceAddress, marketplace: "getgems" },
        contract,
        terms,
      );
    } else {
      const auction = ctx.nftAuction(contract);
      if (!auction) return [];
      if (auction.nftAddress !== toSale.data.nft.address || toListing.data.prevOwner !== auction.nftOwnerAddress) throw new Error("the auction's facts disagree with the transfers");
      if (!initState) throw new Error("the auction was deployed without a StateInit");
      built = new NftPutOnAuctionBlock(
        { nft: toSale.data.nft, owner: auction.nftOwnerAddress, listing: toListing.data.newOwner, marketplaceAddress: auction.marketplaceAddress, marketplace: "getgems" },
        contract,
        auctionTerms(initState),
      );
    }
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}

export interface SaleUpdateData {
  sender: string | null;
  sale: string;
  nft: string;
  marketplaceAddress: string | null;
  fullPrice: bigint;
  marketplaceFee: bigint;
  royaltyAmount: bigint;
}

export class NftUpdateSaleBlock extends Block {
  constructor(readonly data: SaleUpdateData) {
    super("nft_update_sale", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    row.source = d.sender;
    row.destination = d.sale;
    row.asset_secondary = d.nft;
    row.nft_listing_data = { full_price: d.fullPrice, royalty_amount: d.royaltyAmount, marketplace_fee: d.marketplaceFee };
    row.nft_transfer_data = { marketplace_address: d.marketplaceAddress };
  }

  override extraAccounts(): string[] {
    return [this.data.nft];
  }
}

export class NftUpdateSaleMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === SALE_UPDATE;
  }

  override buildBlock(block: Block, _others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const update = readSaleUpdate(node.message!);
    const sale = node.destination === null ? null : ctx.nftSale(node.destination);
    if (!sale || node.destination === null) return [];
    const built = new NftUpdateSaleBlock({
      sender: node.source,
      sale: node.destination,
      nft: sale.nftAddress,
      marketplaceAddress: sale.marketplaceAddress,
      fullPrice: update.fullPrice,
      marketplaceFee: update.marketplaceFee,
      royaltyAmount: update.royaltyAmount,
    });
    built.mergeBlocks([block]);
    built.failed = node.tx.aborted;
    return [built];
  }
}
