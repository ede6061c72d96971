// A running localnet: the chain, sealed on a timer, served as liteservers over
// ADNL TCP (one key per listening port), with the TON global config that points
// any TON client at it.
import { availableParallelism } from "node:os";
import { beginCell, Cell, external, internal, parseTuple, storeMessage, type Address, type MessageRelaxed } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { AdnlServer } from "@tongate/adnl";
import { crc16 } from "@tongate/ton";
import { AccountHistory, type TxRecord } from "./chain/account-history.js";
import { Chain } from "./chain/chain.js";
import { DataDir } from "./data-dir.js";
import type { ShardStateBuilder } from "./chain/state.js";
import { TransactionExecutor, type EmulatorPoolOptions } from "@tongate/emulator";
import { createGenesis, type Genesis, type GenesisOptions } from "./genesis.js";
import { deriveBytes } from "./keys.js";
import { publishLibrary, type PublishedLibrary } from "./library-publisher.js";
import { createLiteDispatcher, type LiteHandler, type TlObject } from "./liteserver/dispatch.js";
import { createHandlers, type ProofMaker } from "./liteserver/handlers.js";

export interface LocalnetOptions extends GenesisOptions {
  /** Liteserver addresses; each gets its own key. */
  listen: { host: string; port: number }[];
  /** Seal a block every this many ms (0: only on demand). */
  blockIntervalMs?: number;
  /**
   * Within each seal, serve its shard blocks this many ms as signed but not committed
   * (liteServer.nonfinal.getPendingShardBlocks, getBlock) before the masterchain block commits them.
   * Default: half of blockIntervalMs when it is above 0, else 0 (no window).
   */
  pendingWindowMs?: number;
  buildState: ShardStateBuilder;
  /**
   * The bounds of this chain's emulator processes (collation, the checks of incoming external
   * messages, runSmcMethod); default: one per core, EmulatorPool's time and memory bounds.
   */
  emulator?: EmulatorPoolOptions;
  /** Keep the chain here and continue it on restart; a temporary directory (removed on close) when absent. */
  dataDir?: string;
  /** Masterchain blocks whose states stay in memory (DEFAULT_STATE_WINDOW). */
  stateWindow?: number;
  /** Serve states older than the window from disk, as an archival node (else "state already gc'd"). */
  archival?: boolean;
  /** Workchain 0 split into this many shards in the first blocks (1, 2, 4, 8, 16). */
  shards?: number;
  proofs: ProofMaker;
  clock?: () => number;
  /** Library cells to publish at start (`--library`), unless the chain has them already. */
  libraries?: Cell[];
}

export interface LiteserverEndpoint {
  host: string;
  port: number;
  publicKey: Buffer;
}

export class Localnet {
  private timer: NodeJS.Timeout | undefined;
  private readonly servers: (AdnlServer | null)[] = [];
  readonly liteservers: LiteserverEndpoint[] = [];
  /** Test knob: the getMasterchainInfo answer a lagging liteserver repeats, by endpoint. */
  private readonly frozenHeads = new Map<number, TlObject>();
  /** Called for every liteserver query once answered: its lite_api name, whether it succeeded, its milliseconds. */
  onQuery: ((name: string, ok: boolean, ms: number) => void) | undefined;

  private constructor(
    readonly genesis: Genesis,
    readonly chain: Chain,
    private readonly handlers: Record<string, LiteHandler>,
    private readonly seed: string,
    private readonly timeShift: { seconds: number },
    private readonly clock: () => number,
  ) {}

  /** Localnet's time (unix seconds): what the next sealed block will carry. */
  now(): number {
    return this.clock();
  }

  /** Moves localnet's clock forward (blocks sealed from now on carry the later time). */
  advanceTime(seconds: number): number {
    if (!Number.isInteger(seconds) || seconds < 0) throw new RangeError("seconds must be a non-negative integer");
    this.timeShift.seconds += seconds;
    return this.timeShift.seconds;
  }

  static async start(o: LocalnetOptions): Promise<Localnet> {
    const data = DataDir.open(o.dataDir, { seed: o.seed, wallets: o.wallets ?? 4, globalId: o.globalId ?? -239, now: o.now ?? Math.floor(Date.now() / 1000) });
    const genesis = createGenesis({ ...o, now: data.genesis.now });
    const executor = await TransactionExecutor.create(genesis.config, null, { emulator: { size: availableParallelism(), ...o.emulator } });
    // Localnet time: the wall clock (or the given one) plus an offset the control API can advance.
    const timeShift = { seconds: 0 };
    const base = o.clock ?? (() => Math.floor(Date.now() / 1000));
    const clock = () => base() + timeShift.seconds;
    const pendingWindowMs = checkPendingWindow(o.pendingWindowMs ?? defaultPendingWindowMs(o.blockIntervalMs ?? 0), o.blockIntervalMs ?? 0);
    const chain = Chain.open({ genesis, executor, buildState: o.buildState, clock, store: data.store, stateWindow: o.stateWindow, archival: o.archival, shards: o.shards });
    for (const e of data.journal ?? []) {
      if (e.t === "ext") chain.replayExternal(Buffer.from(e.boc, "base64"), e.out);
      else await chain.seal(e.now);
    }
    data.replayed();
    if (!chain.lastMasterchain) await chain.seal();
    // replaying and the first block do not wait: nobody can watch them pending yet
    chain.pendingWindowMs = pendingWindowMs;
    const net = new Localnet(genesis, chain, createHandlers(chain, o.proofs, clock), o.seed, timeShift, clock);
    for (const lib of o.libraries ?? []) await net.publishLibrary(lib);
    for (const [i, l] of o.listen.entries()) net.liteservers.push(await net.serve(i, l.host, l.port));
    if (o.blockIntervalMs) net.sealEvery(o.blockIntervalMs);
    return net;
  }

  /**
   * Seals a block every `ms` (from the start of one seal to the start of the next; a seal that takes
   * longer is followed by the next at once, never by a backlog).
   */
  private sealEvery(ms: number): void {
    const tick = () => {
      const started = Date.now();
      this.chain.seal().then(
        () => this.schedule(tick, Math.max(0, ms - (Date.now() - started))),
        () => this.schedule(tick, ms),
      );
    };
    this.schedule(tick, ms);
  }

  private schedule(fn: () => void, ms: number): void {
    if (!this.closed) this.timer = setTimeout(fn, ms);
  }

  private closed = false;

  /** Liteserver `i` (its key derives from the seed and i) listening on host:port. */
  private async serve(i: number, host: string, port: number): Promise<LiteserverEndpoint> {
    const head = "liteServer.getMasterchainInfo";
    const handler = createLiteDispatcher({
      handlers: { ...this.handlers, [head]: (q) => this.frozenHeads.get(i) ?? this.handlers[head]!(q) },
      waitMasterchainSeqno: (seqno, timeoutMs) => this.chain.waitMasterchainSeqno(seqno, timeoutMs),
      observe: (name, ok, ms) => this.onQuery?.(name, ok, ms),
    });
    const server = new AdnlServer({ seed: deriveBytes(this.seed, `liteserver/${i}`), handler });
    const addr = await server.listen(port, host);
    this.servers[i] = server;
    return { host, port: addr.port, publicKey: server.publicKey };
  }

  /** Stops liteserver `i` (its port refuses connections; open ones are dropped) until startLiteserver(i). */
  async stopLiteserver(i: number): Promise<void> {
    const server = this.servers[i];
    this.servers[i] = null;
    await server?.close({ graceMs: 0 });
  }

  /** Starts liteserver `i` again on its port, with its key. */
  async startLiteserver(i: number): Promise<void> {
    const l = this.liteservers[i];
    if (!l) throw new RangeError(`no liteserver ${i}`);
    if (!this.servers[i]) await this.serve(i, l.host, l.port);
  }

  /**
   * Test knob, a lagging liteserver: liteserver `i` answers liteServer.getMasterchainInfo with the
   * current head from now on while the chain goes on (other queries still see the whole chain);
   * `frozen = false` lets it catch up.
   */
  async freezeHead(i: number, frozen = true): Promise<void> {
    if (!frozen) this.frozenHeads.delete(i);
    else this.frozenHeads.set(i, await this.handlers["liteServer.getMasterchainInfo"]!({ kind: "liteServer.getMasterchainInfo" }));
  }

  /** A TON global config whose liteservers are this localnet's. */
  globalConfig(): object {
    return {
      "@type": "config.global",
      liteservers: this.liteservers.map((l) => ({
        ip: ipv4ToInt32(l.host === "0.0.0.0" ? "127.0.0.1" : l.host),
        port: l.port,
        id: { "@type": "pub.ed25519", key: l.publicKey.toString("base64") },
      })),
      validator: {
        "@type": "validator.config.global",
        zero_state: {
          workchain: -1,
          shard: -9223372036854775808,
          seqno: 0,
          root_hash: this.chain.mcZero.rootHash.toString("base64"),
          file_hash: this.chain.mcZero.fileHash.toString("base64"),
        },
        init_block: {
          workchain: -1,
          shard: -9223372036854775808,
          seqno: 0,
          root_hash: this.chain.mcZero.rootHash.toString("base64"),
          file_hash: this.chain.mcZero.fileHash.toString("base64"),
        },
        hardforks: [],
      },
    };
  }

  /**
   * Sends `amount` nanotons from the faucet (the first genesis v4r2 wallet) to `to`, seals a
   * block so it lands, and returns the faucet's transaction hash. Requests are serialized.
   */
  async faucet(to: Address, amount: bigint, bounce = false): Promise<{ hash: Buffer; lt: bigint; mcSeqno: number }> {
    const { transaction: tx, mcSeqno } = await this.sendFromFaucet(internal({ to, value: amount, bounce }));
    if (!tx) throw new Error("the faucet transfer did not execute");
    return { hash: tx.hash, lt: tx.lt, mcSeqno };
  }

  /**
   * Publishes `lib` as a public library (library-publisher.ts): from the next masterchain block on
   * it is in the state's libraries and transactions and get-methods resolve it.
   */
  publishLibrary(lib: Cell): Promise<PublishedLibrary> {
    return publishLibrary(this, lib);
  }

  /** The faucet wallet's address (the first genesis v4r2 wallet); undefined with --wallets 0. */
  get faucetAddress(): Address | undefined {
    const w = this.genesis.wallets.find((x) => x.version === "v4r2");
    return w ? WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey }).address : undefined;
  }

  /**
   * Sends `message` from the faucet wallet and seals a block so it lands (messages to the
   * masterchain land in that seal's masterchain block). Calls are serialized: each signs with the
   * wallet's next seqno.
   */
  sendFromFaucet(message: MessageRelaxed): Promise<{ transaction: TxRecord | undefined; mcSeqno: number }> {
    const run = async () => {
      const w = this.genesis.wallets.find((x) => x.version === "v4r2");
      if (!w) throw new Error("this localnet has no faucet wallet (started with --wallets 0)");
      const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
      const state = this.chain.history.latest(AccountHistory.key(0, wallet.address.hash));
      const seqnoRes = await this.chain.executor.runGetMethod(wallet.address, state!, getMethodId("seqno"), null, { now: Math.floor(Date.now() / 1000), randomSeed: Buffer.alloc(32) });
      const stack = seqnoRes.stack ? parseTuple(seqnoRes.stack) : [];
      const seqno = stack[0]?.type === "int" ? Number(stack[0].value) : 0;
      // Valid for a minute of localnet time (which POST /localnet/time moves ahead of the wall clock).
      const body = wallet.createTransfer({ seqno, secretKey: w.keyPair.secretKey, messages: [message], timeout: this.clock() + 60 });
      const msg = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
      await this.chain.sendExternal(msg.toBoc());
      const mc = await this.chain.seal();
      const transaction = this.chain.tipFor(wallet.address)?.transactions.find((t) => t.cell.beginParse().skip(4).loadBuffer(32).equals(wallet.address.hash));
      return { transaction, mcSeqno: mc.id.seqno };
    };
    const next = this.faucetQueue.then(run, run);
    this.faucetQueue = next.catch(() => undefined);
    return next;
  }

  private faucetQueue: Promise<unknown> = Promise.resolve();

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await Promise.all(this.servers.map((s) => s?.close({ graceMs: 1000 })));
    await this.chain.close();
    await this.chain.executor.close();
  }
}

/** The pending window a localnet sealing every `blockIntervalMs` gets unless told: half the interval (none when it seals on demand). */
export function defaultPendingWindowMs(blockIntervalMs: number): number {
  return blockIntervalMs > 0 ? Math.floor(blockIntervalMs / 2) : 0;
}

/** A pending window fits inside the block interval (it is part of each seal); any window when sealing on demand. */
export function checkPendingWindow(windowMs: number, blockIntervalMs: number): number {
  if (!Number.isInteger(windowMs) || windowMs < 0) throw new RangeError(`the pending window must be a whole number of milliseconds, 0 or more (got ${windowMs})`);
  if (blockIntervalMs > 0 && windowMs >= blockIntervalMs) {
    throw new RangeError(`the pending window (${windowMs} ms) must be shorter than the block interval (${blockIntervalMs} ms): it is part of each seal`);
  }
  return windowMs;
}

/** A TON global config writes IPv4 addresses as signed 32-bit integers. */
export function ipv4ToInt32(ip: string): number {
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`"${ip}" is not an IPv4 address`);
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) | 0;
}

/** A get-method id as TON computes it: crc16(name) & 0xffff | 0x10000. */
export function getMethodId(name: string): number {
  return (crc16(Buffer.from(name)) & 0xffff) | 0x10000;
}
