// Message bodies the scenarios send to the getgems sale and auction (v3r3) and to telemint's
// collection, which @tongate/contracts has no storers of (their storages are the package's).
// Layouts: getgems-io/nft-contracts sources/nft-fixprice-sale-v3r3.fc, nft-auction-v3r3.func;
// TelegramMessenger/telemint telemint.tlb, func/common.fc.
import { beginCell, type Builder, type Cell } from "@ton/core";
import { storeNftRoyaltyParams, storeTelemintText, storeTeleitemAuctionConfig, storeTextComment, type NftRoyaltyParams, type TeleitemAuctionConfig } from "@tongate/contracts";

/** The sale's opcodes (a buy carries the price plus at least 0.1 TON). */
export const GETGEMS_SALE_OPS = { acceptCoins: 1, buy: 2, cancel: 3 } as const;

/** op:uint32 query_id:uint64: the sale's accept_coins (its deploy), buy and cancel. */
export const storeGetgemsSaleOp = (op: number, queryId: bigint) => (b: Builder) => b.storeUint(op, 32).storeUint(queryId, 64);

/**
 * The auction's commands are text comments: "deploy" (accept coins), "stop" (settle once ended),
 * "cancel"; a bid is any other message with enough TON.
 */
export const getgemsAuctionCommand = (command: "deploy" | "stop" | "cancel"): Cell => beginCell().store(storeTextComment({ text: command })).endCell();

/**
 * telemint_unsigned_deploy$_ subwallet_id:uint32 valid_since:uint32 valid_till:uint32
 * token_name:TelemintText content:^Cell auction_config:^TeleitemAuctionConfig
 * royalty_params:(Maybe ^NftRoyaltyParams): what the collection's key signs.
 */
export interface TelemintUnsignedDeploy {
  subwalletId: number;
  validSince: number;
  validTill: number;
  tokenName: Buffer;
  content: Cell;
  auctionConfig: TeleitemAuctionConfig;
  royaltyParams: NftRoyaltyParams | null;
}

export const storeTelemintUnsignedDeploy = (src: TelemintUnsignedDeploy) => (b: Builder) =>
  b
    .storeUint(src.subwalletId, 32)
    .storeUint(src.validSince, 32)
    .storeUint(src.validTill, 32)
    .store(storeTelemintText(src.tokenName))
    .storeRef(src.content)
    .storeRef(beginCell().store(storeTeleitemAuctionConfig(src.auctionConfig)))
    .storeMaybeRef(src.royaltyParams ? beginCell().store(storeNftRoyaltyParams(src.royaltyParams)) : null);

export const TELEMINT_MSG_DEPLOY = 0x4637289a;

/** telemint_msg_deploy#4637289a sig:bits512 msg:TelemintUnsignedDeploy; `signature` signs the hash of `unsigned`'s cell. */
export const storeTelemintMsgDeploy = (signature: Buffer, unsigned: Cell) => (b: Builder) => b.storeUint(TELEMINT_MSG_DEPLOY, 32).storeBuffer(signature, 64).storeSlice(unsigned.beginParse());
