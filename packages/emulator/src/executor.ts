// Runs transactions with TON's own emulator (@ton/sandbox's Executor, the C++
// emulator compiled to WebAssembly), with every input a collator decides passed
// explicitly: config, libraries, now, lt, random seed.
import { beginCell, Cell, loadShardAccount, loadTransaction, parseTuple, serializeTuple, storeShardAccount, type Address, type ShardAccount, type Transaction, type TupleItem } from "@ton/core";
import { Executor, type PrevBlocksInfo, type TickOrTock } from "@ton/sandbox";
import { bocBase64, withBoc } from "./boc-cache.js";
import { emulateOn, outMessagesCount, type Emulation, type EmulationJob } from "./emulate.mjs";
import { ExecutorPool } from "./executor-pool.js";
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

  /** Whether emulations run on worker threads (collation then runs account-disjoint transactions in parallel). */
  get parallel(): boolean {
    return this.pool !== undefined;
  }

  /**
   * Whether the account would accept `message` now (an external message's check before it is
   * queued), with signature checks, and how many messages the transaction would send. Runs on a
   * worker emulator when there are some.
   */
  async check(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<{ accepted: true; outMessages: number } | { rejected: string; exitCode?: number }> {
    const e = await this.emulate(address, account, message, { ...p, skipSignatureCheck: false }, true);
    return e.success ? { accepted: true, outMessages: e.outMessages ?? outMessagesCount(Cell.fromBase64(e.transaction)) } : { rejected: e.error, exitCode: e.exitCode };
  }

  /**
   * Emulates `message` on the account — a state cell, or a state BoC an earlier emulation
   * returned; undefined: nonexistent — on a worker emulator when there are some, else here.
   * The answer keeps the emulator's BoCs: materialize() parses the ones a collation keeps.
   */
  emulate(address: Address, account: Cell | string | undefined, message: Cell, p: RunParams, countOutMessages = false): Promise<Emulation> {
    const job = this.job(address, account, message, p, countOutMessages);
    return this.pool ? this.pool.run(job) : Promise.resolve(emulateOn(this.executor, job));
  }

  /**
   * Runs the tick (start of a masterchain block) or tock (end of it) transaction of a special
   * account — a state cell, or a state BoC an earlier emulation returned — with the same explicit
   * inputs as a message's transaction. On a worker emulator when there are some, else here.
   */
  tickTock(address: Address, account: Cell | string, which: TickOrTock, p: RunParams): Promise<Emulation> {
    const job: EmulationJob = {
      countOutMessages: false, // no lts are planned from it: tick-tocks run before and after the waves
      config: this.configBase64,
      libs: this.libs ? bocBase64(this.libs) : null,
      shardAccount: typeof account === "string" ? account : bocBase64(account),
      // No inbound message: the emulator takes the empty string (as @ton/sandbox's runTickTock).
      message: "",
      params: emulationParams(p, which),
    };
    return this.pool ? this.pool.run(job) : Promise.resolve(emulateOn(this.executor, job));
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
    await this.pool?.close();
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

  /** Runs get-method `methodId` of an active account with `stack` (a VmStack cell). */
  async runGetMethod(address: Address, shardAccount: Cell, methodId: number, stack: Cell | null, p: GetMethodParams): Promise<GetMethodResult> {
    const account = loadShardAccount(shardAccount.beginParse()).account;
    const state = account?.storage.state;
    if (!account || state?.type !== "active" || !state.state.code || !state.state.data) {
      throw new Error("account is not active: it has no code to run");
    }
    const out = await runGetMethod(
      {
        code: state.state.code,
        data: state.state.data,
        methodId,
        stack: stack ? parseTuple(stack) : [],
        config: this.configBase64,
        libs: this.libs ?? undefined,
        address,
        now: p.now,
        balance: account.storage.balance.coins,
        randomSeed: p.randomSeed,
        gasLimit: p.gasLimit ?? 1_000_000n,
        prevBlocksInfo: p.prevBlocksInfo,
      },
      this.executor,
    );
    if (!out.success) throw new Error(out.error);
    return { exitCode: out.exitCode, stack: out.stack, gasUsed: out.gasUsed };
  }

  /**
   * Executes `message` on the account (undefined: a nonexistent account at `address`).
   * Returns null when the emulator rejects the message (an external message the
   * contract did not accept): no transaction, nothing changes.
   *
   * Inputs reach the emulator as BoCs serialized once: the account state as the emulator
   * returned it, the message as it arrived, the c7 previous-blocks info once per block.
   * @ton/sandbox's runTransaction re-serializes all three on every call, which cost more
   * than the emulation of a wallet transfer itself.
   */
  async run(address: Address, account: Cell | undefined, message: Cell, p: RunParams): Promise<ExecutedTransaction | { rejected: string; exitCode?: number }> {
    // Always on this thread: the bare-emulator baseline of bench:localnet and the replay test use it.
    const e = emulateOn(this.executor, this.job(address, account, message, p, false));
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


const prevBlocksBocs = new WeakMap<PrevBlocksInfo, string>();

/**
 * The c7 prev_blocks_info entry, [last_mc_blocks, prev_key_block, last_mc_blocks_100?] of
 * BlockIdExt tuples, as a VmStackValue BoC. Computed once per PrevBlocksInfo object (one per
 * block: every masterchain block runs tick and tock transactions with it), from the BlockIdExt
 * entries of earlier blocks (a block's entry never changes, only which blocks are listed).
 */
export function prevBlocksInfoBoc(info: PrevBlocksInfo): string {
  let b = prevBlocksBocs.get(info);
  if (b !== undefined) return b;
  const items = [tupleValue(info.lastMcBlocks.map(blockIdValue)), blockIdValue(info.prevKeyBlock)];
  if (info.lastMcBlocks100) items.push(tupleValue(info.lastMcBlocks100.map(blockIdValue)));
  b = tupleValue(items).toBoc().toString("base64");
  prevBlocksBocs.set(info, b);
  return b;
}

/** BlockIdExt entries as VmStackValue cells, by block (the most recent ones). */
const blockIdValues = new Map<string, Cell>();

/** A BlockIdExt as c7 holds it: the tuple [workchain, shard, seqno, root_hash, file_hash] of integers. */
function blockIdValue(x: PrevBlocksInfo["prevKeyBlock"]): Cell {
  const key = `${x.workchain}:${x.shard}:${x.seqno}:${x.rootHash.toString("hex")}`;
  let c = blockIdValues.get(key);
  if (c) return c;
  const ints: TupleItem[] = [x.workchain, x.shard, x.seqno, BigInt("0x" + x.rootHash.toString("hex")), BigInt("0x" + x.fileHash.toString("hex"))].map((v) => ({ type: "int", value: BigInt(v) }));
  // serializeTuple writes a VmStack (depth, then entries); its one entry is the tuple.
  const stack = serializeTuple([{ type: "tuple", items: ints }]).beginParse();
  stack.skip(24);
  stack.loadRef(); // the rest of the stack (empty)
  c = stack.asCell();
  blockIdValues.set(key, c);
  // Enough for last_mc_blocks_100 and the key block; the oldest entries leave first.
  if (blockIdValues.size > 256) blockIdValues.delete(blockIdValues.keys().next().value!);
  return c;
}

/**
 * vm_stk_tuple#07 len:(## 16) data:(VmTuple len) of entries already serialized, laid out as
 * @ton/core's serializeTuple lays them (vm_tuple_tcons: the first n-1 entries by reference, the
 * last one in tail).
 */
function tupleValue(entries: Cell[]): Cell {
  let head: Cell | null = null;
  let tail: Cell | null = null;
  for (const [i, entry] of entries.entries()) {
    [head, tail] = [tail, head];
    if (i > 1) head = beginCell().storeRef(tail!).storeRef(head!).endCell();
    tail = entry;
  }
  const b = beginCell().storeUint(0x07, 8).storeUint(entries.length, 16);
  if (head) b.storeRef(head);
  if (tail) b.storeRef(tail);
  return b.endCell();
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
