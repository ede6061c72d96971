// The masterchain's special accounts (block.tlb: StateInit special:(Maybe TickTock)).
// As on mainnet, the configuration smart contract (config param 0, -1:5555…) runs a
// tock transaction at the end of every masterchain block and the elector (param 1,
// -1:3333…) a tick transaction at the start of it. The real contracts are not
// available offline; localnet's stand-ins are small FunC contracts whose compiled
// code is committed under assets/special/ (scripts/compile-special-contracts.ts).
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, Dictionary, type StateInit, type TickTock } from "@ton/core";
import { configParam } from "./config.js";

export type SpecialContractName = "elector" | "config";

export interface SpecialContract {
  /** The config param that holds the account's address (0: config_addr, 1: elector_addr). */
  addressParam: 0 | 1;
  /** Which of tick and tock the collator runs on it: what mainnet's account has. */
  special: TickTock;
  /** Genesis balance, nanotons. */
  balance: bigint;
}

const TON = 1_000_000_000n;

export const SPECIAL_CONTRACTS: Record<SpecialContractName, SpecialContract> = {
  elector: { addressParam: 1, special: { tick: true, tock: false }, balance: 10_000n * TON },
  config: { addressParam: 0, special: { tick: false, tock: true }, balance: 1_000n * TON },
};

export const specialContractBocUrl = (name: SpecialContractName): URL => new URL(`../assets/special/${name}.boc`, import.meta.url);

const codes = new Map<SpecialContractName, Cell>();

/** The committed code of a special contract. */
export function specialContractCode(name: SpecialContractName): Cell {
  let code = codes.get(name);
  if (!code) {
    code = Cell.fromBoc(readFileSync(specialContractBocUrl(name)))[0]!;
    codes.set(name, code);
  }
  return code;
}

/** Their storage at genesis: ticks:uint64 tocks:uint64, both zero (assets/special/ticktock.fc). */
export const initialSpecialData = (): Cell => beginCell().storeUint(0, 64).storeUint(0, 64).endCell();

/** The masterchain account id a config param (0 or 1: a bits256 address) names. */
export function configAddress(config: Cell, param: 0 | 1): Address {
  const p = configParam(config, param);
  if (!p) throw new Error(`the config has no param ${param}`);
  return new Address(-1, p.beginParse().loadBuffer(32));
}

/** The special contracts as genesis deploys them: address (from the config), StateInit, balance. */
export function specialGenesisContracts(config: Cell): { name: SpecialContractName; address: Address; init: StateInit; balance: bigint }[] {
  return (Object.entries(SPECIAL_CONTRACTS) as [SpecialContractName, SpecialContract][]).map(([name, c]) => ({
    name,
    address: configAddress(config, c.addressParam),
    init: { special: c.special, code: specialContractCode(name), data: initialSpecialData() },
    balance: c.balance,
  }));
}

const specialIds = new WeakMap<Cell, string[]>();

/**
 * The special accounts' ids (hex), in the order the collator visits them for tick and tock
 * transactions: config param 31 (fundamental_smc_addr) and the config address (param 0),
 * ascending. Which of them run a tick or a tock is up to each account's StateInit.special.
 */
export function specialAccountIds(config: Cell): string[] {
  let ids = specialIds.get(config);
  if (ids) return ids;
  const set = new Set<string>();
  const p31 = configParam(config, 31);
  const dict = p31?.beginParse().loadMaybeRef();
  if (dict) {
    const fundamental = Dictionary.loadDirect(Dictionary.Keys.BigUint(256), Dictionary.Values.BitString(0), dict);
    for (const k of fundamental.keys()) set.add(k.toString(16).padStart(64, "0"));
  }
  set.add(configAddress(config, 0).hash.toString("hex"));
  ids = [...set].sort();
  specialIds.set(config, ids);
  return ids;
}
