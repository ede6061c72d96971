// The indexer's keys of the key index, built from the shared parts of @tongate/store (fixed-width,
// big-endian): a range scan over a prefix walks one account's transactions in lt order, one
// masterchain block's transactions in lt order, and so on.
import { accountKey, hashKey, ltBytes, u32Bytes } from "@tongate/store";

/** transactions: account + lt — the same order as the ClickHouse table's ORDER BY (account, lt). */
export const transactionKey = (account: string, lt: string | bigint): Buffer => Buffer.concat([accountKey(account), ltBytes(lt)]);

/** transactions_by_mc_block: mc seqno + lt + account (lt order within a block, then account). */
export const mcBlockKey = (mcSeqno: number, lt: string | bigint, account: string): Buffer => Buffer.concat([u32Bytes(mcSeqno), ltBytes(lt), accountKey(account)]);

/** transactions_by_message: message hash + direction (0 in, 1 out) + transaction key. */
export const messageKey = (msgHash: string, direction: "in" | "out", account: string, lt: string | bigint): Buffer =>
  Buffer.concat([hashKey(msgHash), Buffer.of(direction === "in" ? 0 : 1), accountKey(account), ltBytes(lt)]);

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
