// Every contract code fixture (/work/shared/fixtures/contracts, see its README.md) hashes to the
// constant of its standard's code-hashes.ts, and detection by code hash names that standard.
import { readFileSync } from "node:fs";
import { Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  contractByCodeHash,
  detectContract,
  detectWallet,
  DNS_CODE_HASHES,
  JETTON_CODE_HASHES,
  MULTISIG_CODE_HASHES,
  NFT_CODE_HASHES,
  STAKING_CODE_HASHES,
  VESTING_CODE_HASHES,
  WALLETS_CODE_HASHES,
  type Standard,
} from "@tongate/contracts";

const DIR = new URL("../../../../shared/fixtures/contracts/", import.meta.url);
interface Entry {
  name: string;
  family: string;
  file: string;
  library_cell?: { file: string };
}
const { contracts } = JSON.parse(readFileSync(new URL("manifest.json", DIR), "utf8")) as { contracts: Entry[] };

const FOLDER: Record<string, Standard> = { wallet: "wallets", jetton: "jetton", nft: "nft", telemint: "nft", dns: "dns", multisig: "multisig", vesting: "vesting", staking: "staking" };
const HASHES: Record<Standard, Record<string, string>> = {
  wallets: WALLETS_CODE_HASHES,
  jetton: JETTON_CODE_HASHES,
  nft: NFT_CODE_HASHES,
  dns: DNS_CODE_HASHES,
  multisig: MULTISIG_CODE_HASHES,
  vesting: VESTING_CODE_HASHES,
  staking: STAKING_CODE_HASHES,
};
const load = (file: string) => Cell.fromBoc(readFileSync(new URL(file, DIR)))[0]!;

describe("code hashes", () => {
  it("covers the 61 fixtures, each once", () => {
    expect(contracts).toHaveLength(61);
    expect(Object.values(HASHES).reduce((n, t) => n + Object.keys(t).length, 0)).toBe(61);
  });

  it.each(contracts.map((c) => [c.name, c] as const))("%s: its code hashes to the constant and is detected", (name, c) => {
    const standard = FOLDER[c.family]!;
    const code = load(c.file);
    expect(code.hash().toString("base64")).toBe(HASHES[standard][name]);
    expect(detectContract(code)).toEqual({ standard, name, library: false });
    if (c.library_cell) expect(detectContract(load(c.library_cell.file))).toEqual({ standard, name, library: true });
  });

  it("knows every fixture wallet v1–v5 (not highload) as a wallet kind", () => {
    const plain = contracts.filter((c) => c.family === "wallet" && !c.name.includes("highload"));
    expect(plain.map((c) => detectWallet(load(c.file))?.type)).not.toContain(undefined);
    expect(detectWallet(load("wallet_v4r2.code.boc"))).toEqual({ type: "wallet v4 r2", version: 4, revision: 2 });
  });

  it("knows no other hash", () => {
    expect(contractByCodeHash("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")).toBeUndefined();
    expect(contractByCodeHash(undefined)).toBeUndefined();
  });
});
