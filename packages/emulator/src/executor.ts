// Runs transactions with TON's own emulator (@ton/sandbox's Executor, the C++
// emulator compiled to WebAssembly), with every input a collator decides passed
// explicitly: config, libraries, now, lt, random seed.
import { beginCell, Cell, loadShardAccount, loadTransaction, storeShardAccount, type Address, type ShardAccount, type Transaction } from "@ton/core";
import type { PrevBlocksInfo, TickOrTock } from "@ton/sandbox";
import { bocBase64, withBoc } from "./boc-cache.js";
import { outMessagesCount, type Emulation, type EmulationJob } from "./emulate.mjs";
import { EmulatorFailure, EmulatorPool, type EmulatorPoolOptions } from "./emulator-pool.js";
import { prevBlocksInfoBoc } from "./prev-blocks.js";
import { runGetMethod } from "./shared.js";

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
    /** The emulators every run of this chain goes to, each in a process of its own (emulator-pool.ts). */
    readonly pool: EmulatorPool,
    config: Cell,
    private libs: Cell | null,
    private readonly ownsPool: boolean,
  ) {
    this.configBase64 = config.toBoc().toString("base64");
  }

  /**
   * `emulator`: the pool to run on, or the options of one of its own (closed with the executor);
   * its processes are started before this resolves.
   */
  static async create(config: Cell, libs: Cell | null = null, opts: { emulator?: EmulatorPool | EmulatorPoolOptions } = {}): Promise<TransactionExecutor> {
    const given = opts.emulator instanceof EmulatorPool ? opts.emulator : undefined;
    const pool = given ?? new EmulatorPool(opts.emulator instanceof EmulatorPool ? {} : opts.emulator);
    await pool.warm();
    return new TransactionExecutor(pool, config, libs, given === undefined);
  }

  /** Whether emulations of different accounts run at once (collation then plans them in parallel). */
  get parallel(): boolean {
    return this.pool.size > 1;
  }

  /**
   * Whether the account would accept `message` now (an external message's check before it is
   * queued), with signature checks, and how many messages the transaction would send.
   */
  async check(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<{ accepted: true; outMessages: number } | { rejected: string; exitCode?: number }> {
    const e = await this.emulate(address, account, message, { ...p, skipSignatureCheck: false }, true);
    return e.success ? { accepted: true, outMessages: e.outMessages ?? outMessagesCount(Cell.fromBase64(e.transaction)) } : { rejected: e.error, exitCode: e.exitCode };
  }

  /**
   * Emulates `message` on the account — a state cell, or a state BoC an earlier emulation
   * returned; undefined: nonexistent. The answer keeps the emulator's BoCs: materialize() parses
   * the ones a collation keeps. A run that fails within its bounds (a trap, its time or memory
   * bound) is an unsuccessful emulation saying why: the message is not applied, as one the
   * contract refused.
   */
  emulate(address: Address, account: Cell | string | undefined, message: Cell, p: RunParams, countOutMessages = false): Promise<Emulation> {
    return this.onPool(this.job(address, account, message, p, countOutMessages));
  }

  /**
   * Runs the tick (start of a masterchain block) or tock (end of it) transaction of a special
   * account — a state cell, or a state BoC an earlier emulation returned — with the same explicit
   * inputs as a message's transaction.
   */
  tickTock(address: Address, account: Cell | string, which: TickOrTock, p: RunParams): Promise<Emulation> {
    return this.onPool({
      countOutMessages: false, // no lts are planned from it: tick-tocks run before and after the waves
      config: this.configBase64,
      libs: this.libs ? bocBase64(this.libs) : null,
      shardAccount: typeof account === "string" ? account : bocBase64(account),
      // No inbound message: the emulator takes the empty string (as @ton/sandbox's runTickTock).
      message: "",
      params: emulationParams(p, which),
    });
  }

  private async onPool(job: EmulationJob): Promise<Emulation> {
    try {
      return await this.pool.emulate(job);
    } catch (e) {
      if (e instanceof EmulatorFailure) return { success: false, error: `the emulator could not run this message: ${e.message}` };
      throw e;
    }
  }

  /** The emulator's inputs: BoCs serialized at most once per cell (boc-cache.ts), the params as JSON. */
  private job(address: Address, account: Cell | string | undefined, message: Cell, p: RunParams, countOutMessages: boolean): EmulationJob {
    return {
      countOutMessages,
      config: this.configBase64,
      libs: this.libs ? bocBase64(this.libs) : null,
      shardAccount: typeof account === "string" ? account : bocBase64(account ?? emptyShardAccount(address)),
      message: bocBase64(message),
      params: emulationParams(p),
    };
  }

  /**
   * The transaction of a successful emulation as cells; the account state is parsed when first
   * asked for (a collation keeps only each account's last state of the block).
   */
  materialize(e: Extract<Emulation, { success: true }>): ExecutedTransaction {
    const cell = Cell.fromBase64(e.transaction);
    let saCell: Cell | undefined;
    let parsed: ShardAccount | undefined;
    return {
      transaction: loadTransaction(cell.beginParse()),
      cell,
      get shardAccountCell() {
        return (saCell ??= withBoc(Cell.fromBase64(e.shardAccount), e.shardAccount));
      },
      get shardAccount() {
        return (parsed ??= loadShardAccount(this.shardAccountCell.beginParse()));
      },
    };
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.close();
  }

  setConfig(config: Cell) {
    this.configBase64 = config.toBoc().toString("base64");
  }

  /**
   * The public libraries transactions and get-methods resolve library cells with: the masterchain
   * state's, as HashmapE 256 ^Cell keyed by hash (libraries.ts); null: none.
   */
  setLibraries(libs: Cell | null) {
    this.libs = libs;
  }

  /**
   * Runs get-method `methodId` of an active account with `stack` (a VmStack cell). An
   * EmulatorFailure when the run could not finish within its bounds.
   */
  async runGetMethod(address: Address, shardAccount: Cell, methodId: number, stack: Cell | null, p: GetMethodParams): Promise<GetMethodResult> {
    const account = loadShardAccount(shardAccount.beginParse()).account;
    const state = account?.storage.state;
    if (!account || state?.type !== "active" || !state.state.code || !state.state.data) {
      throw new Error("account is not active: it has no code to run");
    }
    const out = await runGetMethod(this.pool, {
      code: state.state.code,
      data: state.state.data,
      methodId,
      stack: stack ?? [],
      config: this.configBase64,
      libs: this.libs ?? undefined,
      address,
      now: p.now,
      balance: account.storage.balance.coins,
      randomSeed: p.randomSeed,
      gasLimit: p.gasLimit ?? 1_000_000n,
      prevBlocksInfo: p.prevBlocksInfo,
    });
    if (!out.success) throw new Error(out.error);
    return { exitCode: out.exitCode, stack: out.stack, gasUsed: out.gasUsed };
  }

  /**
   * Executes `message` on the account (undefined: a nonexistent account at `address`).
   * Returns the refusal when the emulator rejects the message (an external message the
   * contract did not accept, or a run that failed within its bounds): no transaction, nothing
   * changes.
   *
   * Inputs reach the emulator as BoCs serialized once: the account state as the emulator
   * returned it, the message as it arrived, the c7 previous-blocks info once per block.
   * @ton/sandbox's runTransaction re-serializes all three on every call, which cost more
   * than the emulation of a wallet transfer itself.
   */
  async run(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<ExecutedTransaction | { rejected: string; exitCode?: number }> {
    const e = await this.emulate(address, account, message, p);
    return e.success ? this.materialize(e) : { rejected: e.error, exitCode: e.exitCode };
  }
}

/** `tickTock`: a trans_tick_tock transaction (is_tock for the tock), else an ordinary one. */
function emulationParams(p: RunParams, tickTock?: TickOrTock): string {
  const params: Record<string, unknown> = {
    utime: p.now,
    lt: p.lt.toString(),
    rand_seed: p.randomSeed.toString("hex"),
    ignore_chksig: p.skipSignatureCheck === true,
    debug_enabled: false,
  };
  if (tickTock) {
    params.is_tick_tock = true;
    params.is_tock = tickTock === "tock";
  }
  if (p.prevBlocksInfo) params.prev_blocks_info = prevBlocksInfoBoc(p.prevBlocksInfo);
  return JSON.stringify(params);
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
  /** c7's previous-blocks info; absent: none (as before prev_blocks_info existed). */
  prevBlocksInfo?: PrevBlocksInfo;
}

export function emptyShardAccount(_address: Address): Cell {
  return beginCell().store(storeShardAccount({ account: null, lastTransactionHash: 0n, lastTransactionLt: 0n })).endCell();
}
