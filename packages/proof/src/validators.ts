// The masterchain validator subset of a block (block::Config::do_compute_validator_set, masterchain branch)
// and the catchain config it depends on (ConfigParam 28).
import { createHash } from "node:crypto";
import type { Cell } from "@ton/core";
import { type ValidatorDescr, type ValidatorSet, validatorList } from "@tongate/block";
import { openCell } from "./cells.js";
import { fail } from "./errors.js";

/**
 * ConfigParam 28 (CatchainConfig): only shuffle_mc_validators matters here.
 * catchain_config#c1 … / catchain_config_new#c2 flags:(## 7) { flags = 0 } shuffle_mc_validators:Bool …
 * Absent param: the validator's default (no shuffle).
 */
export function shuffleMcValidators(p28: Cell | null, what: string): boolean {
  if (!p28) return false;
  const s = openCell(p28, `${what}: ConfigParam 28`);
  const tag = s.loadUint(8);
  if (tag === 0xc1) return false;
  if (tag !== 0xc2) fail(`${what}: ConfigParam 28 has bad tag 0x${tag.toString(16)}`);
  const flags = s.loadUint(7);
  if (flags !== 0) fail(`${what}: ConfigParam 28 has flags ${flags}`);
  return s.loadBit();
}

/**
 * ValidatorSetPRNG: SHA-512 over validator_set_descr { seed[32] = 0, shard:u64 BE, workchain:i32 BE,
 * cc_seqno:u32 BE }, 8 big-endian 64-bit words per hash, seed incremented (big-endian) after each hash.
 */
class ValidatorSetPrng {
  private readonly descr: Buffer;
  private words: bigint[] = [];
  private pos = 0;

  constructor(workchain: number, shard: bigint, ccSeqno: number) {
    this.descr = Buffer.alloc(48);
    this.descr.writeBigUInt64BE(BigInt.asUintN(64, shard), 32);
    this.descr.writeInt32BE(workchain, 40);
    this.descr.writeUInt32BE(ccSeqno >>> 0, 44);
  }

  private nextU64(): bigint {
    if (this.pos < this.words.length) return this.words[this.pos++];
    const h = createHash("sha512").update(this.descr).digest();
    for (let i = 31; i >= 0; i--) {
      this.descr[i] = (this.descr[i] + 1) & 0xff;
      if (this.descr[i] !== 0) break;
    }
    this.words = Array.from({ length: 8 }, (_, i) => h.readBigUInt64BE(i * 8));
    this.pos = 1;
    return this.words[0];
  }

  /** A number in 0 .. range-1: the high 64 bits of range * next(). */
  nextRanged(range: bigint): bigint {
    return (range * this.nextU64()) >> 64n;
  }
}

/** The validators that sign masterchain blocks of catchain `ccSeqno`, in the order the validator hashes them. */
export function masterchainValidatorSubset(vset: ValidatorSet, shuffle: boolean, ccSeqno: number): ValidatorDescr[] {
  const list = validatorList(vset);
  const count = Math.min(vset.main, vset.total, list.length);
  if (!shuffle) return list.slice(0, count);
  const prng = new ValidatorSetPrng(-1, 0x8000000000000000n, ccSeqno);
  const idx: number[] = new Array<number>(count).fill(0);
  for (let i = 0; i < count; i++) {
    const j = Number(prng.nextRanged(BigInt(i + 1)));
    idx[i] = idx[j];
    idx[j] = i;
  }
  return idx.map((i) => list[i]);
}
