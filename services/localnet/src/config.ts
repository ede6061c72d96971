// The chain's configuration: the real mainnet config (global version 13, April
// 2026; a shared fixture bundled here; the gv15 config's param 43 is too new for
// the emulator build in @ton/sandbox 0.41) with param 34, the current validator set, replaced by a one-validator
// set whose key localnet holds, so the blocks it signs verify.
import { readFileSync } from "node:fs";
import { beginCell, Cell, Dictionary } from "@ton/core";
import { storeValidatorSet, type ValidatorDescr, type ValidatorSet } from "@tongate/block";

export const MAINNET_CONFIG_PATH = new URL("../assets/mainnet_config_2026-04_gv13.boc", import.meta.url);

export interface ValidatorInfo {
  publicKey: Buffer;
  weight: bigint;
  adnlAddr?: Buffer;
}

export function loadBaseConfig(): Cell {
  return Cell.fromBoc(readFileSync(MAINNET_CONFIG_PATH))[0]!;
}

export function configDict(config: Cell) {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config);
}

export function configParam(config: Cell, id: number): Cell | undefined {
  return configDict(config).get(id);
}

/** validators_ext#12 with one validator_addr#73 entry per validator (block.tlb). */
export function buildValidatorSet(validators: ValidatorInfo[], utimeSince: number, utimeUntil: number): Cell {
  const list = Dictionary.empty<number, ValidatorDescr>();
  validators.forEach((v, i) => list.set(i, { type: "validator_addr", publicKey: v.publicKey, weight: v.weight, adnlAddr: v.adnlAddr ?? Buffer.alloc(32) }));
  const set: ValidatorSet = {
    type: "validators_ext",
    utimeSince,
    utimeUntil,
    total: validators.length,
    main: validators.length,
    totalWeight: validators.reduce((n, v) => n + v.weight, 0n),
    list,
  };
  return beginCell().store(storeValidatorSet(set)).endCell();
}

/** The base config with param 34 (and 32/36 cleared: no previous or next set) for these validators. */
export function localnetConfig(base: Cell, validators: ValidatorInfo[], now: number): Cell {
  const dict = configDict(base);
  dict.set(34, buildValidatorSet(validators, now, 0xffffffff));
  dict.delete(32);
  dict.delete(36);
  return beginCell().storeDictDirect(dict).endCell();
}
