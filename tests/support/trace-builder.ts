// Traces built by hand for the classifier's unit tests: transactions linked by their messages,
// bodies as real cells (@ton/core), hashes unique per message, lt and time increasing.
import { createHash } from "node:crypto";
import { Address, beginCell, type Cell } from "@ton/core";
import type { TraceInput, TraceMessage, TraceTransaction } from "@tongate/actions";

export const addr = (n: number, wc = 0): string => `${wc}:${n.toString(16).toUpperCase().padStart(64, "0")}`;
export const address = (raw: string): Address => Address.parseRaw(raw);

export interface MessageOptions {
  value?: bigint;
  body?: Cell;
  bounce?: boolean;
  bounced?: boolean;
  init?: Cell;
  extraCurrencies?: Record<string, string>;
}

export interface TxOptions {
  aborted?: boolean;
  origStatus?: TraceTransaction["origStatus"];
  endStatus?: TraceTransaction["endStatus"];
  computeExitCode?: number | null;
}

const EMPTY = beginCell().endCell();

export class TraceBuilder {
  private lt = 1_000_000n;
  private now = 1_700_000_000;
  private n = 0;
  readonly txs: TraceTransaction[] = [];

  private hash(): string {
    return createHash("sha256").update(`m${this.n++}`).digest("base64");
  }

  private message(source: string | null, destination: string | null, o: MessageOptions, createdLt: bigint | null): TraceMessage {
    const body = o.body ?? EMPTY;
    const s = body.beginParse();
    const opcode = s.remainingBits >= 32 ? s.loadUint(32) | 0 : null;
    const internal = source !== null && destination !== null;
    return {
      hash: this.hash(),
      source,
      destination,
      value: internal ? (o.value ?? 0n) : null,
      valueExtraCurrencies: o.extraCurrencies ?? {},
      fwdFee: internal ? 1000n : null,
      ihrFee: internal ? 0n : null,
      importFee: source === null ? 0n : null,
      createdLt,
      createdAt: createdLt === null ? null : this.now,
      opcode,
      bounce: internal ? (o.bounce ?? false) : null,
      bounced: internal ? (o.bounced ?? false) : null,
      body: body.toBoc().toString("base64"),
      bodyHash: body.hash().toString("base64"),
      initState: o.init ? o.init.toBoc().toString("base64") : null,
      initStateHash: o.init ? o.init.hash().toString("base64") : null,
    };
  }

  private tx(account: string, inMsg: TraceMessage | null, t: TxOptions): TraceTransaction {
    this.lt += 1000n;
    this.now += 1;
    const tx: TraceTransaction = {
      hash: createHash("sha256").update(`t${this.n++}`).digest("base64"),
      lt: this.lt,
      account,
      now: this.now,
      mcBlockSeqno: 100,
      origStatus: t.origStatus ?? "active",
      endStatus: t.endStatus ?? "active",
      totalFees: 1_000_000n,
      descr: inMsg === null ? "tick_tock" : "ord",
      aborted: t.aborted ?? false,
      destroyed: false,
      isTock: inMsg === null ? false : null,
      computeExitCode: t.computeExitCode ?? (t.aborted ? 1 : 0),
      computeSkipped: false,
      actionResultCode: 0,
      bounce: null,
      inMsg,
      outMsgs: [],
    };
    this.txs.push(tx);
    return tx;
  }

  /** The root: an external-in to `account` (a wallet) with `body`. */
  external(account: string, body: Cell = EMPTY, t: TxOptions = {}): TraceTransaction {
    return this.tx(account, this.message(null, account, { body }, null), t);
  }

  /** The root: a tick-tock of `account`. */
  tickTock(account: string): TraceTransaction {
    return this.tx(account, null, {});
  }

  /** `from` sends a message to `to`, and `to`'s transaction receives it. */
  send(from: TraceTransaction, to: string, o: MessageOptions = {}, t: TxOptions = {}): TraceTransaction {
    const out = this.message(from.account, to, o, this.lt + 1n);
    from.outMsgs.push(out);
    return this.tx(to, { ...out }, t);
  }

  /** An external-out message (a log) of `from`. */
  log(from: TraceTransaction, body: Cell): void {
    from.outMsgs.push(this.message(from.account, null, { body }, this.lt + 1n));
  }

  build(): TraceInput {
    const txs = [...this.txs].sort((a, b) => (a.lt < b.lt ? -1 : 1));
    const root = txs[0];
    return {
      traceId: root.hash,
      externalHash: root.inMsg?.source === null ? root.inMsg.hash : null,
      externalHashNorm: null,
      mcSeqnoStart: 100,
      mcSeqnoEnd: 100,
      startLt: root.lt,
      endLt: txs[txs.length - 1].lt,
      startUtime: root.now,
      endUtime: txs[txs.length - 1].now,
      transactions: txs,
    };
  }
}
