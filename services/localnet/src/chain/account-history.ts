// Every version of every account, by the seqno of the shard block that wrote it,
// so a state can be read at any past block, and every transaction of every
// account in lt order, for getTransactions / getOneTransaction.
import type { Cell } from "@ton/core";

export interface TxRecord {
  lt: bigint;
  hash: Buffer;
  cell: Cell;
  /** The shard block holding the transaction. */
  block: { workchain: number; shard: bigint; seqno: number };
  /** The masterchain block that committed that shard block. */
  mcSeqno: number;
}

export class AccountHistory {
  private versions = new Map<string, { seqno: number; cell: Cell }[]>();
  private txs = new Map<string, TxRecord[]>();

  static key(workchain: number, id: Buffer | string): string {
    return `${workchain}:${typeof id === "string" ? id : id.toString("hex")}`;
  }

  setVersion(key: string, seqno: number, cell: Cell): void {
    const list = this.versions.get(key) ?? [];
    if (list.length && list[list.length - 1]!.seqno === seqno) list[list.length - 1] = { seqno, cell };
    else list.push({ seqno, cell });
    this.versions.set(key, list);
  }

  /** The ShardAccount cell as of shard block `seqno` (undefined: never existed by then). */
  at(key: string, seqno: number): Cell | undefined {
    const list = this.versions.get(key);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    let found: Cell | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.seqno <= seqno) {
        found = list[mid]!.cell;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  latest(key: string): Cell | undefined {
    const list = this.versions.get(key);
    return list?.[list.length - 1]?.cell;
  }

  keys(): IterableIterator<string> {
    return this.versions.keys();
  }

  addTransaction(key: string, tx: TxRecord): void {
    const list = this.txs.get(key) ?? [];
    list.push(tx);
    this.txs.set(key, list);
  }

  /** The transaction of the account with exactly this lt. */
  transaction(key: string, lt: bigint): TxRecord | undefined {
    const list = this.txs.get(key);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = list[mid]!.lt;
      if (v === lt) return list[mid];
      if (v < lt) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Up to `count` transactions going back from (and including) lt. */
  transactionsFrom(key: string, lt: bigint, count: number): TxRecord[] {
    const list = this.txs.get(key) ?? [];
    const out: TxRecord[] = [];
    for (let i = list.length - 1; i >= 0 && out.length < count; i--) if (list[i]!.lt <= lt) out.push(list[i]!);
    return out;
  }
}
