// The parts of key-index keys that every owner's tables share. LMDB orders keys byte-wise, so every
// part is fixed-width and big-endian: a range scan over a prefix (an account, a masterchain block)
// walks its entries in lt order. Two owners that key by account or lt (the indexer's transactions,
// the decoder's jetton wallets by owner) build their keys from these, so that one writes what the
// other's readers look up.

export const ACCOUNT_BYTES = 36;
export const HASH_BYTES = 32;
export const LT_BYTES = 8;

/** "WC:HEX" (raw, upper-case, as the store keeps addresses) → 4-byte workchain (sign flipped, so -1 sorts first) + 32 bytes. */
export function accountKey(raw: string): Buffer {
  const i = raw.indexOf(":");
  const out = Buffer.allocUnsafe(ACCOUNT_BYTES);
  out.writeUInt32BE((Number(raw.slice(0, i)) ^ 0x80000000) >>> 0, 0);
  out.write(raw.slice(i + 1), 4, 32, "hex");
  return out;
}

/** A base64 hash (the store's form) → its 32 bytes. */
export const hashKey = (b64: string): Buffer => Buffer.from(b64, "base64");

export function ltBytes(lt: string | bigint): Buffer {
  const out = Buffer.allocUnsafe(LT_BYTES);
  out.writeBigUInt64BE(BigInt(lt));
  return out;
}

export function u32Bytes(n: number): Buffer {
  const out = Buffer.allocUnsafe(4);
  out.writeUInt32BE(n);
  return out;
}

/** The key one past every key that starts with `prefix` (the end of a prefix range). */
export function prefixEnd(prefix: Buffer): Buffer {
  const out = Buffer.from(prefix);
  for (let i = out.length - 1; i >= 0; i--) {
    if (out[i]! < 0xff) {
      out[i] = out[i]! + 1;
      return out.subarray(0, i + 1);
    }
  }
  return Buffer.alloc(prefix.length + 1, 0xff);
}
