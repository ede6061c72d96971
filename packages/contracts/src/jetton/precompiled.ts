// Precompiled readers of jetton masters and wallets: what get_jetton_data, get_wallet_data,
// get_status and is_claimed answer, read from the data cell with the storage loaders.
import { createHash } from "node:crypto";
import { beginCell, Dictionary, type Cell } from "@ton/core";
import type { ReadStateContext } from "../precompiled.js";
import type { JettonData, JettonWalletData } from "./get-methods.js";
import { loadJettonMinterStorage, loadJettonMinterV2Storage, loadJettonWalletStorage, loadJettonWalletV2Storage } from "./storage.js";

export interface JettonMasterState {
  kind: "jetton_master";
  /** null: get_jetton_data throws on this data (a metadata URI too long for the content cell). */
  jettonData: JettonData | null;
}

export interface JettonWalletState {
  kind: "jetton_wallet";
  walletData: JettonWalletData;
  /** get_status of the Jetton 2.0 family (stablecoin: bit 0 blocks sending, bit 1 receiving). */
  status?: number;
  /** is_claimed of mintless wallets. */
  isClaimed?: boolean;
}

const sha256 = (s: string) => BigInt(`0x${createHash("sha256").update(s).digest("hex")}`);

/**
 * A dictionary of fixed 256-bit keys as a template: its cells with a placeholder in each value's
 * place. The keys alone decide the labels and forks, so filling in the values gives the cells
 * serializing the whole dictionary would, without building it again for every account.
 */
function dictTemplate(keys: bigint[]): (values: Cell[]) => Cell {
  const placeholders = keys.map((_, i) => beginCell().storeUint(0xdead, 16).storeUint(i, 8).endCell());
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell());
  keys.forEach((k, i) => dict.set(k, placeholders[i]!));
  const root = beginCell().storeDictDirect(dict).endCell();
  // The serializer stores the value cells themselves: found by identity.
  const slot = new Map(placeholders.map((p, i) => [p, i]));
  const fill = (c: Cell, values: Cell[]): Cell => {
    const b = beginCell().storeBits(c.bits);
    for (const r of c.refs) {
      const i = slot.get(r);
      b.storeRef(i === undefined ? fill(r, values) : values[i]!);
    }
    return b.endCell();
  };
  return (values) => fill(root, values);
}

const URI_KEY = sha256("uri");
const URI_ONLY = dictTemplate([URI_KEY]);
const URI_AND_DECIMALS = dictTemplate([URI_KEY, sha256("decimals")]);

/** A snake value: 0x00 then the bytes (with the refs the value goes on in). */
const snake = (value: Cell) => beginCell().storeUint(0, 8).storeSlice(value.beginParse()).endCell();
const DECIMALS = new Map(["6", "9"].map((d) => [d, snake(beginCell().storeStringTail(d).endCell())]));

/**
 * The Jetton 2.0 family's build_content_cell: TEP-64 on-chain content (0x00 then a dictionary) of
 * "uri" and, where the contract sets one, "decimals", each a snake value (0x00 then the bytes).
 * null when the URI does not fit one cell behind the prefix byte (the get-method throws).
 */
export function jettonContentFromUri(metadataUri: Cell, decimals: string | null): Cell | null {
  if (metadataUri.bits.length + 8 > 1023) return null;
  const uri = snake(metadataUri);
  const dict = decimals === null ? URI_ONLY([uri]) : URI_AND_DECIMALS([uri, DECIMALS.get(decimals) ?? snake(beginCell().storeStringTail(decimals).endCell())]);
  return beginCell().storeUint(0, 8).storeBit(1).storeRef(dict).endCell();
}

function reference(data: Cell): JettonMasterState {
  const st = loadJettonMinterStorage(data.beginParse());
  return { kind: "jetton_master", jettonData: { totalSupply: st.totalSupply, mintable: true, admin: st.adminAddress, content: st.content, walletCode: st.jettonWalletCode } };
}

/**
 * Jetton 2.0, stablecoin, mintless: the content is built from the stored URI, with the decimals each
 * build puts in (the mintless repo's committed build says "6", as the stablecoin it derives from,
 * though its source at that commit sets none).
 */
const v2Master =
  (decimals: string | null) =>
  (data: Cell): JettonMasterState => {
    const st = loadJettonMinterV2Storage(data.beginParse());
    const content = jettonContentFromUri(st.metadataUri, decimals);
    return { kind: "jetton_master", jettonData: content && { totalSupply: st.totalSupply, mintable: true, admin: st.adminAddress, content, walletCode: st.jettonWalletCode } };
  };

function referenceWallet(data: Cell): JettonWalletState {
  const st = loadJettonWalletStorage(data.beginParse());
  return { kind: "jetton_wallet", walletData: { balance: st.balance, owner: st.ownerAddress, jetton: st.jettonMasterAddress, walletCode: st.jettonWalletCode } };
}

/** Jetton 2.0 family: get_wallet_data gives my_code(), the account's code as stored (the library cell for library code). */
const v2Wallet =
  (mintless: boolean) =>
  (data: Cell, ctx: ReadStateContext): JettonWalletState => {
    const st = loadJettonWalletV2Storage(data.beginParse());
    const state: JettonWalletState = { kind: "jetton_wallet", walletData: { balance: st.balance, owner: st.ownerAddress, jetton: st.jettonMasterAddress, walletCode: ctx.code }, status: st.status };
    if (mintless) state.isClaimed = st.status !== 0;
    return state;
  };

export const JETTON_READERS: Record<string, (data: Cell, ctx: ReadStateContext) => JettonMasterState | JettonWalletState> = {
  jetton_minter_legacy: reference,
  jetton_minter_tokencontract: reference,
  jetton_minter_discoverable_tokencontract: reference,
  jetton2_minter: v2Master("9"),
  stablecoin_minter: v2Master("6"),
  mintless_minter: v2Master("6"),
  jetton_wallet_legacy: referenceWallet,
  jetton_wallet_tokencontract: referenceWallet,
  jetton2_wallet: v2Wallet(false),
  stablecoin_wallet: v2Wallet(false),
  mintless_wallet: v2Wallet(true),
};
