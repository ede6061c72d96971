// What a shard state is made of, and how it becomes a ShardStateUnsplit cell
// (with the storers of @tongate/block).
import type { Cell } from "@ton/core";
import {
  accountKey,
  emptyLibraries,
  emptyOutMsgQueueInfo,
  emptyShardAccounts,
  loadShardAccount,
  shardAccountEntry,
  shardIdentOf,
  shardStateCell,
  type ExtBlkRef,
  type McStateExtra,
} from "@tongate/block";
import { publicLibraries } from "../libraries.js";

export interface ShardStateInput {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno: number;
  /** ShardAccount cells by account id (hex). */
  accounts: Map<string, Cell>;
  totalBalance: bigint;
  /** Shard states: the masterchain block they refer to. */
  masterRef?: ExtBlkRef;
  /** Masterchain states: McStateExtra (config, shard hashes, …). */
  mcExtra?: McStateExtra;
  /** The state of a block that splits after it. */
  beforeSplit?: boolean;
}

export type ShardStateBuilder = (input: ShardStateInput) => Cell;

/**
 * The ShardStateUnsplit of a localnet shard: its accounts (existing ones only), an empty out queue,
 * and in the masterchain the public libraries of its accounts.
 */
export const buildShardState: ShardStateBuilder = (i) => {
  const accounts = emptyShardAccounts();
  for (const [id, cell] of i.accounts) {
    const sa = loadShardAccount(cell.beginParse());
    if (!sa.account.beginParse().loadBit()) continue; // account_none: not in the dictionary
    accounts.set(accountKey(Buffer.from(id, "hex")), shardAccountEntry(sa));
  }
  return shardStateCell({
    globalId: i.globalId,
    shardId: shardIdentOf(i.workchain, i.shard),
    seqNo: i.seqno,
    vertSeqNo: 0,
    genUtime: i.genUtime,
    genLt: i.genLt,
    minRefMcSeqno: i.minRefMcSeqno,
    outMsgQueueInfo: emptyOutMsgQueueInfo(),
    beforeSplit: i.beforeSplit ?? false,
    accounts,
    other: {
      overloadHistory: 0n,
      underloadHistory: 0n,
      totalBalance: { coins: i.totalBalance },
      totalValidatorFees: { coins: 0n },
      // Public libraries exist in the masterchain only: those its accounts publish (libraries.ts).
      libraries: i.workchain === -1 ? publicLibraries(i.accounts) : emptyLibraries(),
      masterRef: i.masterRef ? { master: i.masterRef } : null,
    },
    custom: i.mcExtra ?? null,
  });
};
