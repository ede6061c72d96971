// A getgems NFT collection's life on real contract code: the editable collection and its items
// (getgems nft_item), one item minted alone and four in a batch, transfers with a comment and with
// binary data, two fixed-price sales v3r3 (one bought, one left open) and two auctions v3r3 (one
// bid on, ended by moving localnet's clock and settled, one left running with a bid). What it
// returns is read back from the chain.
import { beginCell, Dictionary, toNano, type Address, type Builder, type Cell, type Slice, type Transaction } from "@ton/core";
import {
  NFT_OPCODES,
  readCollectionData,
  readNftAddressByIndex,
  readNftAuctionData,
  readNftContent,
  readNftData,
  readNftSaleData,
  readRoyaltyParams,
  storeGetgemsAuctionV3R3Storage,
  storeGetgemsSaleV3R3Storage,
  storeNftCollectionStorage,
  storeNftTransfer,
  storeTextComment,
  type EitherCell,
  type NftAuctionData,
  type NftRoyaltyParams,
  type NftSaleData,
} from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { onchainContent, snake } from "../contracts/index.js";
import type { LocalnetSender } from "../localnet-deploy.js";
import { accountNow, getMethod, inBody, inSource, intArg, txByInternalFrom, txByOp, txRef, type Actors, type Block, type TxRef } from "./chain.js";
import { fixtureCode, type FixtureContract } from "./fixtures.js";
import { commentOf } from "./jettons.js";
import { GETGEMS_SALE_OPS, getgemsAuctionCommand, storeGetgemsSaleOp } from "./storers.js";

/** A collection as get_collection_data and royalty_params answer. */
export interface NftCollectionState {
  address: Address;
  contract: FixtureContract;
  nextItemIndex: bigint;
  /** TEP-64 content. */
  content: Cell;
  owner: Address | null;
  /** null: the collection has no royalty_params get-method. */
  royalty: NftRoyaltyParams | null;
}

/** An item as get_nft_data answers, with the full content its collection's get_nft_content makes of it. */
export interface NftItemState {
  address: Address;
  contract: FixtureContract;
  init: boolean;
  index: bigint;
  collection: Address | null;
  owner: Address | null;
  individualContent: Cell | null;
  /** get_nft_content(index, individual content) of the collection. */
  content: Cell | null;
  /** Whether the collection's get_nft_address_by_index(index) names this item. */
  confirmed: boolean;
}

/** A TEP-62 transfer: the item's transaction on an nft_transfer from its owner (a wallet, a sale, an auction). */
export interface NftTransferEvent {
  tx: TxRef;
  item: Address;
  collection: Address | null;
  queryId: bigint;
  /** The sender, which the item checked is its owner. */
  oldOwner: Address;
  newOwner: Address;
  responseDestination: Address | null;
  customPayload: Cell | null;
  forwardAmount: bigint;
  /** The ref when sent in a ref, else the rest of the body after the Either bit (null: no Either bit). */
  forwardPayload: Cell | null;
  comment: string | null;
  body: Cell;
}

export interface GetgemsSale {
  address: Address;
  contract: FixtureContract;
  item: Address;
  seller: Address;
  /** get_sale_data at the end. */
  data: NftSaleData;
  /** The buyer's buy on the sale, a plain transfer (undefined: still open). */
  buy?: { tx: TxRef; buyer: Address; queryId: bigint };
}

export interface GetgemsAuction {
  address: Address;
  contract: FixtureContract;
  item: Address;
  seller: Address;
  /** Every bid's transaction on the auction, in order. */
  bids: { tx: TxRef; bidder: Address; amount: bigint }[];
  /** get_auction_data at the end. */
  data: NftAuctionData;
  /** The "stop" message that settled it (undefined: still running). */
  settle?: { tx: TxRef; winner: Address };
}

export interface GetgemsScenario {
  collection: NftCollectionState;
  /** Items 0 to 4, read back at the end. */
  items: NftItemState[];
  /** Every nft_transfer of the scenario in chain order: by owners, to and from the sales and auctions. */
  transfers: NftTransferEvent[];
  sales: { sold: GetgemsSale; open: GetgemsSale };
  auctions: { settled: GetgemsAuction; open: GetgemsAuction };
}

const COMMON_CONTENT = "https://example.org/scenario-nft/";
const SALE_CONTRACT: FixtureContract = "nft_sale_getgems_v3r3";
const AUCTION_CONTRACT: FixtureContract = "nft_auction_getgems_v3r3";

/**
 * Runs the collection's life. Owners at the end: item 0 bob (from alice), 1 on the open auction
 * (carol's), 2 bob (bought from alice), 3 on the open sale (bob's), 4 bob (won from carol).
 */
export async function getgemsScenario(net: Localnet, actors: Actors, o: { commonContent?: string } = {}): Promise<GetgemsScenario> {
  const { admin, alice, bob, carol } = actors;
  const royalty = { numerator: 5, denominator: 100, destination: admin.address };
  const data = beginCell()
    .store(
      storeNftCollectionStorage({
        ownerAddress: admin.address,
        nextItemIndex: 0n,
        content: { collectionContent: onchainContent({ name: "Scenario collection", description: "Items minted by the token scenarios", image: "https://example.org/scenario-nft.png" }), commonContent: snake(Buffer.from(o.commonContent ?? COMMON_CONTENT)) },
        nftItemCode: fixtureCode("nft_item"),
        royaltyParams: royalty,
      }),
    )
    .endCell();
  const collection = await admin.deploy({ code: fixtureCode("nft_collection_editable"), data }, toNano("1"));
  const itemAt = async (index: bigint) => readNftAddressByIndex(await getMethod(net, collection, "get_nft_address_by_index", [intArg(index)]))!;

  // item 0 alone, items 1 to 4 in one batch
  await admin.send({ to: collection, value: toNano("0.2"), body: beginCell().storeUint(1, 32).storeUint(1, 64).storeUint(0, 64).storeCoins(toNano("0.1")).storeRef(itemInit(alice.address, "0.json")).endCell() });
  const batch = Dictionary.empty(Dictionary.Keys.BigUint(64), BATCH_ITEM);
  for (const [i, owner] of [bob, alice, bob, carol].entries()) batch.set(BigInt(i + 1), { amount: toNano("0.1"), init: itemInit(owner.address, `${i + 1}.json`) });
  await admin.send({ to: collection, value: toNano("1"), body: beginCell().storeUint(2, 32).storeUint(2, 64).storeDict(batch).endCell() });
  const items = await Promise.all([0n, 1n, 2n, 3n, 4n].map(itemAt));

  const transfers: NftTransferEvent[] = [];
  const send = async (from: LocalnetSender, item: Address, o: NftTransferOrder) => {
    const t = await nftTransfer(net, from, item, collection, o);
    transfers.push(t);
    return t;
  };
  await send(alice, items[0]!, { queryId: 10n, newOwner: bob.address, responseTo: alice.address, forwardAmount: toNano("0.01"), forwardPayload: { cell: beginCell().store(storeTextComment({ text: "item 0, from alice to bob" })).endCell(), inRef: false } });
  await send(bob, items[1]!, { queryId: 11n, newOwner: carol.address, responseTo: bob.address, forwardAmount: toNano("0.02"), forwardPayload: { cell: beginCell().storeUint(0xc0ffee, 32).storeBuffer(Buffer.from("binary")).endCell(), inRef: true } });

  // fixed-price sales: alice sells item 2 to bob; bob puts item 3 up and it stays there
  const sold = await openSale(net, admin, alice, items[2]!, toNano("1"), 20n, send);
  // a plain transfer of the price, as getgems' app buys (the sale takes an empty body as its buy;
  // toncenter names a purchase only after such a transfer)
  const buyBlock = await bob.send({ to: sold.address, value: toNano("1") + toNano("0.2"), body: beginCell().endCell() });
  const buyTx = txByInternalFrom(buyBlock, sold.address, bob.address);
  transfers.push(nftTransferEvent(net, buyBlock, txByOp(buyBlock, items[2]!, NFT_OPCODES.nft_transfer), collection));
  const open = await openSale(net, admin, bob, items[3]!, toNano("2"), 30n, send);

  // auctions: carol auctions item 4, alice and bob bid, the clock passes its end and carol settles it;
  // carol's item 1 goes on an auction that alice bids on and that is still running at the end
  const settled = await openAuction(net, admin, carol, items[4]!, 600, 40n, send);
  const bids = [await bid(net, alice, settled.address, toNano("1")), await bid(net, bob, settled.address, toNano("1.2"))];
  const endTime = readNftAuctionData(await getMethod(net, settled.address, "get_auction_data")).endTime;
  net.advanceTime(Math.max(0, endTime - net.now() + 1));
  const settleBlock = await carol.send({ to: settled.address, value: toNano("0.2"), body: getgemsAuctionCommand("stop") });
  const settleTx = txByOp(settleBlock, settled.address, 0);
  transfers.push(nftTransferEvent(net, settleBlock, txByOp(settleBlock, items[4]!, NFT_OPCODES.nft_transfer), collection));
  const running = await openAuction(net, admin, carol, items[1]!, 86_400, 50n, send);
  const runningBid = await bid(net, alice, running.address, toNano("1"));

  return {
    collection: await nftCollectionState(net, collection),
    items: await Promise.all(items.map((a) => nftItemState(net, a))),
    transfers,
    sales: {
      sold: { ...sold, data: await saleData(net, sold.address), buy: { tx: txRef(net, buyBlock, buyTx), buyer: bob.address, queryId: 0n } },
      open: { ...open, data: await saleData(net, open.address) },
    },
    auctions: {
      settled: { ...settled, bids, data: await auctionData(net, settled.address), settle: { tx: txRef(net, settleBlock, settleTx), winner: bob.address } },
      open: { ...running, bids: [runningBid], data: await auctionData(net, running.address) },
    },
  };
}

/** What the collection sends a new item: owner_address:MsgAddress content:^Cell (its part of the URI). */
const itemInit = (owner: Address, content: string) => beginCell().storeAddress(owner).storeRef(snake(Buffer.from(content))).endCell();

/** A batch deploy's entry: amount:Coins init:^Cell. */
const BATCH_ITEM = {
  serialize: (v: { amount: bigint; init: Cell }, b: Builder) => {
    b.storeCoins(v.amount).storeRef(v.init);
  },
  parse: (s: Slice) => ({ amount: s.loadCoins(), init: s.loadRef() }),
};

interface NftTransferOrder {
  queryId: bigint;
  newOwner: Address;
  responseTo: Address;
  forwardAmount: bigint;
  forwardPayload: EitherCell;
}

type Transfer = (from: LocalnetSender, item: Address, o: NftTransferOrder) => Promise<NftTransferEvent>;

async function nftTransfer(net: Localnet, from: LocalnetSender, item: Address, collection: Address, o: NftTransferOrder): Promise<NftTransferEvent> {
  const body = beginCell()
    .store(storeNftTransfer({ queryId: o.queryId, newOwner: o.newOwner, responseDestination: o.responseTo, customPayload: null, forwardAmount: o.forwardAmount, forwardPayload: o.forwardPayload }))
    .endCell();
  const block = await from.send({ to: item, value: o.forwardAmount + toNano("0.1"), body });
  const tx = txByOp(block, item, NFT_OPCODES.nft_transfer);
  if (!inBody(tx).equals(body)) throw new Error(`item ${item.toRawString()} got another body than the one sent`);
  if (o.forwardAmount > 0n) txByOp(block, o.newOwner, NFT_OPCODES.nft_ownership_assigned);
  return nftTransferEvent(net, block, tx, collection);
}

/** The event of an item's transaction on an nft_transfer, from the body the chain holds. */
export function nftTransferEvent(net: Localnet, block: Block, tx: Transaction, collection: Address | null): NftTransferEvent {
  const body = inBody(tx);
  const s = body.beginParse().skip(32);
  const queryId = s.loadUintBig(64);
  const newOwner = s.loadAddress();
  const responseDestination = s.loadMaybeAddress();
  const customPayload = s.loadMaybeRef();
  const forwardAmount = s.loadCoins();
  let forwardPayload: Cell | null = null;
  if (s.remainingBits > 0) forwardPayload = s.loadBit() ? s.loadRef() : s.asCell();
  const ref = txRef(net, block, tx);
  return { tx: ref, item: ref.account, collection, queryId, oldOwner: inSource(tx), newOwner, responseDestination, customPayload, forwardAmount, forwardPayload, comment: commentOf(forwardPayload), body };
}

/**
 * The marketplace (admin) deploys a v3r3 sale of `item` at `price` (5 % fee and 5 % royalty, to
 * the admin), and the seller transfers the item to it; the item's ownership_assigned names the seller.
 */
async function openSale(net: Localnet, marketplace: LocalnetSender, seller: LocalnetSender, item: Address, price: bigint, queryId: bigint, send: Transfer) {
  const fee = price / 20n;
  const data = beginCell()
    .store(
      storeGetgemsSaleV3R3Storage({
        isComplete: false,
        createdAt: net.now(),
        marketplaceAddress: marketplace.address,
        nftAddress: item,
        nftOwnerAddress: null,
        fullPrice: price,
        fees: { marketplaceFeeAddress: marketplace.address, marketplaceFee: fee, royaltyAddress: marketplace.address, royaltyAmount: fee },
        soldAt: 0,
        queryId: 0n,
      }),
    )
    .endCell();
  const address = await marketplace.deploy({ code: fixtureCode(SALE_CONTRACT), data }, toNano("0.1"), beginCell().store(storeGetgemsSaleOp(GETGEMS_SALE_OPS.acceptCoins, queryId)).endCell());
  await send(seller, item, { queryId: queryId + 1n, newOwner: address, responseTo: seller.address, forwardAmount: toNano("0.05"), forwardPayload: { cell: beginCell().endCell(), inRef: false } });
  const onSale = await saleData(net, address);
  if (!onSale.nftOwner?.equals(seller.address)) throw new Error(`sale ${address.toRawString()} did not take the item from its seller`);
  return { address, contract: SALE_CONTRACT, item, seller: seller.address };
}

/**
 * The marketplace (admin) deploys a v3r3 auction of `item` ending `duration` seconds from now (min
 * bid 1 TON, 5 % step, 5 % fee and 5 % royalty to the admin); the seller transfers the item to it.
 */
async function openAuction(net: Localnet, marketplace: LocalnetSender, seller: LocalnetSender, item: Address, duration: number, queryId: bigint, send: Transfer) {
  const now = net.now();
  const data = beginCell()
    .store(
      storeGetgemsAuctionV3R3Storage({
        end: false,
        isCanceled: false,
        lastMember: null,
        lastBid: 0n,
        lastBidAt: 0,
        endTime: now + duration,
        nftOwner: null,
        lastQueryId: 0n,
        fees: { marketplaceFeeAddress: marketplace.address, marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: marketplace.address, royaltyFactor: 5, royaltyBase: 100 },
        constants: { marketplaceAddress: marketplace.address, minBid: toNano("1"), maxBid: 0n, minStep: 5, stepTime: 60, nftAddress: item, createdAt: now },
      }),
    )
    .endCell();
  const address = await marketplace.deploy({ code: fixtureCode(AUCTION_CONTRACT), data }, toNano("0.1"), getgemsAuctionCommand("deploy"));
  await send(seller, item, { queryId, newOwner: address, responseTo: seller.address, forwardAmount: toNano("0.05"), forwardPayload: { cell: beginCell().endCell(), inRef: false } });
  const a = await auctionData(net, address);
  if (!a.activated || !a.nftOwner?.equals(seller.address)) throw new Error(`auction ${address.toRawString()} did not take the item from its seller`);
  return { address, contract: AUCTION_CONTRACT, item, seller: seller.address };
}

/** A bid: a message without a body carrying the amount. */
async function bid(net: Localnet, bidder: LocalnetSender, auction: Address, amount: bigint) {
  const block = await bidder.send({ to: auction, value: amount, body: beginCell().endCell() });
  const tx = txByInternalFrom(block, auction, bidder.address);
  const last = readNftAuctionData(await getMethod(net, auction, "get_auction_data"));
  if (!last.lastMember?.equals(bidder.address)) throw new Error(`auction ${auction.toRawString()} did not take the bid of ${bidder.address.toRawString()}`);
  return { tx: txRef(net, block, tx), bidder: bidder.address, amount: last.lastBid };
}

const saleData = async (net: Localnet, sale: Address) => readNftSaleData(await getMethod(net, sale, "get_sale_data"));
const auctionData = async (net: Localnet, auction: Address) => readNftAuctionData(await getMethod(net, auction, "get_auction_data"));

/** A collection's get_collection_data, and royalty_params when it has them (getgems; telemint's items hold theirs). */
export async function nftCollectionState(net: Localnet, collection: Address): Promise<NftCollectionState> {
  const d = readCollectionData(await getMethod(net, collection, "get_collection_data"));
  const contract: FixtureContract = accountNow(net, collection).code?.equals(fixtureCode("telemint_collection")) ? "telemint_collection" : "nft_collection_editable";
  const royalty = contract === "nft_collection_editable" ? readRoyaltyParams(await getMethod(net, collection, "royalty_params")) : null;
  return { address: collection, contract, nextItemIndex: d.nextItemIndex, content: d.content, owner: d.owner, royalty };
}

/** An item's get_nft_data, its full content from its collection, and whether the collection names it. */
export async function nftItemState(net: Localnet, item: Address): Promise<NftItemState> {
  const d = readNftData(await getMethod(net, item, "get_nft_data"));
  const code = accountNow(net, item).code;
  const contract: FixtureContract = code?.equals(fixtureCode("telemint_item")) ? "telemint_item" : "nft_item";
  let content: Cell | null = d.individualContent;
  let confirmed = false;
  if (d.collection && accountNow(net, d.collection).status === "active") {
    if (d.individualContent) content = readNftContent(await getMethod(net, d.collection, "get_nft_content", [intArg(d.index), { type: "cell", cell: d.individualContent }]));
    confirmed = readNftAddressByIndex(await getMethod(net, d.collection, "get_nft_address_by_index", [intArg(d.index)]))?.equals(item) ?? false;
  }
  return { address: item, contract, init: d.init, index: d.index, collection: d.collection, owner: d.owner, individualContent: d.individualContent, content, confirmed };
}
