// Runs transactions with TON's own emulator (@ton/sandbox's Executor, the C++
// emulator compiled to WebAssembly), with every input a collator decides passed
// explicitly: config, libraries, now, lt, random seed.
import { beginCell, Cell, loadShardAccount, loadTransaction, parseTuple, storeShardAccount, type Address, type ShardAccount, type Transaction } from "@ton/core";
import { Executor, type PrevBlocksInfo } from "@ton/sandbox";
import { ExecutorPool } from "./executor-pool.js";

export interface ExecutedTransaction {
  transaction: Transaction;
  /** The Transaction cell; its hash is the transaction hash. */
  cell: Cell;
  shardAccount: ShardAccount;
  shardAccountCell: Cell;
}

export interface RunParams {
  now: number;
  lt: bigint;
  randomSeed: Buffer;
  /**
   * Treat signature checks as passing. Only for an external message whose signature the
   * emulator already checked against the same code (sendMessage's check): the transaction is
   * the same, and signature checking is most of the emulator's time (~6 of ~8 ms).
   */
  skipSignatureCheck?: boolean;
  /** The c7 previous-blocks info (last masterchain blocks, previous key block), as a collator passes it. */
  prevBlocksInfo?: PrevBlocksInfo;
}

export class TransactionExecutor {
  private configBase64: string;

  private constructor(
    private readonly executor: Executor,
    config: Cell,
    private libs: Cell | null,
    private readonly pool: ExecutorPool | undefined,
  ) {
    this.configBase64 = config.toBoc().toString("base64");
  }

  /** `checkWorkers`: emulators in worker threads for check() (0: check on this thread). */
  static async create(config: Cell, libs: Cell | null = null, opts: { checkWorkers?: number } = {}): Promise<TransactionExecutor> {
    const pool = opts.checkWorkers ? await ExecutorPool.create(opts.checkWorkers) : undefined;
    return new TransactionExecutor(await Executor.create(), config, libs, pool);
  }

  /**
   * Whether the account would accept `message` now (an external message's check before it is
   * queued), with signature checks. Runs on a worker emulator when there are some.
   */
  async check(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<{ accepted: true } | { rejected: string; exitCode?: number }> {
    if (!this.pool) {
      const r = await this.run(address, account, message, { ...p, skipSignatureCheck: false });
      return "rejected" in r ? r : { accepted: true };
    }
    const r = await this.pool.run(this.configBase64, account ?? emptyShardAccount(address), message, { ...p, libs: this.libs });
    return r.success ? { accepted: true } : { rejected: r.error, exitCode: r.vmResults?.vmExitCode };
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }

  setConfig(config: Cell) {
    this.configBase64 = config.toBoc().toString("base64");
  }

  /** Runs get-method `methodId` of an active account with `stack` (a VmStack cell). */
  async runGetMethod(address: Address, shardAccount: Cell, methodId: number, stack: Cell | null, p: GetMethodParams): Promise<GetMethodResult> {
    const account = loadShardAccount(shardAccount.beginParse()).account;
    const state = account?.storage.state;
    if (!account || state?.type !== "active" || !state.state.code || !state.state.data) {
      throw new Error("account is not active: it has no code to run");
    }
    const res = await this.executor.runGetMethod({
      code: state.state.code,
      data: state.state.data,
      methodId,
      stack: stack ? parseTuple(stack) : [],
      config: this.configBase64,
      verbosity: "short",
      libs: this.libs ?? undefined,
      address,
      unixTime: p.now,
      balance: account.storage.balance.coins,
      randomSeed: p.randomSeed,
      gasLimit: p.gasLimit ?? 1_000_000n,
      debugEnabled: false,
    });
    const out = res.output;
    if (!out.success) throw new Error(out.error);
    return { exitCode: out.vm_exit_code, stack: out.stack ? Cell.fromBase64(out.stack) : undefined, gasUsed: BigInt(out.gas_used) };
  }

  /**
   * Executes `message` on the account (undefined: a nonexistent account at `address`).
   * Returns null when the emulator rejects the message (an external message the
   * contract did not accept): no transaction, nothing changes.
   */
  async run(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<ExecutedTransaction | { rejected: string; exitCode?: number }> {
    const shardAccount = account ?? emptyShardAccount(address);
    const res = await this.executor.runTransaction({
      config: this.configBase64,
      libs: this.libs,
      verbosity: "short",
      shardAccount: shardAccount.toBoc().toString("base64"),
      message,
      now: p.now,
      lt: p.lt,
      randomSeed: p.randomSeed,
      ignoreChksig: p.skipSignatureCheck === true,
      debugEnabled: false,
      prevBlocksInfo: p.prevBlocksInfo,
    });
    const r = res.result;
    if (!r.success) return { rejected: r.error, exitCode: r.vmResults?.vmExitCode };
    const cell = Cell.fromBase64(r.transaction);
    const saCell = Cell.fromBase64(r.shardAccount);
    return {
      transaction: loadTransaction(cell.beginParse()),
      cell,
      shardAccount: loadShardAccount(saCell.beginParse()),
      shardAccountCell: saCell,
    };
  }
}

export interface GetMethodResult {
  exitCode: number;
  /** The resulting VmStack cell (absent when the method did not run). */
  stack?: Cell;
  gasUsed: bigint;
}

export interface GetMethodParams {
  now: number;
  randomSeed: Buffer;
  gasLimit?: bigint;
}

export function emptyShardAccount(_address: Address): Cell {
  return beginCell().store(storeShardAccount({ account: null, lastTransactionHash: 0n, lastTransactionLt: 0n })).endCell();
}
