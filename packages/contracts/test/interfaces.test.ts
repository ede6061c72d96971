// Interface detection as toncenter does it (by code hash, else by the get-methods the code
// declares), on every contract fixture's code and on the same code with one get-method removed.
import { readFileSync } from "node:fs";
import { beginCell, Cell, Dictionary, getMethodId, type DictionaryValue, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import { detectInterfaces, getMethodIds, hasRole, interfaceByName, INTERFACES } from "@tongate/contracts";

const DIR = new URL("../../../../shared/fixtures/contracts/", import.meta.url);
interface Entry {
  name: string;
  file: string;
  code_hash_hex: string;
  library_cell?: { file: string };
}
const { contracts } = JSON.parse(readFileSync(new URL("manifest.json", DIR), "utf8")) as { contracts: Entry[] };
const load = (file: string) => Cell.fromBoc(readFileSync(new URL(file, DIR)))[0]!;
const codes = new Map(contracts.map((c) => [c.code_hash_hex, load(c.file)]));
const resolve = (hash: Buffer) => codes.get(hash.toString("hex"));
const detect = (code: Cell) => detectInterfaces({ codeHash: code.hash().toString("base64"), methodIds: getMethodIds(code, resolve) });

/** What toncenter's detection answers for each fixture's code (and, after `library`, for its library cell). */
const EXPECTED: Record<string, string[] | { code: string[]; library: string[] }> = {
  wallet_v1r1: ["wallet_v1r1"],
  wallet_v1r2: ["wallet_v1r2"],
  wallet_v1r3: ["wallet_v1r3"],
  wallet_v2r1: ["wallet_v2r1"],
  wallet_v2r2: ["wallet_v2r2"],
  wallet_v3r1: ["wallet_v3r1"],
  wallet_v3r2: ["wallet_v3r2"],
  wallet_v4r1: ["wallet_v4r1"],
  wallet_v4r2: ["wallet_v4r2"],
  wallet_v5r1: ["wallet_v5r1"],
  wallet_highload_v1r1: ["wallet_highload_v1r1"],
  wallet_highload_v1r2: ["wallet_highload_v1r2"],
  wallet_highload_v2: ["wallet_highload_v2"],
  wallet_highload_v2r1: ["wallet_highload_v2r1"],
  wallet_highload_v2r2: ["wallet_highload_v2r2"],
  wallet_highload_v3r1: ["wallet_highload_v3r1"],
  vesting_wallet: ["wallet_vesting"],
  multisig_v2: ["multisig_v2"],
  multisig_order_v2: { code: ["multisig_order_v2"], library: ["multisig_order_v2"] },
  jetton_minter_legacy: ["jetton_master"],
  jetton_wallet_legacy: ["jetton_wallet_v1"],
  jetton_minter_tokencontract: ["jetton_master"],
  jetton_minter_discoverable_tokencontract: ["jetton_master"],
  jetton_wallet_tokencontract: ["jetton_wallet"],
  jetton2_minter: ["jetton_master"],
  // The by-hash names are of the library cell mainnet wallets hold; the code itself is found by its get-methods.
  jetton2_wallet: { code: ["jetton_wallet"], library: ["jetton_wallet_v2"] },
  stablecoin_minter: ["jetton_master"],
  stablecoin_wallet: { code: ["jetton_wallet"], library: ["jetton_wallet_governed"] },
  mintless_minter: ["jetton_master"],
  mintless_wallet: { code: ["jetton_wallet"], library: ["jetton_wallet"] },
  nft_collection_editable: ["nft_collection"],
  nft_item: ["nft_item_simple"],
  nft_single: ["editable", "nft_item"],
  // A wallet-like deployer with seqno and get_public_key: every wallet interface that asks no more.
  nft_marketplace_getgems: ["wallet_highload_v2", "wallet_v1r2", "wallet_v1r3", "wallet_v2r1", "wallet_v2r2", "wallet_v3r1", "wallet_v3r2", "wallet_v5_beta"],
  nft_sale_getgems_v1: ["nft_auction_v1", "nft_sale"],
  nft_sale_getgems_v2: ["nft_sale_getgems_v2"],
  nft_sale_getgems_v3: ["nft_sale_getgems_v3"],
  nft_sale_getgems_v3r2: ["nft_sale_getgems_v3"],
  nft_sale_getgems_v3r3: ["nft_sale_getgems_v3"],
  nft_sale_getgems_v4r1: ["nft_sale_getgems_v4"],
  nft_auction_getgems_v1: ["nft_auction_v1", "nft_sale"],
  nft_auction_getgems_v2: ["nft_auction_getgems_v3"],
  nft_auction_getgems_v3r2: ["nft_auction_getgems_v3"],
  nft_auction_getgems_v3r3: ["nft_auction_v1", "nft_sale"],
  nft_auction_getgems_v4r1: ["nft_auction_getgems_v4"],
  nft_offer_getgems_v1r3: ["nft_offer_getgems_v1"],
  nft_collection_tokencontract: ["nft_collection"],
  nft_item_tokencontract: ["nft_item"],
  dns_collection: ["dns", "nft_collection"],
  dns_item: ["dns", "editable", "nft_item"],
  dns_root: ["dns"],
  telemint_collection: ["dns", "nft_collection"],
  telemint_collection_no_dns: ["nft_collection"],
  telemint_item: ["dns", "nft_item", "teleitem"],
  telemint_item_no_dns: ["nft_item", "teleitem"],
  telemint_item_no_dns_cheap: ["nft_item", "teleitem"],
  telemint_item_no_dns_cheap_delayed: ["nft_item", "teleitem"],
  nominator_pool: ["daolama_vault", "tv_pool"],
  single_nominator_v1_0: ["daolama_vault", "single_nominator"],
  single_nominator_v1_1: ["daolama_vault", "single_nominator"],
  whales_nominator_pool: ["whales_pool"],
};

const rawValue: DictionaryValue<Slice> = { serialize: (src, b) => void b.storeSlice(src), parse: (s) => s };

/** The code with method `id` taken out of its method dictionary (FunC's layout: the dictionary in reference 0). */
function withoutMethod(code: Cell, id: number): Cell {
  const dict = Dictionary.loadDirect(Dictionary.Keys.Uint(19), rawValue, code.refs[0]!);
  expect(dict.delete(id)).toBe(true);
  return beginCell().storeBits(code.bits).storeRef(beginCell().storeDictDirect(dict).endCell()).endCell();
}

describe("detectInterfaces", () => {
  it("has an answer for every fixture", () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(contracts.map((c) => c.name).sort());
  });

  it.each(contracts.map((c) => [c.name, c] as const))("%s", (name, c) => {
    const want = EXPECTED[name]!;
    expect(detect(load(c.file))).toEqual(Array.isArray(want) ? want : want.code);
    if (!Array.isArray(want)) expect(detect(load(c.library_cell!.file))).toEqual(want.library);
  });

  it("with one get-method taken out of the code, a fixture is not detected as an interface that requires it", () => {
    let checked = 0;
    for (const c of contracts) {
      const code = load(c.file);
      if (code.bits.toString() !== "FF00F4A413F4BCF2C80B") continue; // the hand-written wallets have no dictionary to edit
      const want = EXPECTED[c.name]!;
      const names = Array.isArray(want) ? want : want.code;
      for (const iface of names.map((n) => interfaceByName(n)!)) {
        for (const id of iface.methodIds) {
          const altered = withoutMethod(code, id);
          expect(getMethodIds(altered)).not.toContain(id);
          expect(detect(altered), `${c.name} without ${iface.getMethods[iface.methodIds.indexOf(id)]}`).not.toContain(iface.name);
          checked++;
        }
        // By code hash: any change to the code loses the hash, and what is left is found by get-methods only.
        if (iface.codeHashes.length && iface.methodIds.length === 0 && code.refs.length) {
          const anyMethod = getMethodIds(code).find((id) => id >= 0x10000)!;
          expect(detect(withoutMethod(code, anyMethod))).not.toContain(iface.name);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });

  it("by code hash first: a listed hash gives its interface alone, whatever the methods", () => {
    const legacyWallet = load("jetton_wallet_legacy.code.boc");
    expect(detectInterfaces({ codeHash: legacyWallet.hash().toString("base64"), methodIds: [getMethodId("get_jetton_data"), getMethodId("get_wallet_address")] })).toEqual(["jetton_wallet_v1"]);
    expect(detectInterfaces({ codeHash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", methodIds: [getMethodId("get_wallet_data")] })).toEqual(["jetton_wallet"]);
    expect(detectInterfaces({ codeHash: null, methodIds: null })).toEqual([]);
    expect(detectInterfaces({})).toEqual([]);
  });

  it("roles: what the decoder reads each interface as", () => {
    expect(hasRole(["jetton_wallet_governed"], "jetton_wallet")).toBe(true);
    expect(hasRole(["nft_item_simple"], "nft_item")).toBe(true);
    expect(hasRole(["dns", "nft_item", "teleitem"], "nft_item")).toBe(true);
    expect(hasRole(["nft_auction_getgems_v4"], "nft_auction")).toBe(true);
    expect(hasRole(["wallet_v4r2"], "jetton_wallet")).toBe(false);
    expect(hasRole(["no such interface"], "wallet")).toBe(false);
  });

  it("names each interface once; every one is detectable by a hash or by get-methods", () => {
    expect(new Set(INTERFACES.map((i) => i.name)).size).toBe(INTERFACES.length);
    for (const i of INTERFACES) expect(i.codeHashes.length + i.methodIds.length, i.name).toBeGreaterThan(0);
    const hashes = INTERFACES.flatMap((i) => i.codeHashes);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});
