// Builds a classifier input by hand: transactions linked by the messages they send, with bodies
// made of cells, for the NFT/DNS/subscription flows the toncenter fixtures do not cover. Hashes are
// derived from a counter (unique within a trace), logical times increase in the order messages
// are sent, so the tree is the one the chain would have built.
import { createHash } from "node:crypto";
import { beginCell, type Cell } from "@ton/core";
import { MapInterfaceLookup, type ContractFacts, type TraceInput, type TraceMessage, type TraceTransaction } from "@tongate/actions";

/** A raw upper-case address "0:<64 hex>" whose hash is `n`. */
export const addr = (n: number): string => `0:${n.toString(16).toUpperCase().padStart(64, "0")}`;

export interface SendOptions {
  value?: bigint;
  body?: Cell;
  bounce?: boolean;
  /** a StateInit cell: the message deploys the receiver */
  init?: Cell;
  /** the receiver's transaction failed */
  aborted?: boolean;
}

export class TraceBuilder {
  private n = 0;
  private lt = 1_000_000n;
  private readonly txs: TraceTransaction[] = [];
  private readonly facts = new Map<string, ContractFacts>();

  private hash(): string {
    return createHash("sha256").update(`tx-${this.n++}`).digest("base64");
  }

  private message(source: string | null, destination: string, o: SendOptions, createdLt: bigint | null): TraceMessage {
    const body = o.body ?? beginCell().endCell();
    const bits = body.bits.length;
    return {
      hash: this.hash(),
      source,
      destination,
      value: source === null ? null : (o.value ?? 50_000_000n),
      valueExtraCurrencies: {},
      fwdFee: source === null ? null : 1000n,
      ihrFee: source === null ? null : 0n,
      importFee: source === null ? 0n : null,
      createdLt,
      createdAt: createdLt === null ? null : 1_700_000_000,
      opcode: bits >= 32 ? body.beginParse().loadInt(32) : null,
      bounce: source === null ? null : (o.bounce ?? true),
      bounced: source === null ? null : false,
      body: body.toBoc().toString("base64"),
      bodyHash: body.hash().toString("base64"),
      initState: o.init ? o.init.toBoc().toString("base64") : null,
      initStateHash: o.init ? o.init.hash().toString("base64") : null,
    };
  }

  private transaction(account: string, inMsg: TraceMessage, o: SendOptions): TraceTransaction {
    this.lt += 10n;
    const tx: TraceTransaction = {
      hash: this.hash(),
      lt: this.lt,
      account,
      now: 1_700_000_000,
      mcBlockSeqno: 100,
      origStatus: o.init ? "uninit" : "active",
      endStatus: "active",
      totalFees: 1_000_000n,
      descr: "ord",
      aborted: o.aborted ?? false,
      destroyed: false,
      isTock: null,
      computeExitCode: o.aborted ? 9 : 0,
      computeSkipped: false,
      actionResultCode: o.aborted ? null : 0,
      bounce: null,
      inMsg,
      outMsgs: [],
    };
    this.txs.push(tx);
    return tx;
  }

  /** The trace's root: an external message to `account`. */
  external(account: string, o: SendOptions = {}): TraceTransaction {
    return this.transaction(account, this.message(null, account, o, null), o);
  }

  /** `from` sends a message to `to`; the receiver's transaction. */
  send(from: TraceTransaction, to: string, o: SendOptions = {}): TraceTransaction {
    const m = this.message(from.account, to, o, from.lt + 1n + BigInt(from.outMsgs.length));
    from.outMsgs.push(m);
    return this.transaction(to, { ...m }, o);
  }

  /** What the classifier may know of `address`. */
  know(address: string, f: ContractFacts): this {
    this.facts.set(address, f);
    return this;
  }

  build(): { trace: TraceInput; lookup: MapInterfaceLookup } {
    const txs = [...this.txs].sort((a, b) => (a.lt < b.lt ? -1 : 1));
    const first = txs[0];
    const last = txs[txs.length - 1];
    const trace: TraceInput = {
      traceId: first.hash,
      externalHash: first.inMsg?.source === null ? first.inMsg.hash : null,
      externalHashNorm: null,
      mcSeqnoStart: 100,
      mcSeqnoEnd: 100,
      startLt: first.lt,
      endLt: last.lt,
      startUtime: first.now,
      endUtime: last.now,
      transactions: txs,
    };
    return { trace, lookup: new MapInterfaceLookup(this.facts) };
  }
}

/** A comment body (text_comment#00000000). */
export const comment = (text: string): Cell => beginCell().storeUint(0, 32).storeStringTail(text).endCell();
