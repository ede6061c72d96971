// Get-methods and transactions as a reader of a chain runs them (lite-proxy: runGetMethod,
// estimateFee), on an EmulatorPool, with every input explicit: the config as the base64 BoC of the
// block's ConfigParams, the libraries the code refers to, the time, the random seed and the c7
// previous-blocks info. Inputs are serialized here; the pool's processes only run the emulator.
import { Cell, loadTransaction, serializeTuple, type Address, type Transaction, type TupleItem } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { bocBase64, withBoc } from "./boc-cache.js";
import type { EmulatorPool, GetMethodJob } from "./emulator-pool.js";
import { prevBlocksInfoBoc } from "./prev-blocks.js";

export interface GetMethodRun {
  code: Cell;
  data: Cell;
  methodId: number;
  /** Bottom first (or a VmStack cell as it is). */
  stack: TupleItem[] | Cell;
  /** The ConfigParams dictionary as a base64 BoC. */
  config: string;
  /** The libraries dictionary (HashmapE 256 ^Cell); undefined: none. */
  libs?: Cell;
  address: Address;
  /** c7's unixtime. */
  now: number;
  balance: bigint;
  randomSeed: Buffer;
  gasLimit: bigint;
  /** c7's previous-blocks info (last masterchain blocks, previous key block). */
  prevBlocksInfo?: PrevBlocksInfo;
}

export type GetMethodRunResult =
  | { success: true; exitCode: number; gasUsed: bigint; /** The resulting VmStack cell (absent when the emulator returned none). */ stack?: Cell; /** The hash (hex) of a library the code needed and the run did not have. */ missingLibrary: string | null }
  | { success: false; error: string };

/** A get-method's inputs as the emulator's _run_get_method takes them (what @ton/sandbox's runGetMethod builds). */
export function getMethodJob(run: GetMethodRun): GetMethodJob {
  const params: Record<string, unknown> = {
    code: bocBase64(run.code),
    data: bocBase64(run.data),
    verbosity: 0, // "short"
    libs: run.libs ? bocBase64(run.libs) : "",
    address: run.address.toString(),
    unixtime: run.now,
    balance: run.balance.toString(),
    rand_seed: run.randomSeed.toString("hex"),
    gas_limit: run.gasLimit.toString(),
    method_id: run.methodId,
    debug_enabled: false,
  };
  if (run.prevBlocksInfo) params.prev_blocks_info = prevBlocksInfoBoc(run.prevBlocksInfo);
  const stack = run.stack instanceof Cell ? run.stack : serializeTuple(run.stack);
  return { config: run.config, params: JSON.stringify(params), stack: bocBase64(stack) };
}

/** Runs a get-method on `pool`; an EmulatorFailure when the run could not finish within its bounds. */
export async function runGetMethod(pool: EmulatorPool, run: GetMethodRun, signal?: AbortSignal): Promise<GetMethodRunResult> {
  const out = await pool.getMethod(getMethodJob(run), signal);
  if (!out.success) return out;
  return { success: true, exitCode: out.exitCode, gasUsed: BigInt(out.gasUsed), stack: out.stack ? Cell.fromBase64(out.stack) : undefined, missingLibrary: out.missingLibrary };
}

export interface TransactionRun {
  /** The ConfigParams dictionary as a base64 BoC. */
  config: string;
  libs: Cell | null;
  /** The ShardAccount cell (an empty one for a nonexistent account). */
  shardAccount: Cell;
  message: Cell;
  now: number;
  lt: bigint;
  randomSeed: Buffer;
  /** Treat signature checks as passing (a fee estimate of an unsigned message). */
  ignoreChksig: boolean;
  prevBlocksInfo?: PrevBlocksInfo;
}

export type TransactionRunResult = { transaction: Transaction; cell: Cell; shardAccount: string } | { rejected: { error: string; exitCode?: number } };

/** Executes one message on one account on `pool`; an EmulatorFailure when the run could not finish within its bounds. */
export async function runTransaction(pool: EmulatorPool, run: TransactionRun, signal?: AbortSignal): Promise<TransactionRunResult> {
  const params: Record<string, unknown> = {
    utime: run.now,
    lt: run.lt.toString(),
    rand_seed: run.randomSeed.toString("hex"),
    ignore_chksig: run.ignoreChksig,
    debug_enabled: false,
  };
  if (run.prevBlocksInfo) params.prev_blocks_info = prevBlocksInfoBoc(run.prevBlocksInfo);
  const e = await pool.emulate(
    {
      config: run.config,
      libs: run.libs ? bocBase64(run.libs) : null,
      shardAccount: bocBase64(run.shardAccount),
      message: bocBase64(run.message),
      params: JSON.stringify(params),
    },
    signal,
  );
  if (!e.success) return { rejected: { error: e.error, exitCode: e.exitCode } };
  // the emulator's BoC stays with the cell: bocBase64(cell) gives it without serializing again
  const cell = withBoc(Cell.fromBase64(e.transaction), e.transaction);
  return { transaction: loadTransaction(cell.beginParse()), cell, shardAccount: e.shardAccount };
}

