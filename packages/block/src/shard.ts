// ShardIdent and shard prefix arithmetic.
//
// A shard id is the 64-bit value `prefix bits . 1 . 0…0` (the validator's ton::ShardId): the
// highest `pfxBits` bits are the account-id prefix, followed by a tag bit 1. 0x8000000000000000 is
// the whole workchain (pfxBits 0), 0xa000000000000000 is prefix "10" (pfxBits 2).
// In a ShardIdent the validator stores `shard & (shard - 1)`, i.e. the prefix bits left-aligned
// WITHOUT the tag bit (shard_prefix 0 for the full shard, 0x8000000000000000 for 0xa000000000000000).
import type { Builder, Slice } from "@ton/core";

const U64 = (1n << 64n) - 1n;
export const SHARD_FULL = 0x8000000000000000n;
export const MASTERCHAIN = -1;
export const BASECHAIN = 0;
export const MAX_SHARD_PFX_BITS = 60;

/** shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64 = ShardIdent. */
export interface ShardIdent {
  shardPfxBits: number;
  workchainId: number;
  /** The prefix bits, left-aligned in 64 bits, without the tag bit (use shardIdOf for the shard id). */
  shardPrefix: bigint;
}

export function loadShardIdent(slice: Slice): ShardIdent {
  const tag = slice.loadUint(2);
  if (tag !== 0) throw new Error(`ShardIdent: bad tag ${tag}`);
  const shardPfxBits = slice.loadUint(6);
  if (shardPfxBits > MAX_SHARD_PFX_BITS) throw new Error(`ShardIdent: shard_pfx_bits ${shardPfxBits} > 60`);
  const workchainId = slice.loadInt(32);
  const shardPrefix = slice.loadUintBig(64);
  return { shardPfxBits, workchainId, shardPrefix };
}

export function storeShardIdent(src: ShardIdent) {
  return (b: Builder): void => {
    if (src.shardPfxBits < 0 || src.shardPfxBits > MAX_SHARD_PFX_BITS) throw new Error("ShardIdent: bad shard_pfx_bits");
    b.storeUint(0, 2);
    b.storeUint(src.shardPfxBits, 6);
    b.storeInt(src.workchainId, 32);
    b.storeUint(src.shardPrefix, 64);
  };
}

function checkShard(shard: bigint): void {
  if (shard <= 0n || shard > U64) throw new Error(`invalid shard id ${shard.toString(16)}`);
}

/** Lowest set bit of a 64-bit shard id (its tag bit). */
function lowerBit(shard: bigint): bigint {
  return shard & -shard;
}

/** Prefix length of a shard id (63 - trailing zeros); 0 for the full shard. */
export function shardPrefixLength(shard: bigint): number {
  checkShard(shard);
  let n = 0;
  let x = shard;
  while ((x & 1n) === 0n) {
    x >>= 1n;
    n++;
  }
  return 63 - n;
}

/** Shard id from (pfxBits, prefix), `prefix` being the pfxBits-bit account prefix value. */
export function shardFromPrefix(pfxBits: number, prefix: bigint): bigint {
  if (pfxBits < 0 || pfxBits > 63) throw new Error("bad prefix length");
  if (prefix < 0n || prefix >= 1n << BigInt(pfxBits)) throw new Error("prefix does not fit");
  return ((prefix << 1n) | 1n) << BigInt(63 - pfxBits);
}

/** (pfxBits, prefix value) of a shard id. */
export function shardToPrefix(shard: bigint): { pfxBits: number; prefix: bigint } {
  const pfxBits = shardPrefixLength(shard);
  return { pfxBits, prefix: shard >> BigInt(64 - pfxBits) };
}

/** ShardIdent for a (workchain, shard id) pair, as the validator packs it. */
export function shardIdentOf(workchainId: number, shard: bigint): ShardIdent {
  return { workchainId, shardPfxBits: shardPrefixLength(shard), shardPrefix: shard & (shard - 1n) };
}

/** The 64-bit shard id of a ShardIdent (prefix bits, then the tag bit). */
export function shardIdOf(ident: ShardIdent): bigint {
  const p = BigInt(ident.shardPfxBits);
  const tag = 1n << (63n - p);
  return (ident.shardPrefix & ~(tag * 2n - 1n) & U64) | tag;
}

export function shardIsFull(shard: bigint): boolean {
  return shard === SHARD_FULL;
}

/** Left (`right` = false: next bit 0) or right child of a shard. */
export function shardChild(shard: bigint, right: boolean): bigint {
  checkShard(shard);
  const lb = lowerBit(shard);
  if (lb === 1n) throw new Error("shard cannot be split further");
  const half = lb >> 1n;
  return right ? shard + half : shard - half;
}

export function shardChildren(shard: bigint): [bigint, bigint] {
  return [shardChild(shard, false), shardChild(shard, true)];
}

/** Parent shard (one prefix bit shorter). */
export function shardParent(shard: bigint): bigint {
  checkShard(shard);
  if (shard === SHARD_FULL) throw new Error("the full shard has no parent");
  const lb = lowerBit(shard);
  return ((shard - lb) | (lb << 1n)) & U64;
}

/** True if `ancestor` contains `descendant` (or equals it). */
export function shardIsAncestor(ancestor: bigint, descendant: bigint): boolean {
  checkShard(ancestor);
  checkShard(descendant);
  const lb = lowerBit(ancestor);
  if (lb < lowerBit(descendant)) return false;
  const mask = (~(lb * 2n - 1n)) & U64; // prefix bits of the ancestor
  return (ancestor & mask) === (descendant & mask);
}

/** True if the two shards overlap (one is an ancestor of the other). */
export function shardIntersects(a: bigint, b: bigint): boolean {
  return shardIsAncestor(a, b) || shardIsAncestor(b, a);
}

/** The 64-bit account prefix of a 256-bit account id (Buffer of 32 bytes or bigint). */
export function accountPrefix64(account: Buffer | bigint): bigint {
  if (typeof account === "bigint") return account >> 192n;
  if (account.length !== 32) throw new Error("account id must be 32 bytes");
  return account.readBigUInt64BE(0);
}

/** True if the account id belongs to the shard. */
export function shardContainsAccount(shard: bigint, account: Buffer | bigint): boolean {
  checkShard(shard);
  const lb = lowerBit(shard);
  const mask = (~(lb * 2n - 1n)) & U64;
  return (accountPrefix64(account) & mask) === (shard & mask);
}

/** The shard of a given prefix length containing the account. */
export function shardForAccount(account: Buffer | bigint, pfxBits: number): bigint {
  const p = accountPrefix64(account);
  return pfxBits === 0 ? SHARD_FULL : shardFromPrefix(pfxBits, p >> BigInt(64 - pfxBits));
}

/** Shard id as the signed int64 toncenter API v3 prints (0x8000000000000000 → -9223372036854775808). */
export function shardToSigned(shard: bigint): bigint {
  return BigInt.asIntN(64, shard);
}

export function shardFromSigned(shard: bigint | string | number): bigint {
  return BigInt.asUintN(64, BigInt(shard));
}

/** "0:8000000000000000" (workchain, then the 64-bit shard id in 16 lowercase hex digits). */
export function shardIdToString(workchainId: number, shard: bigint): string;
export function shardIdToString(ident: ShardIdent): string;
export function shardIdToString(a: number | ShardIdent, shard?: bigint): string {
  const [wc, s] = typeof a === "number" ? [a, shard!] : [a.workchainId, shardIdOf(a)];
  return `${wc}:${(s & U64).toString(16).padStart(16, "0")}`;
}

/** Parses "wc:hex16" (as printed by shardIdToString) back into (workchain, shard). */
export function parseShardIdString(src: string): { workchainId: number; shard: bigint } {
  const m = /^(-?\d+):([0-9a-fA-F]{16})$/.exec(src);
  if (!m) throw new Error(`bad shard id string ${JSON.stringify(src)}`);
  const shard = BigInt("0x" + m[2]);
  checkShard(shard);
  return { workchainId: Number(m[1]), shard };
}
