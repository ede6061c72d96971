// The terms of a getgems sale or auction, read from the StateInit that deployed it (toncenter's
// get_sale_data / get_auction_data): the code hash picks the data layout, an unknown code is read
// as the newest layout toncenter assumes (sale v4r1, auction v3r3).
import { Cell, loadStateInit, type Slice } from "@ton/core";
import {
  loadGetgemsAuctionV1Storage,
  loadGetgemsAuctionV2Storage,
  loadGetgemsAuctionV3R3Storage,
  loadGetgemsAuctionV4Storage,
  loadGetgemsSaleV1Storage,
  loadGetgemsSaleV2Storage,
  loadGetgemsSaleV4Storage,
  NFT_CODE_HASHES,
  type GetgemsAuctionFees,
} from "@tongate/contracts";
import { rawAddress } from "../../engine/cells.js";

export interface SaleTerms {
  marketplaceAddress: string | null;
  fullPrice: bigint;
  marketplaceFeeAddress: string | null;
  /** null for v4r1 sales (they keep a percentage) */
  marketplaceFee: bigint | null;
  royaltyAddress: string | null;
  royaltyAmount: bigint | null;
}

export interface AuctionTerms {
  marketplaceFeeAddress: string | null;
  marketplaceFeeFactor: bigint;
  marketplaceFeeBase: bigint;
  royaltyAddress: string | null;
  royaltyFeeBase: bigint;
  minBid: bigint;
  maxBid: bigint;
}

function initData(initStateBoc: string): { codeHash: string | null; data: Slice } {
  const init = loadStateInit(Cell.fromBase64(initStateBoc).beginParse());
  if (!init.data) throw new Error("the StateInit has no data");
  return { codeHash: init.code ? init.code.hash().toString("base64") : null, data: init.data.beginParse() };
}

const H = NFT_CODE_HASHES;

export function saleTerms(initStateBoc: string): SaleTerms {
  const { codeHash, data } = initData(initStateBoc);
  if (codeHash === H.nft_sale_getgems_v1 || codeHash === H.nft_sale_getgems_v2 || codeHash === H.nft_sale_getgems_v3 || codeHash === H.nft_sale_getgems_v3r2 || codeHash === H.nft_sale_getgems_v3r3) {
    // v2 and v3.x share v2's leading fields; v1 orders the fee cell differently (its loader knows)
    const st = codeHash === H.nft_sale_getgems_v1 ? loadGetgemsSaleV1Storage(data) : loadGetgemsSaleV2Storage(data);
    const f = st.fees;
    return { marketplaceAddress: rawAddress(st.marketplaceAddress), fullPrice: st.fullPrice, marketplaceFeeAddress: rawAddress(f.marketplaceFeeAddress), marketplaceFee: f.marketplaceFee, royaltyAddress: rawAddress(f.royaltyAddress), royaltyAmount: f.royaltyAmount };
  }
  const st = loadGetgemsSaleV4Storage(data);
  return { marketplaceAddress: rawAddress(st.marketplaceAddress), fullPrice: st.fullPrice, marketplaceFeeAddress: rawAddress(st.staticData.marketplaceFeeAddress), marketplaceFee: null, royaltyAddress: rawAddress(st.staticData.royaltyAddress), royaltyAmount: null };
}

const auctionOf = (fees: GetgemsAuctionFees, minBid: bigint, maxBid: bigint): AuctionTerms => ({
  marketplaceFeeAddress: rawAddress(fees.marketplaceFeeAddress),
  marketplaceFeeFactor: BigInt(fees.marketplaceFeeFactor),
  marketplaceFeeBase: BigInt(fees.marketplaceFeeBase),
  royaltyAddress: rawAddress(fees.royaltyAddress),
  royaltyFeeBase: BigInt(fees.royaltyBase),
  minBid,
  maxBid,
});

export function auctionTerms(initStateBoc: string): AuctionTerms {
  const { codeHash, data } = initData(initStateBoc);
  switch (codeHash) {
    case H.nft_auction_getgems_v1: {
      const st = loadGetgemsAuctionV1Storage(data);
      return auctionOf(st.fees, st.bids.minBid, st.bids.maxBid);
    }
    case H.nft_auction_getgems_v2:
    case H.nft_auction_getgems_v3r2: {
      const st = loadGetgemsAuctionV2Storage(data);
      return auctionOf(st.fees, st.constants.minBid, st.constants.maxBid);
    }
    case H.nft_auction_getgems_v4r1: {
      const st = loadGetgemsAuctionV4Storage(data);
      return auctionOf(st.fees, st.constants.minBid, st.constants.maxBid);
    }
    default: {
      const st = loadGetgemsAuctionV3R3Storage(data);
      return auctionOf(st.fees, st.constants.minBid, st.constants.maxBid);
    }
  }
}
