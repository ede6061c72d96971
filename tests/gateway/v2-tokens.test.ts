// getTokenData against real TEP-74 jetton and TEP-62 NFT contracts (FunC in
// tests/support/contracts) deployed on a localnet: gateway → lite-proxy →
// liteserver → localnet, each token kind's values checked against what the
// contracts answer on the chain itself and against toncenter's v2.json.
import { createHash } from "node:crypto";
import { Address, beginCell, Cell, toNano, type StateInit } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  chunked,
  contractCode,
  deployItemBody,
  jettonMinterData,
  jettonTransferBody,
  jettonWalletData,
  mintBody,
  nftCollectionData,
  nftItemData,
  nftTransferBody,
  offchainContent,
  onchainContent,
  snake,
  type ContractName,
} from "../support/contracts/index.js";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { v2ErrorErrors, v2ResponseErrors } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

const PATH = "/api/v2/getTokenData";
const LONG_DESCRIPTION = "A jetton deployed on a localnet to test getTokenData. Its description is longer than one cell holds (127 bytes), so it goes on in a ref ✓";
const IMAGE_DATA = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]);

let net: Localnet;
let t: Embedded;
let admin: LocalnetSender;
let holder: LocalnetSender;
const code = {} as Record<ContractName, Cell>;
// Addresses of what beforeAll deploys.
const at = {} as {
  master: Address;
  offchainMaster: Address;
  adminWallet: Address;
  holderWallet: Address;
  forgedWallet: Address;
  collection: Address;
  items: Address[];
  forgedItem: Address;
  standaloneItem: Address;
  badContentMaster: Address;
};

const enc = encodeURIComponent;
const friendly = (a: Address) => a.toString({ urlSafe: true, bounceable: true });
const addressSlice = (a: Address) => ({ type: "slice" as const, cell: beginCell().storeAddress(a).endCell() });
const tokenData = (address: string, seqno?: number) => getJson(`${t.url}${PATH}?address=${enc(address)}${seqno ? `&seqno=${seqno}` : ""}`);

async function ok(address: string, seqno?: number) {
  const r = await tokenData(address, seqno);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(v2ResponseErrors(PATH, r.body)).toBeNull();
  return r.body.result;
}

async function failing(address: string, status: number) {
  const r = await tokenData(address);
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(v2ErrorErrors(r.body)).toBeNull();
  return r.body.error as string;
}

const deployed = (name: ContractName, data: Cell, value = toNano("0.2")) => admin.deploy({ code: code[name], data } satisfies StateInit, value);

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-tokens", wallets: 2 });
  admin = new LocalnetSender(net, net.genesis.wallets[1]!);
  holder = new LocalnetSender(net, net.genesis.wallets[2]!);
  const names: ContractName[] = ["jetton-minter", "jetton-wallet", "nft-collection", "nft-item"];
  for (const [i, c] of (await Promise.all(names.map(contractCode))).entries()) code[names[i]!] = c;
  const walletCode = code["jetton-wallet"];

  // A jetton with on-chain content, minted to two owners, then one transfer between them.
  const content = onchainContent({
    name: "Test Jetton",
    symbol: "TJT",
    decimals: "9",
    description: LONG_DESCRIPTION,
    image: "https://example.org/tjt.png",
    image_data: IMAGE_DATA,
    amount_style: Buffer.from([0xff, 0xfe]), // not UTF-8: left out
    website: "https://example.org", // not a TEP-64 attribute: reported under its hex key
  });
  at.master = await deployed("jetton-minter", jettonMinterData({ totalSupply: 0n, admin: admin.address, content, walletCode }));
  await admin.send({ to: at.master, value: toNano("0.5"), body: mintBody({ to: admin.address, ton: toNano("0.1"), amount: 1_000_000_000_000n }) });
  await admin.send({ to: at.master, value: toNano("0.5"), body: mintBody({ to: holder.address, ton: toNano("0.1"), amount: 500n }) });
  const walletOf = async (owner: Address) => (await runGetMethod(net, at.master, "get_wallet_address", [addressSlice(owner)])).readAddress();
  at.adminWallet = await walletOf(admin.address);
  at.holderWallet = await walletOf(holder.address);
  await admin.send({ to: at.adminWallet, value: toNano("0.3"), body: jettonTransferBody({ amount: 300n, to: holder.address, responseTo: admin.address, forwardTon: toNano("0.01") }) });
  // A jetton without admin and with off-chain content; a wallet its master did not make.
  at.offchainMaster = await deployed("jetton-minter", jettonMinterData({ totalSupply: 0n, admin: null, content: offchainContent("https://example.org/jetton.json"), walletCode }));
  at.badContentMaster = await deployed("jetton-minter", jettonMinterData({ totalSupply: 0n, admin: null, content: beginCell().storeUint(2, 8).endCell(), walletCode }));
  at.forgedWallet = await deployed("jetton-wallet", jettonWalletData({ balance: 10n ** 18n, owner: holder.address, master: at.master, walletCode }));

  // An NFT collection with on-chain content (a chunked description) and two items.
  const collectionContent = onchainContent({ name: "Test Collection", description: chunked(Buffer.from("Items of a localnet test collection, stored in chunks."), 20) });
  at.collection = await deployed(
    "nft-collection",
    nftCollectionData({ owner: admin.address, nextItemIndex: 0n, content: collectionContent, commonContent: "https://example.org/nft/", itemCode: code["nft-item"] }),
  );
  for (const [i, owner] of [admin.address, holder.address].entries()) {
    await admin.send({ to: at.collection, value: toNano("0.2"), body: deployItemBody({ index: BigInt(i), ton: toNano("0.05"), owner, content: `${i}.json` }) });
  }
  at.items = await Promise.all([0n, 1n].map(async (i) => (await runGetMethod(net, at.collection, "get_nft_address_by_index", [{ type: "int", value: i }])).readAddress()));
  // An item that claims to be in the collection without being made by it, and one of no collection.
  at.forgedItem = await deployed("nft-item", nftItemData({ index: 0n, collection: at.collection, owner: holder.address, content: snake(Buffer.from("0.json")) }));
  at.standaloneItem = await deployed("nft-item", nftItemData({ index: 7n, collection: null, owner: holder.address, content: onchainContent({ name: "Lone item", image: "https://example.org/lone.png" }) }));

  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe("getTokenData over a localnet", () => {
  it("jetton master: supply, admin, on-chain content and wallet code as the contract holds them", async () => {
    const r = await ok(friendly(at.master));
    const chain = await runGetMethod(net, at.master, "get_jetton_data");
    const [supply, mintable, adminAddress, , walletCode] = [chain.readBigNumber(), chain.readBoolean(), chain.readAddress(), chain.readCell(), chain.readCell()];
    expect(supply).toBe(1_000_000_000_500n);
    expect(r).toEqual({
      "@type": "ext.tokens.jettonMasterData",
      address: friendly(at.master),
      contract_type: "jetton_master",
      total_supply: supply.toString(),
      mintable,
      admin_address: friendly(adminAddress),
      jetton_content: {
        type: "onchain",
        data: {
          name: "Test Jetton",
          symbol: "TJT",
          decimals: "9",
          description: LONG_DESCRIPTION,
          image: "https://example.org/tjt.png",
          image_data: IMAGE_DATA.toString("base64"),
          [createHash("sha256").update("website").digest("hex")]: "https://example.org",
        },
      },
      jetton_wallet_code: expect.any(String),
    });
    expect(mintable).toBe(true);
    expect(Cell.fromBase64(r.jetton_wallet_code).hash()).toEqual(walletCode.hash());
    expect(walletCode.hash()).toEqual(code["jetton-wallet"].hash());
  });

  it("jetton master without admin: off-chain content is the URI, not fetched", async () => {
    const r = await ok(at.offchainMaster.toRawString());
    expect(r.address).toBe(friendly(at.offchainMaster)); // a raw input is echoed in bounceable form
    expect(r).toMatchObject({ total_supply: "0", mintable: false, jetton_content: { type: "offchain", data: "https://example.org/jetton.json" } });
    expect(r).not.toHaveProperty("admin_address");
  });

  it("jetton wallets: balance, owner and master after mint and transfer, confirmed by the master", async () => {
    for (const [wallet, owner, balance] of [
      [at.adminWallet, admin.address, 1_000_000_000_000n - 300n],
      [at.holderWallet, holder.address, 800n],
    ] as const) {
      const r = await ok(friendly(wallet));
      const chain = await runGetMethod(net, wallet, "get_wallet_data");
      expect(chain.readBigNumber()).toBe(balance);
      expect(r).toEqual({
        "@type": "ext.tokens.jettonWalletData",
        address: friendly(wallet),
        contract_type: "jetton_wallet",
        balance: balance.toString(),
        owner: friendly(owner),
        jetton: friendly(at.master),
        jetton_wallet_code: expect.any(String),
      });
      expect(Cell.fromBase64(r.jetton_wallet_code).hash()).toEqual(code["jetton-wallet"].hash());
    }
    // A non-bounceable input verifies too (toncenter's PY failed it, #157) and is echoed as given.
    const nb = at.holderWallet.toString({ urlSafe: true, bounceable: false });
    expect((await ok(nb)).address).toBe(nb);
  });

  it("a jetton wallet its master does not confirm is refused with 409", async () => {
    // The forged wallet runs the real wallet code and names the real master, but the master's
    // get_wallet_address(owner) is the holder's real wallet.
    expect((await runGetMethod(net, at.forgedWallet, "get_wallet_data")).readBigNumber()).toBe(10n ** 18n);
    const error = await failing(friendly(at.forgedWallet), 409);
    expect(error).toMatch(/^Verification on master failed/);
    expect(error).toContain(friendly(at.holderWallet));
  });

  it("NFT collection: next index, owner and on-chain content with a chunked value", async () => {
    const r = await ok(friendly(at.collection));
    const chain = await runGetMethod(net, at.collection, "get_collection_data");
    expect(chain.readBigNumber()).toBe(2n);
    chain.readCell();
    expect(r).toEqual({
      "@type": "ext.tokens.nftCollectionData",
      address: friendly(at.collection),
      contract_type: "nft_collection",
      next_item_index: "2",
      owner_address: friendly(chain.readAddress()),
      collection_content: { type: "onchain", data: { name: "Test Collection", description: "Items of a localnet test collection, stored in chunks." } },
    });
  });

  it("NFT items: confirmed by the collection, content completed by its get_nft_content, owners follow transfers", async () => {
    for (const [i, item] of at.items.entries()) {
      const r = await ok(friendly(item));
      const chain = await runGetMethod(net, item, "get_nft_data");
      expect([chain.readBoolean(), chain.readBigNumber(), chain.readAddress().equals(at.collection)]).toEqual([true, BigInt(i), true]);
      expect(r).toEqual({
        "@type": "ext.tokens.nftItemData",
        address: friendly(item),
        contract_type: "nft_item",
        init: true,
        index: String(i),
        collection_address: friendly(at.collection),
        owner_address: friendly(chain.readAddress()),
        content: { type: "offchain", data: `https://example.org/nft/${i}.json` },
      });
    }
    // Item 1 goes from the holder to the admin; at the block before, it was still the holder's.
    const before = net.chain.lastMasterchain!.id.seqno;
    await holder.send({ to: at.items[1]!, value: toNano("0.1"), body: nftTransferBody({ newOwner: admin.address, responseTo: holder.address, forwardTon: toNano("0.01") }) });
    expect((await ok(friendly(at.items[1]!))).owner_address).toBe(friendly(admin.address));
    expect((await ok(friendly(at.items[1]!), before)).owner_address).toBe(friendly(holder.address));
  });

  it("an NFT item its collection does not confirm is refused with 409; one of no collection keeps its own content", async () => {
    expect(await failing(friendly(at.forgedItem), 409)).toMatch(/^Verification on collection failed/);
    const r = await ok(friendly(at.standaloneItem));
    expect(r).toEqual({
      "@type": "ext.tokens.nftItemData",
      address: friendly(at.standaloneItem),
      contract_type: "nft_item",
      init: true,
      index: "7",
      owner_address: friendly(holder.address),
      content: { type: "onchain", data: { name: "Lone item", image: "https://example.org/lone.png" } },
    });
  });

  it("a contract that is not a token, or no contract at all, is a 409; a malformed address a 422", async () => {
    expect(await failing(friendly(admin.address), 409)).toBe("Smart contract is not Jetton or NFT");
    expect(await failing(new Address(0, Buffer.alloc(32, 0x42)).toRawString(), 409)).toBe("Smart contract is not Jetton or NFT");
    expect(await failing("EQnope", 422)).toMatch(/address/);
  });

  it("content that is not TEP-64 is toncenter's 500 'Failed to unpack token data', saying why", async () => {
    expect(await failing(friendly(at.badContentMaster), 500)).toMatch(/^Failed to unpack token data: jetton_content: content prefix 0x02/);
  });

  it("answers over /jsonRPC and POST as over GET", async () => {
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: 1, method: "getTokenData", params: { address: friendly(at.master) } });
    expect(rpc.status).toBe(200);
    expect(rpc.body.result.total_supply).toBe("1000000000500");
    const post = await postJson(`${t.url}${PATH}`, { address: friendly(at.collection) });
    expect(post.body.result.contract_type).toBe("nft_collection");
  });
});
