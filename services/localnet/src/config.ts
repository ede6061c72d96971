// The chain's configuration: the real mainnet config (global version 13, April
// 2026; a shared fixture bundled here; the gv15 config's param 43 is too new for
// the emulator build in @ton/sandbox 0.41) with param 34, the current validator set, replaced by a one-validator
// set whose key localnet holds, so the blocks it signs verify.
import { readFileSync } from "node:fs";
import { beginCell, Cell, Dictionary, type Builder, type Slice } from "@ton/core";

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

/** ValidatorDescr values stored in place in the HashmapE (not as references). */
const InlineCell = {
  serialize: (src: Cell, b: Builder) => void b.storeSlice(src.beginParse()),
  parse: (s: Slice) => s.asCell(),
};

/** validators_ext#12 with one validator_addr#73 entry per validator (block.tlb). */
export function buildValidatorSet(validators: ValidatorInfo[], utimeSince: number, utimeUntil: number): Cell {
  const list = Dictionary.empty(Dictionary.Keys.Uint(16), InlineCell);
  let total = 0n;
  validators.forEach((v, i) => {
    total += v.weight;
    list.set(
      i,
      beginCell()
        .storeUint(0x73, 8)
        .storeUint(0x8e81278a, 32) // ed25519_pubkey
        .storeBuffer(v.publicKey, 32)
        .storeUint(v.weight, 64)
        .storeBuffer(v.adnlAddr ?? Buffer.alloc(32), 32)
        .endCell(),
    );
  });
  return beginCell()
    .storeUint(0x12, 8)
    .storeUint(utimeSince, 32)
    .storeUint(utimeUntil, 32)
    .storeUint(validators.length, 16)
    .storeUint(validators.length, 16)
    .storeUint(total, 64)
    .storeDict(list)
    .endCell();
}

/** The base config with param 34 (and 32/36 cleared: no previous or next set) for these validators. */
export function localnetConfig(base: Cell, validators: ValidatorInfo[], now: number): Cell {
  const dict = configDict(base);
  dict.set(34, buildValidatorSet(validators, now, 0xffffffff));
  dict.delete(32);
  dict.delete(36);
  return beginCell().storeDictDirect(dict).endCell();
}
