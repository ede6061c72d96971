// nft_transfer: an owner hands a TEP-62 item to another (toncenter's NftTransferBlockMatcher), and
// the ownership_assigned an item sends without a transfer before it, which is how a Fragment auction
// hands its lot to the winner (TelegramNftPurchaseBlockMatcher). A transfer whose previous block
// paid a getgems sale or ended a getgems auction is marked a purchase; the purchase matcher
// (purchase.ts) then wraps it together with the payout to the seller.
import type { ActionRow } from "../../action.js";
import { CallContractBlock, TonTransferBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher, OrMatcher } from "../../engine/matcher.js";
import { NFT_OPCODES } from "@tongate/contracts";
import { DNS_OPCODES } from "@tongate/contracts";
import { readNftTransfer, readOwnershipAssigned, TELEITEM_OPCODES } from "./bodies.js";
import { NftMintBlock } from "./mint.js";

const EXCESS = 0xd53276db;

/** The item as the action names it. */
export interface NftRef {
  address: string;
  index: bigint | null;
  collection: string | null;
}

export function nftRef(ctx: MatchContext, address: string | null): NftRef | null {
  const item = ctx.nftItem(address);
  if (!item || !address) return null;
  return { address, index: item.index, collection: item.collectionAddress };
}

export interface NftTransferData {
  isPurchase: boolean;
  prevOwner: string | null;
  newOwner: string | null;
  queryId: bigint;
  forwardAmount: bigint | null;
  responseDestination: string | null;
  customPayload: string | null;
  forwardPayload: string | null;
  nft: NftRef;
  /** "getgems" (a sale or auction contract sent it) or "fragment" (a teleitem's auction ended) */
  marketplace: string | null;
  marketplaceAddress: string | null;
  price: bigint | null;
  /** the seller: the owner the sale or auction contract held the item for */
  realPrevOwner: string | null;
  payoutAmount: bigint | null;
  payoutAddress: string | null;
  royaltyAmount: bigint | null;
  royaltyAddress: string | null;
}

export class NftTransferBlock extends Block {
  constructor(readonly data: NftTransferData) {
    super("nft_transfer", []);
  }

  override fill(row: ActionRow): void {
    const d = this.data;
    if (d.prevOwner !== null) row.source = d.prevOwner;
    row.destination = d.newOwner;
    row.asset_secondary = d.nft.address;
    row.asset = d.nft.collection;
    row.nft_transfer_data = {
      query_id: d.queryId,
      is_purchase: d.isPurchase,
      price: d.isPurchase ? d.price : null,
      nft_item_index: d.nft.index,
      forward_amount: d.forwardAmount,
      custom_payload: d.customPayload,
      forward_payload: d.forwardPayload,
      response_destination: d.responseDestination,
      marketplace: d.marketplace,
      marketplace_address: d.marketplaceAddress,
      real_prev_owner: d.realPrevOwner,
      payout_amount: d.payoutAmount,
      payout_comment_encrypted: null,
      payout_comment_encoded: null,
      payout_comment: null,
      royalty_amount: d.royaltyAmount,
    };
    row.nft_listing_data = { marketplace_fee_address: d.payoutAddress, royalty_address: d.royaltyAddress };
  }
}

function emptyTransferData(nft: NftRef): NftTransferData {
  return {
    isPurchase: false,
    prevOwner: null,
    newOwner: null,
    queryId: 0n,
    forwardAmount: null,
    responseDestination: null,
    customPayload: null,
    forwardPayload: null,
    nft,
    marketplace: null,
    marketplaceAddress: null,
    price: null,
    realPrevOwner: null,
    payoutAmount: null,
    payoutAddress: null,
    royaltyAmount: null,
    royaltyAddress: null,
  };
}

/** The words a getgems auction takes as an external or a comment to end itself. */
export const AUCTION_END_COMMENTS = ["finish", "stop"];

interface TradeOrigin {
  marketplaceAddress: string | null;
  nftAddress: string;
  price: bigint;
  realPrevOwner: string | null;
}

/**
 * Whether the block before a transfer is a getgems trade ending: a buyer's payment to a sale (the
 * buyer being the new owner), or anything arriving at an auction (a winning bid, a finish).
 */
function tradeOrigin(block: Block, newOwner: string | null, ctx: MatchContext): TradeOrigin | null {
  const prev = block.previous;
  if (prev === null || prev.nodes.length === 0) return null;
  const first = prev.node;
  const contract = first.tx.account;
  if (prev instanceof TonTransferBlock && newOwner !== null && first.source !== null && first.source.toUpperCase() === newOwner.toUpperCase()) {
    const sale = ctx.nftSale(contract);
    if (sale) return { marketplaceAddress: sale.marketplaceAddress, nftAddress: sale.nftAddress, price: sale.fullPrice, realPrevOwner: sale.nftOwnerAddress };
  }
  const auction = ctx.nftAuction(contract);
  if (auction) return { marketplaceAddress: auction.marketplaceAddress, nftAddress: auction.nftAddress, price: auction.lastBid, realPrevOwner: auction.nftOwnerAddress };
  return null;
}

export class NftTransferMatcher extends BlockMatcher {
  constructor() {
    super({
      child: new OrMatcher([new ContractMatcher(NFT_OPCODES.nft_ownership_assigned, { optional: true }), new ContractMatcher(EXCESS, { optional: true })], true),
    });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NFT_OPCODES.nft_transfer;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const body = readNftTransfer(node.message!);
    const nft = nftRef(ctx, node.tx.account);
    if (nft === null) return [];
    const assigned = others.find((b) => b instanceof CallContractBlock && b.opcode === NFT_OPCODES.nft_ownership_assigned);
    const data: NftTransferData = {
      ...emptyTransferData(nft),
      prevOwner: assigned ? readOwnershipAssigned(assigned.node.message!).prevOwner : node.source,
      newOwner: body.newOwner,
      queryId: body.queryId,
      forwardAmount: body.forwardAmount,
      responseDestination: body.responseDestination,
      customPayload: body.customPayload,
      forwardPayload: body.forwardPayload,
    };
    const include: Block[] = [block];
    const prev = block.previous;
    const origin = prev === null ? null : tradeOrigin(block, body.newOwner, ctx);
    if (prev !== null && origin !== null && origin.nftAddress === nft.address && origin.realPrevOwner !== data.newOwner) {
      data.isPurchase = true;
      data.marketplace = "getgems";
      data.marketplaceAddress = origin.marketplaceAddress;
      data.price = origin.price;
      data.realPrevOwner = origin.realPrevOwner;
      if (prev instanceof TonTransferBlock) {
        if (prev.comment === null || !AUCTION_END_COMMENTS.includes(prev.comment)) include.push(prev);
      } else if (prev instanceof CallContractBlock && prev.isExternal) include.push(prev);
    }
    include.push(...others);
    const built = new NftTransferBlock(data);
    built.mergeBlocks(include);
    built.failed = block.failed;
    return [built];
  }
}

/** An ownership_assigned no transfer came before: a Fragment auction's end (or a mint) hands the item over. */
export class TelegramNftPurchaseMatcher extends BlockMatcher {
  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === NFT_OPCODES.nft_ownership_assigned;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const body = readOwnershipAssigned(node.message!);
    const nft = nftRef(ctx, node.source);
    if (nft === null) return [];
    const data: NftTransferData = { ...emptyTransferData(nft), newOwner: node.destination, prevOwner: body.prevOwner, queryId: body.queryId, forwardPayload: body.forwardPayload };
    const include: Block[] = [block];
    if (body.bidInfo !== null) {
      data.isPurchase = true;
      data.price = body.bidInfo.bid;
      data.marketplace = "fragment";
      const prev = block.previous;
      if ((prev instanceof CallContractBlock && prev.opcode === TELEITEM_OPCODES.deploy) || prev instanceof NftMintBlock) data.isPurchase = false;
      if (prev instanceof TonTransferBlock || (prev instanceof CallContractBlock && prev.isExternal)) {
        // the item pays out with auction_fill_up messages: the first is the royalty when there are two
        const payouts = prev.next.filter((b): b is CallContractBlock => b instanceof CallContractBlock && b.opcode === DNS_OPCODES.auction_fill_up);
        payouts.sort((a, b) => (a.node.lt < b.node.lt ? -1 : a.node.lt > b.node.lt ? 1 : 0));
        if (payouts.length > 1) {
          data.royaltyAmount = payouts[0].value;
          data.payoutAmount = payouts[1].value;
          data.royaltyAddress = payouts[0].destination;
          data.payoutAddress = payouts[1].destination;
        } else if (payouts.length === 1) {
          data.payoutAddress = payouts[0].destination;
          data.payoutAmount = payouts[0].value;
        }
        include.push(...payouts, prev);
      }
    }
    include.push(...others);
    const built = new NftTransferBlock(data);
    built.mergeBlocks(include);
    return [built];
  }
}
