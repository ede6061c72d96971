// The classifier's input built from transactions as cells (an emulated trace, a sandbox run): the
// same TraceInput the decoder reads from the indexer's rows for the same transactions — hashes in
// standard base64, raw upper-case addresses, opcodes as signed 32-bit, bodies and StateInits as
// base64 BoCs of the exact cells the messages hold, the description's fields as the indexer's
// `description` object has them.
import { Address, beginCell, Dictionary, loadCommonMessageInfo, type Cell, type CommonMessageInfo, type Transaction, type TransactionDescription } from "@ton/core";
import type { TraceInput, TraceMessage, TraceTransaction, TransactionKind } from "./trace.js";

export interface TransactionCell {
  transaction: Transaction;
  /** The Transaction cell; its hash is the transaction hash. */
  cell: Cell;
  /** The account; absent: read from its messages (a transaction holds only the account's hash). */
  address?: Address;
  /** The masterchain block that committed it, when it differs from the options' (a trace read back from the chain). */
  mcSeqno?: number;
}

export interface TraceInputOptions {
  /** The masterchain block the transactions are (or would be) committed in, unless one says otherwise. */
  mcSeqno: number;
  /** TEP-467 normalized hash of the root's external-in message. */
  externalHashNorm?: string | null;
}

const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;
const b64 = (c: Cell) => c.hash().toString("base64");
/** As the indexer stores a BoC (serializeBoc: no index, with CRC32). */
const boc = (c: Cell) => c.toBoc({ idx: false, crc32: true }).toString("base64");

const STATUS = { active: "active", uninitialized: "uninit", frozen: "frozen", "non-existing": "nonexist" } as const;
const KIND: Record<TransactionDescription["type"], TransactionKind> = {
  generic: "ord",
  storage: "storage",
  "tick-tock": "tick_tock",
  "split-prepare": "split_prepare",
  "split-install": "split_install",
  "merge-prepare": "merge_prepare",
  "merge-install": "merge_install",
};
const SKIP_REASON: Record<string, string> = { "no-state": "no_state", "bad-state": "bad_state", "no-gas": "no_gas" };
const BOUNCE: Record<string, string> = { ok: "ok", "no-funds": "nofunds", "negative-funds": "negfunds" };

/** A message cell's parts, the body and StateInit as the exact cells it holds (an inline one: the cell of its bits and refs). */
function messageParts(cell: Cell): { info: CommonMessageInfo; init: Cell | null; body: Cell } {
  const s = cell.beginParse();
  const info = loadCommonMessageInfo(s);
  let init: Cell | null = null;
  // init:(Maybe (Either StateInit ^StateInit))
  if (s.loadBit()) {
    if (s.loadBit()) init = s.loadRef();
    else {
      // StateInit: split_depth:(Maybe (## 5)) special:(Maybe TickTock) code:(Maybe ^Cell) data:(Maybe ^Cell) library:(HashmapE 256 SimpleLib)
      const start = s.clone();
      const [bits, refs] = [s.remainingBits, s.remainingRefs];
      if (s.loadBit()) s.skip(5);
      if (s.loadBit()) s.skip(2);
      s.loadMaybeRef();
      s.loadMaybeRef();
      s.loadMaybeRef();
      const b = beginCell().storeBits(start.loadBits(bits - s.remainingBits));
      for (let i = 0; i < refs - s.remainingRefs; i++) b.storeRef(start.loadRef());
      init = b.endCell();
    }
  }
  // body:(Either X ^X)
  const body = s.loadBit() ? s.loadRef() : s.asCell();
  return { info, init, body };
}

function message(cell: Cell, hashNorm: string | null): TraceMessage {
  const { info, init, body } = messageParts(cell);
  const int = info.type === "internal" ? info : null;
  const s = body.beginParse(true);
  const extra = int?.value.other;
  return {
    hash: b64(cell),
    hashNorm: info.type === "external-in" ? hashNorm : null,
    source: info.type === "external-in" ? null : raw(info.src),
    destination: info.type === "external-out" ? null : raw(info.dest),
    value: int ? int.value.coins : null,
    valueExtraCurrencies: extra && extra.size > 0 ? Object.fromEntries([...extra].map(([k, v]) => [String(k), v.toString()])) : null,
    fwdFee: int ? int.forwardFee : null,
    ihrFee: int ? int.ihrFee : null,
    importFee: info.type === "external-in" ? info.importFee : null,
    createdLt: info.type === "external-in" ? null : info.createdLt,
    createdAt: info.type === "external-in" ? null : info.createdAt,
    opcode: s.remainingBits >= 32 ? s.loadInt(32) : null,
    bounce: int ? int.bounce : null,
    bounced: int ? int.bounced : null,
    body: boc(body),
    bodyHash: b64(body),
    initState: init ? boc(init) : null,
    initStateHash: init ? b64(init) : null,
  };
}

/** The message cells of a Transaction cell: …^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]… */
function messageCells(tx: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const s = tx.refs[0]!.beginParse();
  const inMsg = s.loadMaybeRef();
  const out = s.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
  return { inMsg, outMsgs: [...out.keys()].sort((a, b) => a - b).map((k) => out.get(k)!) };
}

/** The account of a transaction: given, else its in-message's destination or an out-message's source (a tick-tock: the masterchain). */
function accountOf(t: TransactionCell): Address {
  if (t.address) return t.address;
  const tx = t.transaction;
  const hash = Buffer.from(tx.address.toString(16).padStart(64, "0"), "hex");
  const dest = tx.inMessage?.info.type === "internal" || tx.inMessage?.info.type === "external-in" ? tx.inMessage.info.dest : undefined;
  if (dest) return dest;
  for (const m of tx.outMessages.values()) if (m.info.type !== "external-in") return m.info.src;
  return new Address(tx.description.type === "tick-tock" ? -1 : 0, hash);
}

function transaction(t: TransactionCell, o: TraceInputOptions): TraceTransaction {
  const tx = t.transaction;
  const d = tx.description;
  const compute = "computePhase" in d ? d.computePhase : undefined;
  const action = "actionPhase" in d ? d.actionPhase : undefined;
  const cells = messageCells(t.cell);
  return {
    hash: b64(t.cell),
    lt: tx.lt,
    account: raw(accountOf(t)),
    now: tx.now,
    mcBlockSeqno: t.mcSeqno ?? o.mcSeqno,
    origStatus: STATUS[tx.oldStatus],
    endStatus: STATUS[tx.endStatus],
    totalFees: tx.totalFees.coins,
    descr: KIND[d.type],
    aborted: "aborted" in d ? d.aborted : false,
    destroyed: "destroyed" in d ? d.destroyed : false,
    isTock: d.type === "tick-tock" ? d.isTock : null,
    computeExitCode: compute?.type === "vm" ? compute.exitCode : null,
    computeSkipped: compute ? compute.type === "skipped" : true,
    computeSkipReason: compute?.type === "skipped" ? (SKIP_REASON[compute.reason] ?? compute.reason) : null,
    actionResultCode: action ? action.resultCode : null,
    bounce: d.type === "generic" && d.bouncePhase ? (BOUNCE[d.bouncePhase.type] ?? null) : null,
    inMsg: cells.inMsg ? message(cells.inMsg, o.externalHashNorm ?? null) : null,
    outMsgs: cells.outMsgs.map((c) => message(c, null)),
  };
}

/**
 * The classifier's input of one trace from its transactions (any order; the root is the one with the
 * least lt), each as committed in masterchain block `o.mcSeqno` unless it says otherwise.
 */
export function traceInputFromTransactions(txs: readonly TransactionCell[], o: TraceInputOptions): TraceInput {
  if (txs.length === 0) throw new Error("a trace has at least one transaction");
  const transactions = txs.map((t) => transaction(t, o)).sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const root = transactions[0]!;
  const last = transactions[transactions.length - 1]!;
  const external = root.inMsg !== null && root.inMsg.source === null;
  return {
    traceId: root.hash,
    externalHash: external ? root.inMsg!.hash : null,
    externalHashNorm: external ? (o.externalHashNorm ?? null) : null,
    mcSeqnoStart: Math.min(...transactions.map((t) => t.mcBlockSeqno)),
    mcSeqnoEnd: Math.max(...transactions.map((t) => t.mcBlockSeqno)),
    startLt: root.lt,
    endLt: last.lt,
    startUtime: root.now,
    endUtime: last.now,
    transactions,
  };
}
