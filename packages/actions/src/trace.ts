// What the classifier reads: one trace, its transactions and their messages. The shape follows
// toncenter's trace rows (ton-indexer's Trace/Transaction/Message) with typed values: the decoder
// builds it from the indexed history, the replay harness from the fixtures' trace files.
// Addresses are raw upper-case "<wc>:<HEX>", hashes standard base64, as toncenter's rows hold them.

export interface TraceMessage {
  /** hash of the message cell (base64) */
  hash: string;
  /** TEP-467 normalised hash of an external-in message */
  hashNorm?: string | null;
  /** null for an external-in message */
  source: string | null;
  /** null for an external-out message (a log) */
  destination: string | null;
  /** nanotons; null for external messages */
  value: bigint | null;
  /** extra currencies by id, decimal amounts (empty or null when none) */
  valueExtraCurrencies: Record<string, string> | null;
  fwdFee: bigint | null;
  ihrFee: bigint | null;
  importFee: bigint | null;
  /** null for external-in */
  createdLt: bigint | null;
  createdAt: number | null;
  /** the body's first 32 bits as a signed 32-bit integer; null when it has fewer */
  opcode: number | null;
  bounce: boolean | null;
  bounced: boolean | null;
  /** the body cell as a base64 BoC */
  body: string;
  bodyHash: string;
  /** the attached StateInit as a base64 BoC, when one is attached */
  initState: string | null;
  initStateHash: string | null;
}

export type TransactionKind = "ord" | "tick_tock" | "split_prepare" | "split_install" | "merge_prepare" | "merge_install" | "storage" | "trans_ord";

export interface TraceTransaction {
  hash: string;
  lt: bigint;
  account: string;
  now: number;
  mcBlockSeqno: number;
  origStatus: "active" | "uninit" | "frozen" | "nonexist";
  endStatus: "active" | "uninit" | "frozen" | "nonexist";
  totalFees: bigint;
  descr: TransactionKind;
  aborted: boolean;
  destroyed: boolean;
  /** tick-tock transactions: true for tock */
  isTock: boolean | null;
  /** null when the compute phase was skipped */
  computeExitCode: number | null;
  computeSkipped: boolean;
  /** why the compute phase was skipped (no_state, bad_state, no_gas, suspended), when it was and it is known */
  computeSkipReason?: string | null;
  /** the action phase's result code, when there was one */
  actionResultCode: number | null;
  /** the bounce phase: ok, nofunds, negfunds; null when none */
  bounce: string | null;
  /** null for tick-tock transactions */
  inMsg: TraceMessage | null;
  outMsgs: TraceMessage[];
}

export interface TraceInput {
  /** hash of the root transaction */
  traceId: string;
  /** the root's external-in message hash (null: tick-tock or a root not started by an external) */
  externalHash: string | null;
  externalHashNorm: string | null;
  mcSeqnoStart: number;
  mcSeqnoEnd: number;
  startLt: bigint;
  endLt: bigint;
  startUtime: number;
  endUtime: number;
  /** in lt order; the first is the root */
  transactions: TraceTransaction[];
}
