// Binary keys of the key index. LMDB orders keys byte-wise, so every part is fixed-width and
// big-endian: a range scan over a prefix walks one account's transactions in lt order, one
// masterchain block's transactions in lt order, and so on.

/** "WC:HEX" (raw, upper-case, as the store keeps addresses) → 4-byte workchain (sign flipped, so -1 sorts first) + 32 bytes. */
export function accountKey(raw: string): Buffer {
  const i = raw.indexOf(":");
  const out = Buffer.allocUnsafe(ACCOUNT_BYTES);
  out.writeUInt32BE((Number(raw.slice(0, i)) ^ 0x80000000) >>> 0, 0);
  out.write(raw.slice(i + 1), 4, 32, "hex");
  return out;
}


export const ACCOUNT_BYTES = 36;
export const HASH_BYTES = 32;
export const LT_BYTES = 8;

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

/** transactions: account + lt — the same order as the ClickHouse table's ORDER BY (account, lt). */
export const transactionKey = (account: string, lt: string | bigint): Buffer => Buffer.concat([accountKey(account), ltBytes(lt)]);

/** transactions_by_mc_block: mc seqno + lt + account (lt order within a block, then account). */
export const mcBlockKey = (mcSeqno: number, lt: string | bigint, account: string): Buffer => Buffer.concat([u32Bytes(mcSeqno), ltBytes(lt), accountKey(account)]);

/** transactions_by_message: message hash + direction (0 in, 1 out) + transaction key. */
export const messageKey = (msgHash: string, direction: "in" | "out", account: string, lt: string | bigint): Buffer =>
  Buffer.concat([hashKey(msgHash), Buffer.of(direction === "in" ? 0 : 1), accountKey(account), ltBytes(lt)]);

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

/** messages_by_address: address + side (0 source, 1 destination) + created_lt + message hash. */
export const addressMessageKey = (account: string, side: "source" | "destination", createdLt: string | bigint, msgHash: string): Buffer =>
  Buffer.concat([accountKey(account), Buffer.of(side === "source" ? 0 : 1), ltBytes(createdLt), hashKey(msgHash)]);

/** traces: trace id (the root transaction's hash) → its record. */
export const traceKey = hashKey;

/** trace_transactions: trace id + lt + account — a trace's transactions in (lt, account) order, as /traces lists them. */
export const traceTransactionKey = (traceId: string, lt: string | bigint, account: string): Buffer => Buffer.concat([hashKey(traceId), ltBytes(lt), accountKey(account)]);

/** traces_by_account: account + the trace's end_lt + trace id — an account's traces in /traces order. */
export const accountTraceKey = (account: Buffer, endLt: Buffer, traceId: Buffer): Buffer => Buffer.concat([account, endLt, traceId]);

/** traces_by_mc_block: the masterchain block that completed a trace + its end_lt + trace id — a block's complete traces in /traces order. */
export const mcBlockTraceKey = (mcSeqno: number, endLt: Buffer, traceId: Buffer): Buffer => Buffer.concat([u32Bytes(mcSeqno), endLt, traceId]);
