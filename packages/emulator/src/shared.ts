// The emulator as a reader of a chain uses it (lite-proxy: runGetMethod, estimateFee): one
// emulator per process, created on first use, with every input of a run passed explicitly —
// the config as the base64 BoC of the block's ConfigParams, the libraries the code refers to,
// the time, the random seed and the c7 previous-blocks info.
import { Cell, loadTransaction, type Address, type Transaction, type TupleItem } from "@ton/core";
import { Executor, type PrevBlocksInfo } from "@ton/sandbox";

let shared: Promise<Executor> | undefined;

/** The process's emulator, created on first use (loading its WebAssembly takes a moment). */
export function emulator(): Promise<Executor> {
  shared ??= Executor.create();
  shared.catch(() => (shared = undefined));
  return shared;
}

export interface GetMethodRun {
  code: Cell;
  data: Cell;
  methodId: number;
  /** Bottom first. */
  stack: TupleItem[];
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

/** Runs a get-method on `executor` (the process's emulator when not given). */
export async function runGetMethod(run: GetMethodRun, executor?: Executor): Promise<GetMethodRunResult> {
  const vm = executor ?? (await emulator());
  const r = await vm.runGetMethod({
    code: run.code,
    data: run.data,
    methodId: run.methodId,
    stack: run.stack,
    config: run.config,
    libs: run.libs,
    verbosity: "short",
    address: run.address,
    unixTime: run.now,
    balance: run.balance,
    randomSeed: run.randomSeed,
    gasLimit: run.gasLimit,
    debugEnabled: false,
    ...(run.prevBlocksInfo ? { prevBlocksInfo: run.prevBlocksInfo } : {}),
  });
  const out = r.output;
  if (!out.success) return { success: false, error: out.error };
  return { success: true, exitCode: out.vm_exit_code, gasUsed: BigInt(out.gas_used), stack: out.stack ? Cell.fromBase64(out.stack) : undefined, missingLibrary: out.missing_library };
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

/** Executes one message on one account on `executor` (the process's emulator when not given). */
export async function runTransaction(run: TransactionRun, executor?: Executor): Promise<TransactionRunResult> {
  const vm = executor ?? (await emulator());
  const r = await vm.runTransaction({
    config: run.config,
    libs: run.libs,
    verbosity: "short",
    shardAccount: run.shardAccount.toBoc().toString("base64"),
    message: run.message,
    now: run.now,
    lt: run.lt,
    randomSeed: run.randomSeed,
    ignoreChksig: run.ignoreChksig,
    debugEnabled: false,
    ...(run.prevBlocksInfo ? { prevBlocksInfo: run.prevBlocksInfo } : {}),
  });
  const res = r.result;
  if (!res.success) return { rejected: { error: res.error, exitCode: res.vmResults?.vmExitCode } };
  const cell = Cell.fromBase64(res.transaction);
  return { transaction: loadTransaction(cell.beginParse()), cell, shardAccount: res.shardAccount };
}
