// The send service's pending transactions → API v3's Transaction, with the rendering the indexer
// gives the transactions it stores (rows/transaction.ts, then ./models.ts transactionOf): the same
// description, messages with decoded bodies and before/after states, but emulated (finality
// "pending") or in a shard block no masterchain block has committed yet ("confirmed").
import { create } from "@bufbuild/protobuf";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { Cell } from "@ton/core";
import { SHARD_FULL, shardToSigned } from "@tongate/block";
import { type AccountStateSummary, Finality, type PendingTrace, type PendingTransaction } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { type GetPendingTransactionsRequest, type Transaction, type TransactionsResponse, TransactionsResponseSchema } from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { apiError } from "@tongate/runtime";
import { parseMessageCell, transactionMessageCells, transactionRows } from "../../rows/index.js";
import type { AccountStatus, TransactionStateRow } from "../../rows/types.js";
import { b64Hash, rawAddress } from "../params.js";
import { deliveredMessages } from "@tongate/store";
import { openTraces } from "../landed.js";
import type { PendingSource } from "../pending.js";
import type { Store } from "../sql.js";
import { messageKey, transactionOf } from "./models.js";

export const b64 = (bytes: Uint8Array): string => base64Encode(bytes, "std");

/** toncenter's names of the finality states. */
export function finalityName(f: Finality): "pending" | "confirmed" | "finalized" {
  switch (f) {
    case Finality.CONFIRMED:
      return "confirmed";
    case Finality.FINALIZED:
      return "finalized";
    default:
      return "pending";
  }
}

const FULL_SHARD = String(shardToSigned(SHARD_FULL));

/** A confirmed transaction's shard as the send service names it: a signed 64-bit decimal. */
function signedShard(shard: string): string {
  if (/^-?\d{1,20}$/.test(shard) && BigInt.asIntN(64, BigInt(shard)) === BigInt(shard)) return shard;
  throw apiError(502, `the send service gave a confirmed transaction in shard ${JSON.stringify(shard.slice(0, 40))}, not a signed 64-bit decimal`);
}

const STATUSES: readonly AccountStatus[] = ["active", "uninit", "frozen", "nonexist"];
const statusOf = (s: string): AccountStatus => STATUSES.find((x) => x === s) ?? "nonexist";

/** The fields account_state_before/after show, from the send service's summary of the state. */
function stateRow(hash: string, s: AccountStateSummary): TransactionStateRow {
  const h = (bytes: Uint8Array): string | null => (bytes.length ? b64(bytes) : null);
  return {
    hash,
    balance: s.balance.toString(),
    balance_extra_currencies: {},
    account_status: statusOf(s.status),
    frozen_hash: h(s.frozenHash),
    code_hash: h(s.codeHash),
    data_hash: h(s.dataHash),
  };
}

/** Whether the summary is of the state with this hash (a nonexistent account's summary has no hash). */
const describes = (s: AccountStateSummary, hash: string): boolean => (s.hash.length ? b64(s.hash) === hash : s.status === "nonexist");

/**
 * A pending transaction as API v3 shows a transaction (its trace_id is the trace's to set). The cell
 * names its account by hash only: the workchain is its in message's destination's (every
 * transaction of a trace has one), else the shard block's.
 */
export function pendingTransactionOf(p: PendingTransaction): Transaction {
  let cell: Cell;
  try {
    cell = Cell.fromBoc(Buffer.from(p.boc, "base64"))[0];
  } catch (e) {
    throw apiError(502, `the send service gave a pending transaction that is not a BoC: ${(e as Error).message}`);
  }
  const inMsg = transactionMessageCells(cell).inMsg;
  const info = inMsg ? parseMessageCell(inMsg).msg.info : undefined;
  const workchain = info && info.type !== "external-out" ? info.dest.workChain : p.blockWorkchain;
  const confirmed = p.finality !== Finality.PENDING && p.finality !== Finality.UNSPECIFIED;
  const block = confirmed ? { workchain, shard: signedShard(p.blockShard), seqno: p.blockSeqno } : { workchain, shard: FULL_SHARD, seqno: 0 };
  const rows = transactionRows(cell, { block, mcSeqno: p.mcBlockSeqno });
  const t = rows.transaction;
  // a summary shows only for the state the transaction names (an emulated one kept beside the real
  // transaction that replaced it may describe another); else the hash alone, as the indexer shows a
  // state it does not know
  const states = new Map<string, TransactionStateRow>();
  for (const [hash, s] of [
    [t.account_state_hash_before, p.accountStateBefore],
    [t.account_state_hash_after, p.accountStateAfter],
  ] as const) {
    if (s && describes(s, hash)) states.set(hash, stateRow(hash, s));
  }
  const tx = transactionOf(t, {
    messages: new Map(rows.messages.map((m) => [messageKey(m.msg_hash, m.direction, m.tx_hash), m])),
    contents: new Map(rows.contents.map((c) => [c.hash, c.boc])),
    states,
  });
  tx.emulated = !confirmed;
  tx.finality = finalityName(p.finality);
  return tx;
}

/**
 * The trace's transactions, rendered, in its order (lt, the root first), each with the trace's id:
 * its root transaction's hash, the emulated root's until the real one is confirmed in its place.
 */
export function traceTransactions(trace: PendingTrace): Transaction[] {
  const txs = trace.transactions.map(pendingTransactionOf);
  const traceId = txs[0]?.hash ?? b64(trace.traceId);
  for (const t of txs) t.traceId = traceId;
  return txs;
}

/**
 * /pendingTransactions: the transactions of the pending traces of the accounts, or of the traces
 * named, but those whose message the index has delivered (toncenter's rule).
 */
export async function pendingTransactions(store: Store, pending: PendingSource, req: GetPendingTransactionsRequest, signal?: AbortSignal): Promise<TransactionsResponse> {
  const traces = await openTraces(store, pending, { accounts: req.account.map(rawAddress), traceIds: req.traceId.map((h) => Buffer.from(b64Hash(h), "base64")) }, signal);
  const all = traces.flatMap(traceTransactions).filter((t) => t.finality !== "finalized");
  const delivered = await deliveredMessages(
    store,
    all.flatMap((t) => (t.inMsg ? [t.inMsg.hash] : [])),
  );
  const transactions = all.filter((t) => !t.inMsg || !delivered.has(t.inMsg.hash));
  // toncenter's answer when no pending trace matches
  if (!transactions.length) throw apiError(404, "emulated traces not found");
  return create(TransactionsResponseSchema, { transactions });
}
