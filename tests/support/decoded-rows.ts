// The decoder's tables, filled by a test as the decoder will fill them (services/decoder's
// migrations say who writes what): its schema applied to a store, and rows of real contracts — the
// addresses a jetton master or an NFT collection derives for its wallets and items from the fixture
// contracts' code (StateInit: code and initial data), mainnet's USDT, NOT and DOGS masters and
// Telegram's collection, real message payloads (a text comment as a jetton forward payload).
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, contractAddress } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { JETTON_CODE_HASHES, NFT_CODE_HASHES, WALLETS_CODE_HASHES } from "@tongate/contracts";
import { loadMigrations, type Store } from "@tongate/store";

export const DECODER_MIGRATIONS = new URL("../../services/decoder/src/store/migrations/", import.meta.url).pathname;

/**
 * The decoder's tables. Its migrations are applied statement by statement (each is IF NOT EXISTS):
 * the indexer's `migrate` records versions in one table that both services' 0001 would share.
 */
export async function applyDecoderSchema(store: Store): Promise<void> {
  for (const m of loadMigrations(DECODER_MIGRATIONS)) for (const query of m.statements) await store.client.command({ query });
}

/** The decoder's state tables: one row per address and decoded block, the latest replacing the others in merges. */
export const STATE_TABLES = ["jetton_masters", "jetton_wallets", "nft_collections", "nft_items", "nft_sales", "account_interfaces"];

/**
 * Holds ClickHouse's merges of the state tables. A test keeps rows decoded after the checkpoint
 * for as long as it likes; the decoder writes a block's rows and then its checkpoint, and only in
 * between can a merge replace the row an answer at the checkpoint shows (migrations/0001 says so).
 */
export async function holdMerges(store: Store): Promise<void> {
  for (const table of STATE_TABLES) await store.client.command({ query: `SYSTEM STOP MERGES ${table}` });
}

export const raw = (a: Address): string => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
const code = (name: string): Cell => Cell.fromBoc(readFileSync(new URL(`../../../shared/fixtures/contracts/${name}.code.boc`, import.meta.url)))[0]!;
const hashOf = (c: Cell): string => c.hash().toString("base64");

/** A v4r2 wallet of a key made from `seed`: an owner as a wallet app has one. */
export const owner = (seed: number): Address => WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, seed) }).address;

const JETTON_WALLET_CODE = code("jetton_wallet_legacy");
/** The wallet a legacy jetton master derives for an owner: StateInit(wallet code, balance 0, owner, master, wallet code). */
export const jettonWalletOf = (holder: Address, master: Address): Address =>
  contractAddress(0, {
    code: JETTON_WALLET_CODE,
    data: beginCell().storeCoins(0).storeAddress(holder).storeAddress(master).storeRef(JETTON_WALLET_CODE).endCell(),
  });

const NFT_ITEM_CODE = code("nft_item");
/** The item a collection deploys at `index`: StateInit(item code, index, collection). */
export const nftItemOf = (collection: Address, index: bigint): Address =>
  contractAddress(0, { code: NFT_ITEM_CODE, data: beginCell().storeUint(index, 64).storeAddress(collection).endCell() });

/** A telemint item of a collection: StateInit(item code, index, collection); its index is the hash of its name. */
export const telemintItemOf = (collection: Address, index: bigint): Address =>
  contractAddress(0, { code: code("telemint_item"), data: beginCell().storeUint(index, 256).storeAddress(collection).endCell() });

/** A getgems sale (fixed price v3r3) of an item: StateInit(sale code, marketplace, item, seller, price). */
export const saleOf = (marketplace: Address, item: Address, seller: Address, price: bigint): Address =>
  contractAddress(0, {
    code: code("nft_sale_getgems_v3r3"),
    data: beginCell().storeUint(0, 1).storeUint(1_700_000_000, 32).storeAddress(marketplace).storeAddress(item).storeAddress(seller).storeCoins(price).endCell(),
  });

/** A getgems auction (v3r3) of an item. */
export const auctionOf = (marketplace: Address, item: Address, seller: Address): Address =>
  contractAddress(0, { code: code("nft_auction_getgems_v3r3"), data: beginCell().storeUint(0, 1).storeAddress(marketplace).storeAddress(item).storeAddress(seller).endCell() });

export const USDT = Address.parse("EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs");
export const NOT = Address.parse("EQAvlWFDxGF2lXm67y4yzC17wYKD9A0guwPkMs1gOsM__NOT");
export const DOGS = Address.parse("EQCvxJy4eG8hyHBFsZ7eePxrRsUQSFE_jpptRAYBmcG_DOGS");
/** The getgems marketplace. */
export const GETGEMS = Address.parse("EQBYTuYbLf8INxFtD8tQeNk5ZLy-nAX9ahQbG_yl1qQ-GEMS");
/** TON DNS: the .ton collection. */
export const TON_DNS = Address.parse("EQC3dNlesgVD8YbAazcauIrXBPfiVhMMr5YYk2in0Mtsz0Bz");
/** Telegram Usernames: the telemint collection. */
export const USERNAMES = Address.parse("EQCA14o1-VWhS2efqoh_9M1b_A9DtKTuoqfmkn83AbJzwnPi");
/** A getgems collection: the editable collection's code and data (owner, next index, content, item code, royalty). */
export const GEMS_COLLECTION = contractAddress(0, {
  code: code("nft_collection_editable"),
  data: beginCell()
    .storeAddress(owner(9))
    .storeUint(0, 64)
    .storeRef(beginCell().storeRef(beginCell().storeUint(1, 8).storeStringTail("https://example.org/collection.json")).storeRef(beginCell()))
    .storeRef(NFT_ITEM_CODE)
    .storeRef(beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(owner(9)))
    .endCell(),
});
/** A jetton master of the legacy code, created later in a test's chain: its admin, supply 0, no content. */
export const legacyMasterOf = (admin: Address): Address =>
  contractAddress(0, { code: code("jetton_minter_legacy"), data: beginCell().storeCoins(0).storeAddress(admin).storeRef(beginCell()).storeRef(JETTON_WALLET_CODE).endCell() });

export const HASHES = {
  usdtMinter: JETTON_CODE_HASHES.stablecoin_minter,
  usdtWallet: JETTON_CODE_HASHES.stablecoin_wallet,
  legacyMinter: JETTON_CODE_HASHES.jetton_minter_legacy,
  legacyWallet: hashOf(JETTON_WALLET_CODE),
  mintlessMinter: JETTON_CODE_HASHES.mintless_minter,
  mintlessWallet: JETTON_CODE_HASHES.mintless_wallet,
  collection: NFT_CODE_HASHES.nft_collection_editable,
  item: hashOf(NFT_ITEM_CODE),
  sale: NFT_CODE_HASHES.nft_sale_getgems_v3r3,
  auction: NFT_CODE_HASHES.nft_auction_getgems_v3r3,
  telemintCollection: NFT_CODE_HASHES.telemint_collection,
  telemintItem: NFT_CODE_HASHES.telemint_item,
  walletV4: WALLETS_CODE_HASHES.wallet_v4r2,
};

/** A transaction hash made from a number (base64 of 32 bytes, as the indexer stores hashes). */
export const txHash = (n: number): string => Buffer.alloc(32, 0).fill(n & 0xff, 0, 4).fill((n >> 8) & 0xff, 4, 8).toString("base64");
/** A data hash made from a number. */
export const dataHash = (n: number): string => Buffer.alloc(32, 0xd0 ^ (n & 0xff)).toString("base64");

/** A text comment as a forward payload cell (op 0, then the text), as a BoC. */
export const commentBoc = (text: string): string => beginCell().storeUint(0, 32).storeStringTail(text).endCell().toBoc().toString("base64");

/**
 * Inserts rows into a table (JSONEachRow: every column the row names, defaults for the rest) as the
 * decoder does: one insert per decoded block, in block order. (Two versions of an address in one
 * insert keep only the newer: ClickHouse applies ReplacingMergeTree's merge to an inserted block.)
 */
export async function insert(store: Store, table: string, values: Record<string, unknown>[]): Promise<void> {
  const blockOf = (v: Record<string, unknown>) => Number(v.mc_seqno ?? 0);
  const blocks = [...new Set(values.map(blockOf))].sort((a, b) => a - b);
  for (const mc of blocks) await store.client.insert({ table, values: values.filter((v) => blockOf(v) === mc), format: "JSONEachRow" });
}

/** A latest_account_states row: what the address book reads (the code hash). */
export const accountState = (address: Address, codeHash: string | null, lt: number) => ({
  account: raw(address),
  hash: dataHash(lt),
  balance: "1000000000",
  account_status: codeHash === null ? "uninit" : "active",
  code_hash: codeHash,
  last_trans_lt: String(lt),
  timestamp: 1_700_000_000,
});
