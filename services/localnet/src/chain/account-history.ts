// The account states collation reads and writes: each account's current state and the one
// before it (a seal that fails drops what it wrote and the account is back at the one before).
// States at older blocks are read from the block states (the window, or the store when archival),
// so memory is bounded by the number of accounts, not by the chain's age.
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
  /** The last two versions by masterchain seqno, oldest first; the last one is the current state. */
  private versions = new Map<string, { mcSeqno: number; cell: Cell }[]>();

  static key(workchain: number, id: Buffer | string): string {
    return `${workchain}:${typeof id === "string" ? id : id.toString("hex")}`;
  }

  setVersion(key: string, mcSeqno: number, cell: Cell): void {
    const list = this.versions.get(key);
    if (!list) this.versions.set(key, [{ mcSeqno, cell }]);
    else if (list[list.length - 1]!.mcSeqno === mcSeqno) list[list.length - 1] = { mcSeqno, cell };
    else {
      list.push({ mcSeqno, cell });
      if (list.length > 2) list.shift();
    }
  }

  /** Undoes setVersion(key, mcSeqno, …) of a seal that failed. */
  dropVersion(key: string, mcSeqno: number): void {
    const list = this.versions.get(key);
    if (!list || list[list.length - 1]!.mcSeqno !== mcSeqno) return;
    list.pop();
    if (list.length === 0) this.versions.delete(key);
  }

  latest(key: string): Cell | undefined {
    const list = this.versions.get(key);
    return list?.[list.length - 1]?.cell;
  }

  keys(): IterableIterator<string> {
    return this.versions.keys();
  }
}
