// A getgems listing's terms from the StateInit that deployed the sale or auction: every code
// version's data layout (real codes from the contract fixtures) gives the same price, fees and bids.
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, storeStateInit, type Builder } from "@ton/core";
import {
  storeGetgemsAuctionV1Storage,
  storeGetgemsAuctionV2Storage,
  storeGetgemsAuctionV3R3Storage,
  storeGetgemsSaleV1Storage,
  storeGetgemsSaleV2Storage,
  storeGetgemsSaleV3R3Storage,
  storeGetgemsSaleV4Storage,
} from "@tongate/contracts";
import { describe, expect, it } from "vitest";
import { auctionTerms, saleTerms } from "../../src/matchers/auction/getgems-state.js";
import { addr } from "./trace-builder.js";

const cellOf = (f: (b: Builder) => void): Cell => beginCell().store(f).endCell();
const code = (name: string): Cell => Cell.fromBoc(readFileSync(new URL(`../../../../../shared/fixtures/contracts/${name}.code.boc`, import.meta.url)))[0];
const init = (name: string, data: Cell) => cellOf(storeStateInit({ code: code(name), data })).toBoc().toString("base64");

const MP = addr(1);
const NFT = addr(2);
const FEE = addr(3);
const ROYALTY = addr(4);
const A = (s: string) => Address.parse(s);
const saleFees = { marketplaceFeeAddress: A(FEE), marketplaceFee: 5n, royaltyAddress: A(ROYALTY), royaltyAmount: 7n };
const saleV2 = { isComplete: false, createdAt: 1, marketplaceAddress: A(MP), nftAddress: A(NFT), nftOwnerAddress: null, fullPrice: 100n, fees: saleFees };
const full = { marketplaceAddress: MP, fullPrice: 100n, marketplaceFeeAddress: FEE, marketplaceFee: 5n, royaltyAddress: ROYALTY, royaltyAmount: 7n };

describe("getgems sale terms", () => {
  it("v1 (fees in another order)", () => {
    expect(saleTerms(init("nft_sale_getgems_v1", cellOf(storeGetgemsSaleV1Storage({ marketplaceAddress: A(MP), nftAddress: A(NFT), nftOwnerAddress: null, fullPrice: 100n, fees: saleFees }))))).toEqual(full);
  });

  it("v2 and v3r3", () => {
    expect(saleTerms(init("nft_sale_getgems_v2", cellOf(storeGetgemsSaleV2Storage(saleV2))))).toEqual(full);
    expect(saleTerms(init("nft_sale_getgems_v3r3", cellOf(storeGetgemsSaleV3R3Storage({ ...saleV2, soldAt: 0, queryId: 0n }))))).toEqual(full);
  });

  it("v4r1 keeps percentages: the amounts are unknown", () => {
    const data = cellOf(
      storeGetgemsSaleV4Storage({
        isComplete: false,
        marketplaceAddress: A(MP),
        nftOwnerAddress: null,
        fullPrice: 100n,
        soldAt: 0,
        soldQueryId: 0n,
        staticData: { marketplaceFeeAddress: A(FEE), royaltyAddress: A(ROYALTY), marketplaceFeePercent: 5000, royaltyPercent: 10000, nftAddress: A(NFT), createdAt: 1 },
        jettonPrices: null,
      }),
    );
    expect(saleTerms(init("nft_sale_getgems_v4r1", data))).toEqual({ ...full, marketplaceFee: null, royaltyAmount: null });
  });
});

describe("getgems auction terms", () => {
  const fees = { marketplaceFeeAddress: A(FEE), marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: A(ROYALTY), royaltyFactor: 10, royaltyBase: 100 };
  const want = { marketplaceFeeAddress: FEE, marketplaceFeeFactor: 5n, marketplaceFeeBase: 100n, royaltyAddress: ROYALTY, royaltyFeeBase: 100n, minBid: 10n, maxBid: 90n };

  it("v1", () => {
    const bids = { minBid: 10n, maxBid: 90n, minStep: 1n, lastMember: null, lastBid: 0n, lastBidAt: 0, endTime: 2, stepTime: 3, tryStepTime: 4 };
    const data = cellOf(storeGetgemsAuctionV1Storage({ end: false, marketplaceAddress: A(MP), activated: false, createdAt: 1, isCanceled: false, fees, bids, nftOwner: null, nftAddress: A(NFT) }));
    expect(auctionTerms(init("nft_auction_getgems_v1", data))).toEqual(want);
  });

  it("v3r2", () => {
    const constants = { subGasPriceFromBid: 0, marketplaceAddress: A(MP), minBid: 10n, maxBid: 90n, minStep: 5n, stepTime: 300, nftAddress: A(NFT), createdAt: 1 };
    const data = cellOf(storeGetgemsAuctionV2Storage({ end: false, activated: false, isCanceled: false, lastMember: null, lastBid: 0n, lastBidAt: 0, endTime: 2, nftOwner: null, fees, constants }));
    expect(auctionTerms(init("nft_auction_getgems_v3r2", data))).toEqual(want);
  });

  it("v3r3, also for an auction code toncenter does not know", () => {
    const constants = { marketplaceAddress: A(MP), minBid: 10n, maxBid: 90n, minStep: 5, stepTime: 300, nftAddress: A(NFT), createdAt: 1 };
    const data = cellOf(storeGetgemsAuctionV3R3Storage({ end: false, isCanceled: false, lastMember: null, lastBid: 0n, lastBidAt: 0, endTime: 2, nftOwner: null, lastQueryId: 0n, fees, constants }));
    expect(auctionTerms(init("nft_auction_getgems_v3r3", data))).toEqual(want);
    expect(auctionTerms(cellOf(storeStateInit({ code: beginCell().storeUint(7, 8).endCell(), data })).toBoc().toString("base64"))).toEqual(want);
  });
});
