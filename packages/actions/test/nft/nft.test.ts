// NFT actions on traces built from real message bodies (TEP-62, getgems sales and auctions, Fragment
// teleitems), for the flows toncenter's fixture traces do not cover: what an explorer would show
// for each — its type, who, which item, and the terms of a listing.
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, storeStateInit, type Builder } from "@ton/core";
import { classifyTrace, relatedAddresses, type ActionRow, type ContractFacts } from "@tongate/actions";
import {
  storeGetgemsAuctionV4Storage,
  storeGetgemsSaleV3R3Storage,
  storeNftOwnershipAssigned,
  storeNftTransfer,
  storeReportStaticData,
  storeTeleitemAuctionConfig,
} from "@tongate/contracts";
import { describe, expect, it } from "vitest";
import { addr, comment, TraceBuilder } from "./trace-builder.js";

const A = (s: string) => Address.parse(s);
const cellOf = (f: (b: Builder) => void): Cell => beginCell().store(f).endCell();
const code = (name: string): Cell => Cell.fromBoc(readFileSync(new URL(`../../../../../shared/fixtures/contracts/${name}.code.boc`, import.meta.url)))[0];
const stateInit = (codeCell: Cell, data: Cell): Cell => cellOf(storeStateInit({ code: codeCell, data }));
const payloadBoc = (c: Cell) => c.toBoc({ idx: false, crc32: true }).toString("base64");

const OWNER = addr(1);
const ITEM = addr(2);
const BUYER = addr(3);
const MARKETPLACE = addr(4);
const SALE = addr(5);
const COLLECTION = addr(6);
const FEE = addr(7);
const ROYALTY = addr(8);
const GETGEMS = "0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18";

const item = (address: string, index: bigint, uri?: string): ContractFacts => ({
  nftItem: { address, init: true, index, collectionAddress: COLLECTION, ownerAddress: null, content: uri ? { uri } : null },
});

const transferBody = (newOwner: string, response: string | null, payload: Cell | null, queryId = 5n) =>
  cellOf(storeNftTransfer({ queryId, newOwner: A(newOwner), responseDestination: response ? A(response) : null, customPayload: null, forwardAmount: 10_000_000n, forwardPayload: payload ? { cell: payload, inRef: true } : null }));
const assignedBody = (prevOwner: string | null, payload: Cell, queryId = 5n) => cellOf(storeNftOwnershipAssigned({ queryId, prevOwner: prevOwner ? A(prevOwner) : null, forwardPayload: { cell: payload, inRef: false } }));
const excess = (queryId = 5n) => beginCell().storeUint(0xd53276db, 32).storeUint(queryId, 64).endCell();

/** An owner's wallet moves the item: transfer, ownership_assigned to the new owner, excess back. */
function transferFlow(t: TraceBuilder, from: string, to: string, payload: Cell | null) {
  const wallet = t.external(from);
  const itemTx = t.send(wallet, ITEM, { body: transferBody(to, from, payload) });
  const assigned = t.send(itemTx, to, { body: assignedBody(from, payload ?? beginCell().endCell()) });
  t.send(itemTx, from, { body: excess() });
  return { wallet, itemTx, assigned };
}

function only(actions: ActionRow[], type: string): ActionRow {
  const found = actions.filter((a) => a.type === type);
  expect(found, `${type} among ${actions.map((a) => a.type).join(", ")}`).toHaveLength(1);
  return found[0];
}

describe("nft actions", () => {
  it("nft_transfer: old and new owner, the item and its collection, the forward payload as toncenter stores it", () => {
    const t = new TraceBuilder().know(ITEM, item(ITEM, 17n));
    const payload = comment("for you");
    const { assigned } = transferFlow(t, OWNER, BUYER, payload);
    const { trace, lookup } = t.build();
    const r = classifyTrace(trace, lookup);
    expect(r.state).toBe("ok");
    const a = only(r.actions, "nft_transfer");
    expect(a).toMatchObject({ source: OWNER, destination: BUYER, asset: COLLECTION, asset_secondary: ITEM, success: true });
    expect(a.nft_transfer_data).toMatchObject({ query_id: 5n, is_purchase: false, price: null, nft_item_index: 17n, forward_amount: 10_000_000n, forward_payload: payloadBoc(payload), response_destination: OWNER, marketplace: null });
    expect(a.tx_hashes).toContain(assigned.hash);
    expect(new Set(a.accounts)).toEqual(new Set([OWNER, ITEM, BUYER]));
  });

  it("a transfer of an item the facts do not know is no nft_transfer", () => {
    const t = new TraceBuilder();
    transferFlow(t, OWNER, BUYER, null);
    const { trace, lookup } = t.build();
    expect(classifyTrace(trace, lookup).actions.map((a) => a.type)).not.toContain("nft_transfer");
  });

  it("nft_mint: a collection deploys an item", () => {
    const ITEM2 = addr(20);
    const t = new TraceBuilder().know(ITEM2, item(ITEM2, 42n));
    const wallet = t.external(OWNER);
    const collection = t.send(wallet, COLLECTION, { body: beginCell().storeUint(1, 32).storeUint(0, 64).endCell() });
    t.send(collection, ITEM2, { body: beginCell().storeUint(0, 64).endCell(), init: stateInit(beginCell().storeUint(1, 8).endCell(), beginCell().endCell()) });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_mint");
    expect(a).toMatchObject({ source: COLLECTION, destination: ITEM2, asset: COLLECTION, asset_secondary: ITEM2 });
    expect(a.nft_mint_data).toEqual({ nft_item_index: 42n });
  });

  it("nft_discovery: get_static_data answered by report_static_data", () => {
    const t = new TraceBuilder().know(ITEM, item(ITEM, 3n));
    const wallet = t.external(OWNER);
    const itemTx = t.send(wallet, ITEM, { body: beginCell().storeUint(0x2fcb26a2, 32).storeUint(9, 64).endCell() });
    t.send(itemTx, OWNER, { body: cellOf(storeReportStaticData({ queryId: 9n, index: 3n, collection: A(COLLECTION) })) });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_discovery");
    expect(a).toMatchObject({ source: OWNER, asset: COLLECTION, asset_secondary: ITEM });
    expect(a.nft_transfer_data).toEqual({ nft_item_index: 3n });
  });

  it("a Fragment auction's end: ownership_assigned with the bid is a purchase, the fill-ups are royalty and payout", () => {
    const TELEITEM = addr(30);
    const t = new TraceBuilder().know(TELEITEM, item(TELEITEM, 99n, "https://nft.fragment.com/username/someone.json"));
    const wallet = t.external(BUYER);
    const itemTx = t.send(wallet, TELEITEM, { value: 5_000_000_000n });
    const bidInfo = beginCell().storeUint(0x38127de1, 32).storeCoins(5_000_000_000n).storeUint(1_700_000_000, 32).endCell();
    t.send(itemTx, BUYER, { body: assignedBody(null, bidInfo, 0n) });
    t.send(itemTx, ROYALTY, { value: 250_000_000n, body: beginCell().storeUint(0x370fec51, 32).storeUint(0, 64).endCell() });
    t.send(itemTx, FEE, { value: 4_750_000_000n, body: beginCell().storeUint(0x370fec51, 32).storeUint(0, 64).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_transfer");
    expect(a).toMatchObject({ destination: BUYER, asset_secondary: TELEITEM });
    expect(a.nft_transfer_data).toMatchObject({ is_purchase: true, price: 5_000_000_000n, marketplace: "fragment", royalty_amount: 250_000_000n, payout_amount: 4_750_000_000n });
    expect(a.nft_listing_data).toEqual({ marketplace_fee_address: FEE, royalty_address: ROYALTY });
  });
});

describe("getgems sales and auctions", () => {
  /** The owner lists the item: transfer to the marketplace, which deploys `contract` and moves the item there. */
  function listing(t: TraceBuilder, contract: string, init: Cell) {
    const { assigned } = transferFlow(t, OWNER, MARKETPLACE, beginCell().storeUint(1, 32).endCell());
    t.send(assigned, contract, { value: 100_000_000n, init });
    const moveTx = t.send(assigned, ITEM, { body: transferBody(contract, MARKETPLACE, null, 6n) });
    t.send(moveTx, contract, { body: assignedBody(MARKETPLACE, beginCell().endCell(), 6n) });
  }

  it("nft_put_on_sale: the sale's price, fees and royalty from its StateInit (sale v3r3)", () => {
    const fees = { marketplaceFeeAddress: A(FEE), marketplaceFee: 50_000_000n, royaltyAddress: A(ROYALTY), royaltyAmount: 100_000_000n };
    const data = cellOf(storeGetgemsSaleV3R3Storage({ isComplete: false, createdAt: 1, marketplaceAddress: A(GETGEMS), nftAddress: A(ITEM), nftOwnerAddress: null, fullPrice: 2_000_000_000n, fees, soldAt: 0, queryId: 0n }));
    const t = new TraceBuilder()
      .know(ITEM, item(ITEM, 1n))
      .know(SALE, { nftSale: { address: SALE, marketplaceAddress: GETGEMS, nftAddress: ITEM, nftOwnerAddress: OWNER, fullPrice: 2_000_000_000n, isComplete: false } });
    listing(t, SALE, stateInit(code("nft_sale_getgems_v3r3"), data));
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_put_on_sale");
    expect(a).toMatchObject({ source: OWNER, source_secondary: MARKETPLACE, destination: SALE, asset: COLLECTION, asset_secondary: ITEM });
    expect(a.nft_transfer_data).toEqual({ marketplace_address: GETGEMS });
    expect(a.nft_listing_data).toMatchObject({ nft_item_index: 1n, full_price: 2_000_000_000n, marketplace_fee: 50_000_000n, royalty_amount: 100_000_000n, marketplace_fee_address: FEE, royalty_address: ROYALTY, marketplace: "getgems", min_bid: null });
  });

  it("nft_put_on_auction: min and max bid and the fee fractions (auction v4r1)", () => {
    const AUCTION = addr(40);
    const data = cellOf(
      storeGetgemsAuctionV4Storage({
        end: false,
        isCanceled: false,
        lastMember: null,
        lastBid: 0n,
        lastBidAt: 0,
        endTime: 1_800_000_000,
        nftOwner: null,
        lastQueryId: 0n,
        fees: { marketplaceFeeAddress: A(FEE), marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: A(ROYALTY), royaltyFactor: 10, royaltyBase: 100 },
        constants: { marketplaceAddress: A(GETGEMS), minBid: 1_000_000_000n, maxBid: 9_000_000_000n, minStep: 5, stepTime: 300, nftAddress: A(ITEM), createdAt: 1 },
        jetton: null,
      }),
    );
    const t = new TraceBuilder()
      .know(ITEM, item(ITEM, 1n))
      .know(AUCTION, { nftAuction: { address: AUCTION, marketplaceAddress: GETGEMS, nftAddress: ITEM, nftOwnerAddress: OWNER, lastBid: 0n } });
    listing(t, AUCTION, stateInit(code("nft_auction_getgems_v4r1"), data));
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_put_on_auction");
    expect(a).toMatchObject({ source: OWNER, source_secondary: MARKETPLACE, destination: AUCTION, asset_secondary: ITEM });
    expect(a.nft_listing_data).toMatchObject({ min_bid: 1_000_000_000n, max_bid: 9_000_000_000n, mp_fee_factor: 5n, mp_fee_base: 100n, royalty_fee_base: 100n, marketplace_fee_address: FEE, royalty_address: ROYALTY, full_price: null });
  });

  const saleFacts = (t: TraceBuilder) =>
    t.know(ITEM, item(ITEM, 1n)).know(SALE, { nftSale: { address: SALE, marketplaceAddress: GETGEMS, nftAddress: ITEM, nftOwnerAddress: OWNER, fullPrice: 2_000_000_000n, isComplete: false } });

  it("nft_cancel_sale: op 3 to the sale, the item comes back to its owner", () => {
    const t = saleFacts(new TraceBuilder());
    const wallet = t.external(OWNER);
    const saleTx = t.send(wallet, SALE, { body: beginCell().storeUint(3, 32).storeUint(0, 64).endCell() });
    const itemTx = t.send(saleTx, ITEM, { body: transferBody(OWNER, OWNER, null) });
    t.send(itemTx, OWNER, { body: assignedBody(SALE, beginCell().endCell()) });
    const { trace, lookup } = t.build();
    const actions = classifyTrace(trace, lookup).actions;
    const a = only(actions, "nft_cancel_sale");
    expect(a).toMatchObject({ source: OWNER, destination: SALE, asset: COLLECTION, asset_secondary: ITEM });
    expect(a.nft_transfer_data).toEqual({ marketplace_address: GETGEMS });
    expect(a.accounts).toContain(ITEM);
    // the return itself stays an nft_transfer of its own
    expect(only(actions, "nft_transfer")).toMatchObject({ source: SALE, destination: OWNER });
  });

  it("nft_update_sale: the new price and fees", () => {
    const t = saleFacts(new TraceBuilder());
    const wallet = t.external(OWNER);
    t.send(wallet, SALE, { body: beginCell().storeUint(0x6c6c2080, 32).storeUint(0, 64).storeCoins(3_000_000_000n).storeCoins(60_000_000n).storeCoins(120_000_000n).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "nft_update_sale");
    expect(a).toMatchObject({ source: OWNER, destination: SALE, asset_secondary: ITEM });
    expect(a.nft_listing_data).toEqual({ full_price: 3_000_000_000n, marketplace_fee: 60_000_000n, royalty_amount: 120_000_000n });
    expect(a.accounts).toContain(ITEM);
  });

  const AUCTION = addr(41);
  const auctionFacts = (t: TraceBuilder) => t.know(ITEM, item(ITEM, 1n)).know(AUCTION, { nftAuction: { address: AUCTION, marketplaceAddress: GETGEMS, nftAddress: ITEM, nftOwnerAddress: OWNER, lastBid: 1_000_000_000n } });

  it("auction_bid and auction_outbid: a higher bid returns the previous one", () => {
    const PREVIOUS = addr(42);
    const t = auctionFacts(new TraceBuilder());
    const wallet = t.external(BUYER);
    const auctionTx = t.send(wallet, AUCTION, { value: 2_000_000_000n });
    t.send(auctionTx, PREVIOUS, { value: 1_000_000_000n, body: comment("Your bid has been outbid by another user. It will be nice to see you again!") });
    const { trace, lookup } = t.build();
    const actions = classifyTrace(trace, lookup).actions;
    const bid = only(actions, "auction_bid");
    expect(bid).toMatchObject({ source: BUYER, destination: AUCTION, value: 2_000_000_000n, asset: COLLECTION, asset_secondary: ITEM });
    expect(bid.nft_transfer_data).toEqual({ nft_item_index: 1n, marketplace: "getgems" });
    const outbid = only(actions, "auction_outbid");
    expect(outbid).toMatchObject({ source: AUCTION, destination: PREVIOUS, source_secondary: BUYER, amount: 1_000_000_000n, asset_secondary: ITEM });
  });

  it("nft_finish_auction: a 'finish' comment ends the auction with a purchase and the seller's payout", () => {
    const WINNER = addr(43);
    const t = auctionFacts(new TraceBuilder());
    const wallet = t.external(OWNER);
    const auctionTx = t.send(wallet, AUCTION, { body: comment("finish") });
    const itemTx = t.send(auctionTx, ITEM, { body: transferBody(WINNER, OWNER, null) });
    const payout = t.send(auctionTx, OWNER, { value: 900_000_000n });
    t.send(itemTx, WINNER, { body: assignedBody(AUCTION, beginCell().endCell()) });
    const { trace, lookup } = t.build();
    const actions = classifyTrace(trace, lookup).actions;
    expect(only(actions, "nft_finish_auction")).toMatchObject({ source: WINNER, destination: AUCTION, asset_secondary: ITEM });
    const purchase = only(actions, "nft_purchase");
    expect(purchase).toMatchObject({ source: AUCTION, destination: WINNER, asset_secondary: ITEM });
    expect(purchase.nft_transfer_data).toMatchObject({ price: 1_000_000_000n, real_prev_owner: OWNER, payout_amount: 900_000_000n, marketplace: "getgems", marketplace_address: GETGEMS });
    expect(purchase.tx_hashes).toContain(payout.hash);
    // the transfer inside the purchase is published with it, as toncenter does
    const inner = only(actions, "nft_transfer");
    expect(inner.parent_action_id).toBe(purchase.action_id);
    expect(inner.ancestor_type).toEqual(["nft_purchase"]);
  });

  it("an auction's item is a related address: its facts are gathered in a second round", () => {
    expect(relatedAddresses({ nftAuction: { address: AUCTION, marketplaceAddress: GETGEMS, nftAddress: ITEM, nftOwnerAddress: OWNER, lastBid: 0n } })).toEqual([ITEM]);
    expect(relatedAddresses({})).toEqual([]);
  });

  it("nft_cancel_auction: a 'cancel' comment to the auction, the item comes back", () => {
    const t = auctionFacts(new TraceBuilder());
    const wallet = t.external(OWNER);
    const auctionTx = t.send(wallet, AUCTION, { body: comment("cancel") });
    const itemTx = t.send(auctionTx, ITEM, { body: transferBody(OWNER, OWNER, null) });
    t.send(itemTx, OWNER, { body: assignedBody(AUCTION, beginCell().endCell()) });
    const { trace, lookup } = t.build();
    const actions = classifyTrace(trace, lookup).actions;
    expect(only(actions, "nft_cancel_auction")).toMatchObject({ source: OWNER, destination: AUCTION, asset_secondary: ITEM });
    expect(actions.map((a) => a.type)).not.toContain("auction_bid");
  });
});

describe("Fragment teleitem auctions", () => {
  const TELEITEM = addr(50);
  const facts = (t: TraceBuilder) => t.know(TELEITEM, item(TELEITEM, 7n, "https://nft.fragment.com/number/88800000000.json"));
  const ok = () => beginCell().storeUint(0xa37a0983, 32).storeUint(1, 64).endCell();

  it("teleitem_start_auction: the owner's auction terms", () => {
    const t = facts(new TraceBuilder());
    const wallet = t.external(OWNER);
    const config = cellOf(storeTeleitemAuctionConfig({ beneficiaryAddress: A(FEE), initialMinBid: 10_000_000_000n, maxBid: 0n, minBidStep: 5, minExtendTime: 3600, duration: 86400 }));
    const itemTx = t.send(wallet, TELEITEM, { body: beginCell().storeUint(0x487a8e81, 32).storeUint(1, 64).storeRef(config).endCell() });
    t.send(itemTx, OWNER, { body: ok() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "teleitem_start_auction");
    expect(a).toMatchObject({ source: OWNER, destination: TELEITEM, asset_secondary: TELEITEM, source_secondary: null, success: true });
    expect(a.nft_listing_data).toMatchObject({ nft_item_index: 7n, min_bid: 10_000_000_000n, max_bid: 0n, marketplace_fee_address: FEE, marketplace: "fragment" });
  });

  it("teleitem_cancel_auction", () => {
    const t = facts(new TraceBuilder());
    const wallet = t.external(OWNER);
    const itemTx = t.send(wallet, TELEITEM, { body: beginCell().storeUint(0x371638ae, 32).storeUint(1, 64).endCell() });
    t.send(itemTx, OWNER, { body: ok() });
    const { trace, lookup } = t.build();
    expect(only(classifyTrace(trace, lookup).actions, "teleitem_cancel_auction")).toMatchObject({ source: OWNER, destination: TELEITEM, asset_secondary: TELEITEM });
  });
});
