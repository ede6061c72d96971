// /balanceChanges: what a trace, or one of its actions, changed (toncenter's crud/balances.go). Per
// transaction of the trace: its fees to its account; the value of its internal in-message from the
// sender to it, and the message's forwarding fee to the sender when the sender's transaction is in
// the trace; the jetton transfer it processed (the decoder's listed jetton_transfers: confirmed
// wallets, not aborted) from the sending owner to the receiving one. A trace sums its transactions;
// an action those of its transactions, less the one that sent its first message when that one was
// itself caused by a message (and nothing for a contract_deploy, as toncenter). `changes` is value
// less fees.
import { create, type JsonObject } from "@bufbuild/protobuf";
import { type BalanceChangesResponse, BalanceChangesResponseSchema, type GetBalanceChangesRequest } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import type { MessageRow } from "../../rows/types.js";
import { apiError } from "@tongate/runtime";
import { messageKey } from "../blockchain/models.js";
import { transactionParts } from "../blockchain/parts.js";
import { decodedUpTo, listedEvents } from "../decoded.js";
import { b64Hash } from "../params.js";
import { select, type Store, type StoredTransaction, Where } from "../sql.js";
import { actionsById } from "./queries.js";

/** The changes of one transaction, or of several summed. */
class Changes {
  readonly value = new Map<string, bigint>();
  readonly fees = new Map<string, bigint>();
  /** owner → jetton master → amount */
  readonly jettons = new Map<string, Map<string, bigint>>();

  addValue(address: string, v: bigint): void {
    this.value.set(address, (this.value.get(address) ?? 0n) + v);
  }

  addFees(address: string, v: bigint): void {
    this.fees.set(address, (this.fees.get(address) ?? 0n) + v);
  }

  addJetton(owner: string, master: string, v: bigint): void {
    let m = this.jettons.get(owner);
    if (!m) this.jettons.set(owner, (m = new Map()));
    m.set(master, (m.get(master) ?? 0n) + v);
  }

  merge(o: Changes): void {
    for (const [a, v] of o.value) this.addValue(a, v);
    for (const [a, v] of o.fees) this.addFees(a, v);
    for (const [owner, m] of o.jettons) for (const [master, v] of m) this.addJetton(owner, master, v);
  }

  response(): BalanceChangesResponse {
    const changes: Record<string, bigint> = {};
    for (const [a, v] of this.value) changes[a] = v;
    for (const [a, v] of this.fees) changes[a] = (changes[a] ?? 0n) - v;
    const jettons: JsonObject = {};
    for (const [owner, m] of this.jettons) jettons[owner] = Object.fromEntries([...m].map(([master, v]) => [master, String(v)]));
    return create(BalanceChangesResponseSchema, { changes, fees: Object.fromEntries(this.fees), jettons });
  }
}

type JettonMove = { transaction_hash: string; jetton_master: string; source: string | null; destination: string | null; amount: string };

export async function balanceChanges(store: Store, req: GetBalanceChangesRequest): Promise<BalanceChangesResponse> {
  const upTo = await decodedUpTo(store);
  let traceId: string;
  let actionTxs: string[] | undefined;
  if (req.actionId !== undefined) {
    const action = upTo === null ? undefined : (await actionsById(store, [b64Hash(req.actionId)], upTo))[0];
    if (!action) throw apiError(404, `action_id: no action ${req.actionId} is known`);
    if (action.type === "contract_deploy") return new Changes().response();
    traceId = action.trace_id;
    actionTxs = action.tx_hashes;
  } else {
    traceId = b64Hash(req.traceId!);
  }
  const txs = await select<StoredTransaction>(
    store,
    `SELECT * FROM transactions FINAL
     WHERE (account, lt) IN (SELECT account, lt FROM transactions_by_trace FINAL WHERE trace_id = {t:String})
     ORDER BY lt, account`,
    { t: traceId },
  );
  if (!txs.length) throw apiError(404, `trace_id: no trace ${req.traceId ?? traceId} is indexed`);
  const perTx = await transactionChanges(store, txs, traceId, upTo);
  const total = new Changes();
  if (actionTxs) {
    const wanted = new Set(actionTxs);
    const ofAction = txs.filter((t) => wanted.has(t.hash));
    // the first transaction is the one that sent the action's first message, unless an external message started it
    const first = ofAction[0];
    if (first && first.in_msg_hash !== null && perTx.internalIn.has(first.hash)) ofAction.shift();
    for (const t of ofAction) total.merge(perTx.changes.get(t.hash)!);
  } else {
    for (const c of perTx.changes.values()) total.merge(c);
  }
  return total.response();
}

/** Each transaction's changes, and the transactions whose in-message is internal. */
async function transactionChanges(
  store: Store,
  txs: readonly StoredTransaction[],
  traceId: string,
  upTo: number | null,
): Promise<{ changes: Map<string, Changes>; internalIn: Set<string> }> {
  const parts = await transactionParts(store, txs);
  const sentHere = new Set(txs.flatMap((t) => t.out_msg_hashes));
  const jettons = upTo === null ? [] : await jettonMoves(store, traceId, upTo);
  const moves = new Map(jettons.map((j) => [j.transaction_hash, j]));
  const changes = new Map<string, Changes>();
  const internalIn = new Set<string>();
  for (const t of txs) {
    const c = new Changes();
    c.addFees(t.account, BigInt(t.total_fees));
    const inMsg: MessageRow | undefined = t.in_msg_hash === null ? undefined : parts.messages.get(messageKey(t.in_msg_hash, "in", t.hash));
    if (inMsg?.source) {
      internalIn.add(t.hash);
      if (sentHere.has(inMsg.msg_hash) && inMsg.fwd_fee !== null) c.addFees(inMsg.source, BigInt(inMsg.fwd_fee));
      if (inMsg.value !== null) {
        c.addValue(inMsg.source, -BigInt(inMsg.value));
        c.addValue(t.account, BigInt(inMsg.value));
      }
    }
    const move = moves.get(t.hash);
    if (move?.source && move.destination) {
      c.addJetton(move.source, move.jetton_master, -BigInt(move.amount));
      c.addJetton(move.destination, move.jetton_master, BigInt(move.amount));
    }
    changes.set(t.hash, c);
  }
  return { changes, internalIn };
}

/** The trace's listed jetton transfers, one per transaction. */
function jettonMoves(store: Store, traceId: string, upTo: number): Promise<JettonMove[]> {
  const w = new Where();
  listedEvents(w, upTo);
  w.add("trace_id = {}", ["String", traceId]);
  return select<JettonMove>(
    store,
    `SELECT transaction_hash, jetton_master, source, destination, amount FROM jetton_transfers FINAL ${w.sql} ORDER BY transaction_hash LIMIT 1 BY transaction_hash`,
    w.params,
  );
}
