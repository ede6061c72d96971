// A trace of real contract code run in @ton/sandbox (the emulator TON nodes run), as the
// classifier's TraceInput: what the indexer would record for the same transactions.
import { beginCell, storeMessage, type Address, type Message, type Transaction } from "@ton/core";
import type { TraceInput, TraceMessage, TraceTransaction } from "../../src/trace.js";

const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
const accountOf = (workchain: number, address: bigint) => `${workchain}:${address.toString(16).toUpperCase().padStart(64, "0")}`;
const STATUS = { active: "active", uninitialized: "uninit", frozen: "frozen", "non-existing": "nonexist" } as const;

function message(m: Message): TraceMessage {
  const body = m.body;
  const opcode = body.bits.length >= 32 ? body.beginParse().loadInt(32) : null;
  const int = m.info.type === "internal" ? m.info : null;
  return {
    hash: beginCell().store(storeMessage(m)).endCell().hash().toString("base64"),
    hashNorm: null,
    source: m.info.type === "external-in" ? null : raw(m.info.src),
    destination: m.info.type === "external-out" ? null : raw(m.info.dest),
    value: int ? int.value.coins : null,
    valueExtraCurrencies: int ? {} : null,
    fwdFee: int ? int.forwardFee : null,
    ihrFee: int ? int.ihrFee : null,
    importFee: m.info.type === "external-in" ? m.info.importFee : null,
    createdLt: int ? int.createdLt : m.info.type === "external-out" ? m.info.createdLt : null,
    createdAt: int ? int.createdAt : m.info.type === "external-out" ? m.info.createdAt : null,
    opcode,
    bounce: int ? int.bounce : null,
    bounced: int ? int.bounced : null,
    body: body.toBoc().toString("base64"),
    bodyHash: body.hash().toString("base64"),
    initState: null,
    initStateHash: null,
  };
}

function transaction(tx: Transaction, workchainOf: (address: bigint) => number): TraceTransaction {
  const d = tx.description;
  if (d.type !== "generic") throw new Error(`unexpected transaction ${d.type}`);
  const compute = d.computePhase;
  return {
    hash: tx.hash().toString("base64"),
    lt: tx.lt,
    account: accountOf(workchainOf(tx.address), tx.address),
    now: tx.now,
    mcBlockSeqno: 1,
    origStatus: STATUS[tx.oldStatus],
    endStatus: STATUS[tx.endStatus],
    totalFees: tx.totalFees.coins,
    descr: "ord",
    aborted: d.aborted,
    destroyed: d.destroyed,
    isTock: null,
    computeExitCode: compute.type === "vm" ? compute.exitCode : null,
    computeSkipped: compute.type === "skipped",
    computeSkipReason: compute.type === "skipped" ? compute.reason : null,
    actionResultCode: d.actionPhase?.resultCode ?? null,
    bounce: null,
    inMsg: tx.inMessage ? message(tx.inMessage) : null,
    outMsgs: tx.outMessages.values().map(message),
  };
}

/** The transactions of one sandbox send as one trace. `workchainOf` names each account's workchain (the transaction holds only the hash). */
export function traceOfSandbox(transactions: readonly Transaction[], workchainOf: (address: bigint) => number = () => 0): TraceInput {
  const txs = transactions.map((t) => transaction(t, workchainOf)).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const first = txs[0];
  const last = txs[txs.length - 1];
  return {
    traceId: first.hash,
    externalHash: first.inMsg?.source === null ? first.inMsg.hash : null,
    externalHashNorm: null,
    mcSeqnoStart: 1,
    mcSeqnoEnd: 1,
    startLt: first.lt,
    endLt: last.lt,
    startUtime: first.now,
    endUtime: last.now,
    transactions: txs,
  };
}
