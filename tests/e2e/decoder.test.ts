// The decoder on a localnet, as a user of API v3 sees it: jettons and NFTs of contracts whose code
// tongate does not know by hash (FunC in tests/support/contracts) — detected by the get-methods their
// code declares, read by running them in the emulator, confirmed by their master or collection —
// minted and transferred through real wallets, then listed by /api/v3/jetton/* and /nft/* with the
// values the contracts' own get-methods give on the chain.
import { Address, beginCell, Cell, toNano, type StateInit } from "@ton/core";
import { storeJettonTransfer, storeTextComment } from "@tongate/contracts";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCode, deployItemBody, jettonMinterData, jettonWalletData, mintBody, nftCollectionData, nftItemData, nftTransferBody, onchainContent, snake, type ContractName } from "../support/contracts/index.js";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
let admin: LocalnetSender;
let holder: LocalnetSender;
const code = {} as Record<ContractName, Cell>;
const at = {} as { master: Address; adminWallet: Address; holderWallet: Address; forgedWallet: Address; collection: Address; items: Address[]; forgedItem: Address; earlyWallet: Address; lateMaster: Address };

const raw = (a: Address) => a.toRawString().toUpperCase();
const addressSlice = (a: Address) => ({ type: "slice" as const, cell: beginCell().storeAddress(a).endCell() });
const v3 = async (path: string) => {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
};

/** The decoder has decoded every block the indexer has stored up to the chain's head. */
async function decodedToHead(): Promise<void> {
  await decodedTo(t.url, net.chain.lastMasterchain!.id.seqno, { timeoutMs: 60_000 });
}

const deployed = (name: ContractName, data: Cell, value = toNano("0.2")) => admin.deploy({ code: code[name], data } satisfies StateInit, value);

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "decoder", wallets: 2 });
  admin = new LocalnetSender(net, net.genesis.wallets[1]!);
  holder = new LocalnetSender(net, net.genesis.wallets[2]!);
  const names: ContractName[] = ["jetton-minter", "jetton-wallet", "nft-collection", "nft-item"];
  for (const [i, c] of (await Promise.all(names.map(contractCode))).entries()) code[names[i]!] = c;
  const walletCode = code["jetton-wallet"];

  at.master = await deployed("jetton-minter", jettonMinterData({ totalSupply: 0n, admin: admin.address, content: onchainContent({ name: "Decoded", symbol: "DCD", decimals: "9" }), walletCode }));
  await admin.send({ to: at.master, value: toNano("0.5"), body: mintBody({ to: admin.address, ton: toNano("0.1"), amount: 1_000_000n }) });
  await admin.send({ to: at.master, value: toNano("0.5"), body: mintBody({ to: holder.address, ton: toNano("0.1"), amount: 500n }) });
  const walletOf = async (master: Address, owner: Address) => (await runGetMethod(net, master, "get_wallet_address", [addressSlice(owner)])).readAddress();
  at.adminWallet = await walletOf(at.master, admin.address);
  at.holderWallet = await walletOf(at.master, holder.address);
  const comment = beginCell().store(storeTextComment({ text: "thanks for the fish" })).endCell();
  await admin.send({
    to: at.adminWallet,
    value: toNano("0.3"),
    body: beginCell()
      .store(storeJettonTransfer({ queryId: 77n, amount: 300n, destination: holder.address, responseDestination: admin.address, customPayload: null, forwardTonAmount: toNano("0.01"), forwardPayload: { cell: comment, inRef: true } }))
      .endCell(),
  });
  // a wallet its master did not make (the master gives another address for its owner)
  at.forgedWallet = await deployed("jetton-wallet", jettonWalletData({ balance: 10n ** 18n, owner: admin.address, master: at.master, walletCode }));
  // a wallet deployed before its master: pending, then confirmed when the master arrives
  const lateMasterInit = { code: code["jetton-minter"], data: jettonMinterData({ totalSupply: 0n, admin: admin.address, content: onchainContent({ name: "Late" }), walletCode }) };
  at.lateMaster = contractAddressOf(lateMasterInit);
  const earlyData = jettonWalletData({ balance: 0n, owner: holder.address, master: at.lateMaster, walletCode });
  at.earlyWallet = await deployed("jetton-wallet", earlyData);

  at.collection = await deployed("nft-collection", nftCollectionData({ owner: admin.address, nextItemIndex: 0n, content: onchainContent({ name: "Decoded NFTs" }), commonContent: "https://example.org/nft/", itemCode: code["nft-item"] }));
  for (const [i, owner] of [admin.address, holder.address].entries()) {
    await admin.send({ to: at.collection, value: toNano("0.2"), body: deployItemBody({ index: BigInt(i), ton: toNano("0.05"), owner, content: `${i}.json` }) });
  }
  at.items = await Promise.all([0n, 1n].map(async (i) => (await runGetMethod(net, at.collection, "get_nft_address_by_index", [{ type: "int", value: i }])).readAddress()));
  await admin.send({ to: at.items[0]!, value: toNano("0.1"), body: nftTransferBody({ newOwner: holder.address, responseTo: admin.address, queryId: 9n }) });
  at.forgedItem = await deployed("nft-item", nftItemData({ index: 0n, collection: at.collection, owner: holder.address, content: snake(Buffer.from("0.json")) }));

  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  await decodedToHead();
  // the master of the early wallet arrives after it has been decoded as pending
  await admin.deploy(lateMasterInit, toNano("0.2"));
  await decodedToHead();
}, 240_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

function contractAddressOf(init: StateInit): Address {
  const stateInit = beginCell().storeUint(0, 2).storeMaybeRef(init.code).storeMaybeRef(init.data).storeUint(0, 1).endCell();
  return new Address(0, stateInit.hash());
}

describe("the decoder over a localnet (contracts of unknown code)", () => {
  it("jetton master: supply, admin, content and wallet code hash as get_jetton_data gives them", async () => {
    const chain = await runGetMethod(net, at.master, "get_jetton_data");
    const [supply, mintable, adminAddress, , walletCode] = [chain.readBigNumber(), chain.readBoolean(), chain.readAddress(), chain.readCell(), chain.readCell()];
    const body = await v3(`jetton/masters?address=${raw(at.master)}`);
    expect(body.jetton_masters).toHaveLength(1);
    expect(body.jetton_masters[0]).toMatchObject({
      address: raw(at.master),
      total_supply: supply.toString(),
      mintable,
      admin_address: raw(adminAddress),
      jetton_wallet_code_hash: walletCode.hash().toString("base64"),
      jetton_content: { name: "Decoded", symbol: "DCD", decimals: "9" },
    });
    expect(body.address_book[raw(at.master)].interfaces).toContain("jetton_master");
  });

  it("jetton wallets of an owner: balances as get_wallet_data gives them; a wallet its master denies is never listed", async () => {
    for (const owner of [admin.address, holder.address]) {
      const body = await v3(`jetton/wallets?owner_address=${raw(owner)}`);
      const listed = body.jetton_wallets.map((w: { address: string }) => w.address);
      expect(listed).not.toContain(raw(at.forgedWallet));
      const wallet = owner.equals(admin.address) ? at.adminWallet : at.holderWallet;
      const balance = (await runGetMethod(net, wallet, "get_wallet_data")).readBigNumber();
      expect(body.jetton_wallets.find((w: { address: string }) => w.address === raw(wallet))).toMatchObject({ balance: balance.toString(), owner: raw(owner), jetton: raw(at.master) });
    }
    const forged = await v3(`jetton/wallets?address=${raw(at.forgedWallet)}`);
    expect(forged.jetton_wallets).toEqual([]);
  });

  it("a wallet seen before its master is listed once the master is decoded", async () => {
    const body = await v3(`jetton/wallets?jetton_address=${raw(at.lateMaster)}`);
    expect(body.jetton_wallets.map((w: { address: string }) => w.address)).toEqual([raw(at.earlyWallet)]);
  });

  it("jetton transfers: the transfer with its query id, amount, forward TON and comment", async () => {
    const body = await v3(`jetton/transfers?owner_address=${raw(admin.address)}&direction=out`);
    expect(body.jetton_transfers).toHaveLength(1);
    expect(body.jetton_transfers[0]).toMatchObject({ query_id: "77", amount: "300", source: raw(admin.address), destination: raw(holder.address), source_wallet: raw(at.adminWallet), jetton_master: raw(at.master), forward_ton_amount: "10000000" });
  });

  it("NFT collection and items: owners follow transfers; an item its collection denies is never listed", async () => {
    const collection = await v3(`nft/collections?collection_address=${raw(at.collection)}`);
    expect(collection.nft_collections[0]).toMatchObject({ address: raw(at.collection), next_item_index: "2", owner_address: raw(admin.address) });
    const items = await v3(`nft/items?collection_address=${raw(at.collection)}`);
    expect(items.nft_items.map((i: { address: string; owner_address: string }) => [i.address, i.owner_address])).toEqual([
      [raw(at.items[0]!), raw(holder.address)],
      [raw(at.items[1]!), raw(holder.address)],
    ]);
    const forged = await v3(`nft/items?address=${raw(at.forgedItem)}`);
    expect(forged.nft_items).toEqual([]);
    const transfers = await v3(`nft/transfers?item_address=${raw(at.items[0]!)}`);
    expect(transfers.nft_transfers).toHaveLength(1);
    expect(transfers.nft_transfers[0]).toMatchObject({ query_id: "9", old_owner: raw(admin.address), new_owner: raw(holder.address), nft_address: raw(at.items[0]!), nft_collection: raw(at.collection) });
  });
});
