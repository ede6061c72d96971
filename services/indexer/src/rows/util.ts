// Formatting shared by the row builders: the value conventions of ./types.ts.
import type { Address, Cell, CurrencyCollection } from "@ton/core";
import { serializeBoc } from "@tongate/ton";

/** Standard base64 of a 32-byte hash. */
export function b64(hash: Buffer): string {
  return hash.toString("base64");
}

/** A 256-bit integer (as @ton/core loads bits256 fields) as base64 of its 32 big-endian bytes. */
export function b64Big(v: bigint): string {
  return Buffer.from(v.toString(16).padStart(64, "0"), "hex").toString("base64");
}

/** Raw `WC:HEX` (upper-case hex) as toncenter v3 renders addresses. */
export function rawAddress(workchain: number, hash: Buffer | bigint): string {
  const hex = typeof hash === "bigint" ? hash.toString(16).padStart(64, "0") : hash.toString("hex");
  return `${workchain}:${hex.toUpperCase()}`;
}

export function rawOf(a: Address): string {
  return rawAddress(a.workChain, a.hash);
}

export function cellHash(c: Cell): string {
  return b64(c.hash());
}

/** The BoC of a cell tree as `c.toBoc({ idx: false, crc32: true })` makes it, base64. */
export function bocB64(c: Cell): string {
  return serializeBoc([c]).toString("base64");
}

/** Extra currencies of a CurrencyCollection as toncenter's `{ "<id>": "<amount>" }`. */
export function extraCurrencies(cc: CurrencyCollection): Record<string, string> {
  const out: Record<string, string> = {};
  if (!cc.other) return out;
  for (const [id, amount] of cc.other) out[String(id)] = amount.toString();
  return out;
}
