// Traces built from cells, for what the fixtures do not cover: a tree of transactions, each with
// the message that started it. Hashes are derived from a counter (unique and stable, not real).
import { createHash } from "node:crypto";
import { beginCell, type Cell } from "@ton/core";
import type { TraceInput, TraceMessage, TraceTransaction } from "../../src/trace.js";

export interface TxSpec {
  /** the account the transaction runs on (raw address) */
  account: string;
  /** the incoming message: source null for an external */
  source: string | null;
  value?: bigint;
  body?: Cell;
  bounce?: boolean;
  bounced?: boolean;
  aborted?: boolean;
  exitCode?: number;
  origStatus?: TraceTransaction["origStatus"];
  endStatus?: TraceTransaction["endStatus"];
  children?: TxSpec[];
  /** external-out messages (logs) the transaction sends, before its children's messages */
  logs?: Cell[];
}

let counter = 0;
const hashOf = (label: string) => createHash("sha256").update(`${label}:${++counter}`).digest("base64");

const boc = (c: Cell) => c.toBoc({ idx: false, crc32: false }).toString("base64");

function opcodeOf(body: Cell): number | null {
  if (body.bits.length < 32) return null;
  return body.beginParse().loadInt(32);
}

/** An external-out message (a contract's log) with this body. */
function logMessage(body: Cell, account: string, txLt: bigint, now: number): TraceMessage {
  return {
    hash: hashOf("log"),
    hashNorm: null,
    source: account,
    destination: null,
    value: null,
    valueExtraCurrencies: null,
    fwdFee: null,
    ihrFee: null,
    importFee: null,
    createdLt: txLt + 1n,
    createdAt: now,
    opcode: opcodeOf(body),
    bounce: null,
    bounced: null,
    body: boc(body),
    bodyHash: body.hash().toString("base64"),
    initState: null,
    initStateHash: null,
  };
}

/** A text comment body (op 0 + the text). */
export const comment = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();

/** The trace of a tree of transactions, in lt order (parents before children, depth first). */
export function buildTrace(root: TxSpec, startLt = 1_000_000n, now = 1_700_000_000): TraceInput {
  const txs: TraceTransaction[] = [];
  let lt = startLt;
  const visit = (spec: TxSpec, createdLt: bigint | null): TraceTransaction => {
    const body = spec.body ?? beginCell().endCell();
    const txLt = (lt += 10n);
    const inMsg: TraceMessage = {
      hash: hashOf("msg"),
      hashNorm: null,
      source: spec.source,
      destination: spec.account,
      value: spec.source === null ? null : spec.value ?? 0n,
      valueExtraCurrencies: null,
      fwdFee: spec.source === null ? null : 1000n,
      ihrFee: spec.source === null ? null : 0n,
      importFee: spec.source === null ? 0n : null,
      createdLt,
      createdAt: spec.source === null ? null : now,
      opcode: opcodeOf(body),
      bounce: spec.source === null ? null : spec.bounce ?? true,
      bounced: spec.source === null ? null : spec.bounced ?? false,
      body: boc(body),
      bodyHash: body.hash().toString("base64"),
      initState: null,
      initStateHash: null,
    };
    const tx: TraceTransaction = {
      hash: hashOf("tx"),
      lt: txLt,
      account: spec.account,
      now,
      mcBlockSeqno: 100,
      origStatus: spec.origStatus ?? "active",
      endStatus: spec.endStatus ?? "active",
      totalFees: 1_000_000n,
      descr: "ord",
      aborted: spec.aborted ?? false,
      destroyed: false,
      isTock: null,
      computeExitCode: spec.exitCode ?? (spec.aborted ? 100 : 0),
      computeSkipped: false,
      actionResultCode: 0,
      bounce: null,
      inMsg,
      outMsgs: [],
    };
    txs.push(tx);
    for (const log of spec.logs ?? []) tx.outMsgs.push(logMessage(log, spec.account, txLt, now));
    for (const [i, child] of (spec.children ?? []).entries()) {
      const c = visit(child, txLt + 1n + BigInt(i));
      const out = c.inMsg;
      if (out) tx.outMsgs.push(out);
    }
    return tx;
  };
  visit(root, null);
  txs.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const first = txs[0]!;
  const last = txs[txs.length - 1]!;
  return {
    traceId: first.hash,
    externalHash: root.source === null ? first.inMsg!.hash : null,
    externalHashNorm: null,
    mcSeqnoStart: 100,
    mcSeqnoEnd: 100,
    startLt: first.lt,
    endLt: last.lt,
    startUtime: now,
    endUtime: now,
    transactions: txs,
  };
}
