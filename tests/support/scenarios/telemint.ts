// A telemint (Telegram usernames) item's life on real contract code: the collection with a key
// of the scenario's own, an item deployed by the collection on a deploy message signed with that
// key (its first bid opens the item's auction), outbid, ended by moving localnet's clock and an
// external message to the item, then transferred with a comment. Read back from the chain.
import { createHash } from "node:crypto";
import { beginCell, toNano, type Address, type Cell } from "@ton/core";
import { keyPairFromSeed, sign } from "@ton/crypto";
import {
  NFT_OPCODES,
  readNftAddressByIndex,
  readRoyaltyParams,
  readTelemintAuctionConfig,
  readTelemintAuctionState,
  readTelemintTokenName,
  storeNftTransfer,
  storeTelemintCollectionStorage,
  storeTextComment,
  type NftRoyaltyParams,
  type TeleitemAuctionConfig,
  type TelemintAuctionConfig,
} from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { onchainContent } from "../contracts/index.js";
import { sendExternalMessage, type LocalnetSender } from "../localnet-deploy.js";
import { getMethod, inBody, intArg, txByExternal, txByInternalFrom, txByOp, txRef, type Actors, type TxRef } from "./chain.js";
import { fixtureCode } from "./fixtures.js";
import { nftCollectionState, nftItemState, nftTransferEvent, type NftCollectionState, type NftItemState, type NftTransferEvent } from "./nfts.js";
import { storeTelemintMsgDeploy, storeTelemintUnsignedDeploy, TELEMINT_MSG_DEPLOY } from "./storers.js";

export interface TelemintItem extends NftItemState {
  tokenName: string;
  /** get_telemint_auction_config: beneficiary null once the auction is over. */
  auctionConfig: TelemintAuctionConfig;
  royalty: NftRoyaltyParams;
}

export interface TelemintScenario {
  collection: NftCollectionState;
  /** The collection's signing key (the scenario's own). */
  publicKey: Buffer;
  item: TelemintItem;
  /** The deploy (alice's first bid, on the collection), bob's bid, and the external message that ended the auction. */
  auction: {
    deploy: { tx: TxRef; bidder: Address; bid: bigint };
    bids: { tx: TxRef; bidder: Address; bid: bigint }[];
    end: { tx: TxRef; winner: Address };
  };
  transfers: NftTransferEvent[];
}

const TOKEN_NAME = "scenario";

/** Runs the item's life; at the end carol owns it (bob won the auction and transferred it). */
export async function telemintScenario(net: Localnet, actors: Actors): Promise<TelemintScenario> {
  const { admin, alice, bob, carol } = actors;
  const key = keyPairFromSeed(createHash("sha256").update("token scenarios: telemint collection").digest());
  const subwalletId = 7;
  const data = beginCell()
    .store(
      storeTelemintCollectionStorage({
        touched: false,
        subwalletId,
        publicKey: key.publicKey,
        content: onchainContent({ name: "Scenario usernames", description: "Usernames minted by the token scenarios" }),
        nftItemCode: fixtureCode("telemint_item"),
        fullDomain: Buffer.from("me\0t\0"),
        royaltyParams: { numerator: 5, denominator: 100, destination: admin.address },
      }),
    )
    .endCell();
  // the collection takes TON only with the comment "#topup"
  const collection = await admin.deploy({ code: fixtureCode("telemint_collection"), data }, toNano("1"), beginCell().store(storeTextComment({ text: "#topup" })).endCell());

  const auctionConfig: TeleitemAuctionConfig = { beneficiaryAddress: admin.address, initialMinBid: toNano("2"), maxBid: 0n, minBidStep: 10, minExtendTime: 60, duration: 600 };
  const now = net.now();
  const unsigned = beginCell()
    .store(
      storeTelemintUnsignedDeploy({
        subwalletId,
        validSince: now - 60,
        validTill: now + 600,
        tokenName: Buffer.from(TOKEN_NAME),
        content: onchainContent({ name: `@${TOKEN_NAME}`, description: "A username of the token scenarios", image: "https://example.org/username.png" }),
        auctionConfig,
        royaltyParams: null,
      }),
    )
    .endCell();
  const deployBody = beginCell().store(storeTelemintMsgDeploy(sign(unsigned.hash(), key.secretKey), unsigned)).endCell();
  const firstBid = toNano("2.5");
  const deployBlock = await alice.send({ to: collection, value: firstBid, body: deployBody });
  const index = BigInt(`0x${createHash("sha256").update(TOKEN_NAME).digest("hex")}`);
  const item = readNftAddressByIndex(await getMethod(net, collection, "get_nft_address_by_index", [intArg(index)]))!;
  const opened = readTelemintAuctionState(await getMethod(net, item, "get_telemint_auction_state"));
  if (!opened.bidder?.equals(alice.address)) throw new Error(`telemint item ${item.toRawString()} did not open its auction with alice's bid`);

  const bidBlock = await bob.send({ to: item, value: opened.minBid, body: beginCell().endCell() });
  const last = readTelemintAuctionState(await getMethod(net, item, "get_telemint_auction_state"));
  if (!last.bidder?.equals(bob.address)) throw new Error(`telemint item ${item.toRawString()} did not take bob's bid`);

  // past the auction's end anyone may end it with an external message
  net.advanceTime(Math.max(0, last.endTime - net.now() + 1));
  const endBlock = await sendExternalMessage(net, item, beginCell().endCell());
  const endTx = txByExternal(endBlock, item);
  txByOp(endBlock, bob.address, NFT_OPCODES.nft_ownership_assigned);

  const transfer = await telemintTransfer(net, bob, item, collection, carol.address);
  return {
    collection: await nftCollectionState(net, collection),
    publicKey: key.publicKey,
    item: await telemintItem(net, item),
    auction: {
      deploy: { tx: txRef(net, deployBlock, txByOp(deployBlock, collection, TELEMINT_MSG_DEPLOY)), bidder: alice.address, bid: opened.bid },
      bids: [{ tx: txRef(net, bidBlock, txByInternalFrom(bidBlock, item, bob.address)), bidder: bob.address, bid: last.bid }],
      end: { tx: txRef(net, endBlock, endTx), winner: bob.address },
    },
    transfers: [transfer],
  };
}

async function telemintTransfer(net: Localnet, from: LocalnetSender, item: Address, collection: Address, to: Address): Promise<NftTransferEvent> {
  const payload: Cell = beginCell().store(storeTextComment({ text: "a username for carol" })).endCell();
  const body = beginCell()
    .store(storeNftTransfer({ queryId: 60n, newOwner: to, responseDestination: from.address, customPayload: null, forwardAmount: toNano("0.01"), forwardPayload: { cell: payload, inRef: true } }))
    .endCell();
  const block = await from.send({ to: item, value: toNano("0.2"), body });
  const tx = txByOp(block, item, NFT_OPCODES.nft_transfer);
  if (!inBody(tx).equals(body)) throw new Error(`item ${item.toRawString()} got another body than the one sent`);
  txByOp(block, to, NFT_OPCODES.nft_ownership_assigned);
  return nftTransferEvent(net, block, tx, collection);
}

export async function telemintItem(net: Localnet, item: Address): Promise<TelemintItem> {
  return {
    ...(await nftItemState(net, item)),
    tokenName: readTelemintTokenName(await getMethod(net, item, "get_telemint_token_name")).toString("utf8"),
    auctionConfig: readTelemintAuctionConfig(await getMethod(net, item, "get_telemint_auction_config")),
    royalty: readRoyaltyParams(await getMethod(net, item, "royalty_params")),
  };
}
