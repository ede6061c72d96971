// The account states collation reads and writes, with the recent versions of each account by
// the masterchain block that committed them (a state can be read at any block of the window
// without rebuilding the shard state). Versions older than the window are dropped, so memory is
// bounded by the number of accounts and the window, not by the chain's age; older states are
// read from the states in the store (archival) or are gone, as on a non-archival node.
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
  /** Versions by masterchain seqno, oldest first; the last one is the current state. */
  private versions = new Map<string, { mcSeqno: number; cell: Cell }[]>();

  static key(workchain: number, id: Buffer | string): string {
    return `${workchain}:${typeof id === "string" ? id : id.toString("hex")}`;
  }

  static parseKey(key: string): { workchain: number; id: Buffer } {
    const i = key.indexOf(":");
    return { workchain: Number(key.slice(0, i)), id: Buffer.from(key.slice(i + 1), "hex") };
  }

  setVersion(key: string, mcSeqno: number, cell: Cell): void {
    const list = this.versions.get(key);
    if (!list) this.versions.set(key, [{ mcSeqno, cell }]);
    else if (list[list.length - 1]!.mcSeqno === mcSeqno) list[list.length - 1] = { mcSeqno, cell };
    else list.push({ mcSeqno, cell });
  }

  /** Undoes setVersion(key, mcSeqno, …) of a seal that failed. */
  dropVersion(key: string, mcSeqno: number): void {
    const list = this.versions.get(key);
    if (!list || list[list.length - 1]!.mcSeqno !== mcSeqno) return;
    list.pop();
    if (list.length === 0) this.versions.delete(key);
  }

  /** The ShardAccount cell as of masterchain block `mcSeqno` (undefined: never existed by then). */
  at(key: string, mcSeqno: number): Cell | undefined {
    const list = this.versions.get(key);
    if (!list) return undefined;
    let lo = 0;
    let hi = list.length - 1;
    let found: Cell | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]!.mcSeqno <= mcSeqno) {
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

  get size(): number {
    return this.versions.size;
  }

  /** Drops versions no block from `oldest` on can see (keeps the newest one before it). */
  prune(oldest: number): void {
    for (const list of this.versions.values()) {
      let keep = 0;
      while (keep + 1 < list.length && list[keep + 1]!.mcSeqno <= oldest) keep++;
      if (keep > 0) list.splice(0, keep);
    }
  }
}
