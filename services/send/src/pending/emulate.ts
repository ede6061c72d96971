// One external message emulated into a pending trace: its whole trace (@tongate/emulator's
// emulateTrace) on the proven state of a masterchain block (the latest by default), every account
// read with its Merkle proofs checked, the block's config and the public libraries the codes use;
// then classified into actions (@tongate/actions) on the decoder's facts when this process has the
// store. What the pending engine keeps and what EmulateTrace answers.
import { create } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import type { Address, Cell } from "@ton/core";
import { actionToJson, classifyTrace, MapInterfaceLookup, traceInputFromTransactions, unknownAction, type Classification, type TraceInput } from "@tongate/actions";
import { emptyLibraries, EmulatorFailure, emulateTrace, librariesCell, libraryRefs, TraceEmulationError, type EmulatedTrace, type EmulatorPool, type TraceBounds } from "@tongate/emulator";
import { blockConfig, fetchLibraries, readAccount, type BlockIdExt, type LiteQuerier, type LiteserverPool } from "@tongate/liteclient";
import { Finality, PendingTraceSchema, PendingTransactionSchema, type PendingTrace } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { apiError } from "@tongate/runtime";
import { factsForTraces, type Store } from "@tongate/store";
import { accountSummary } from "./account-summary.js";

export interface EmulationDeps {
  pool: LiteserverPool;
  emulator: EmulatorPool;
  /** The store with the decoder's facts (jetton wallets, NFT items…) for the classifier, when this process has one; without it a trace is classified on none. */
  store: () => Promise<Store | undefined>;
}

export interface EmulationRequest {
  root: Cell;
  hashNorm: Buffer;
  ignoreChksig?: boolean;
  /** Classify into actions (the pending engine always does). */
  withActions: boolean;
  includeCodeData?: boolean;
  /** The masterchain block whose state to emulate on; undefined: the latest. */
  mcSeqno?: number;
  bounds?: TraceBounds;
  signal?: AbortSignal;
}

/** Why an emulation gave no trace, for the metrics and for EmulateTrace's error. */
export type EmulationFailure = "rejected" | "depth" | "count" | "timeout" | "block" | "chain" | "emulator";

export class EmulationError extends Error {
  constructor(
    readonly reason: EmulationFailure,
    message: string,
    /** the HTTP status, when the reason alone does not tell it (an emulator run's failure) */
    private readonly status?: number,
  ) {
    super(message);
    this.name = "EmulationError";
  }

  /**
   * As an RPC error: a message the contract refuses is FailedPrecondition (409, as sendBoc answers
   * it), a trace past a bound or an unknown block InvalidArgument (422), the chain or the emulator
   * unavailable 503.
   */
  toConnectError(): ConnectError {
    const status = this.status ?? (this.reason === "rejected" ? 409 : this.reason === "chain" || this.reason === "emulator" ? 503 : 422);
    return apiError(status, this.message);
  }
}

const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

/** The masterchain block to emulate on: the latest, or the one with `seqno`. */
async function masterchainBlock(s: LiteQuerier, seqno: number | undefined): Promise<BlockIdExt> {
  if (seqno === undefined) return (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
  try {
    return (await s.query({ kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: -0x8000000000000000n, seqno }, lt: undefined, utime: undefined })).id;
  } catch (e) {
    throw new EmulationError("block", `mc_block_seqno: masterchain block ${seqno} is not on the liteserver (${(e as Error).message})`);
  }
}

/** The decoder's facts about the trace's accounts (and what they name outside it) at `mcSeqno`. */
async function factsOf(deps: EmulationDeps, input: TraceInput, mcSeqno: number): Promise<MapInterfaceLookup> {
  const store = await deps.store();
  if (!store) return new MapInterfaceLookup(new Map());
  return new MapInterfaceLookup(await factsForTraces(store, [input], mcSeqno));
}

/** Never throws: a classifier that throws counts as failed, with one `unknown` action. */
function classified(input: TraceInput, facts: MapInterfaceLookup): Classification {
  try {
    const c = classifyTrace(input, facts);
    return c.state === "failed" && c.actions.length === 0 ? { ...c, actions: [unknownAction(input)] } : c;
  } catch (e) {
    return { state: "failed", actions: [unknownAction(input)], error: e instanceof Error ? e.message : String(e) };
  }
}

/** A pending trace and the raw addresses ("0:ABC…") of its transactions' accounts, in its order. */
export interface Emulated {
  trace: PendingTrace;
  accounts: string[];
}

/** The emulated trace of `req.root` on the block's state, as a PendingTrace (finality pending). */
export async function emulatePending(deps: EmulationDeps, req: EmulationRequest): Promise<Emulated> {
  const s = deps.pool.session();
  let block: BlockIdExt;
  let config: string;
  try {
    block = await masterchainBlock(s, req.mcSeqno);
    config = await blockConfig(s, block);
  } catch (e) {
    if (e instanceof EmulationError) throw e;
    throw new EmulationError("chain", `the chain's state could not be read: ${(e as Error).message}`);
  }
  const libs = emptyLibraries();
  let trace: EmulatedTrace;
  try {
    trace = await emulateTrace(deps.emulator, {
      message: req.root,
      config,
      account: async (address) => {
        const a = await readAccount(s, address, block);
        return { shardAccount: a.shardAccount, lastTransLt: a.lastTransLt };
      },
      libraries: async (codes) => {
        await fetchLibraries(s, libraryRefs(codes), libs);
        return librariesCell(libs) ?? null;
      },
      // the transactions will run in a block to come: now, and after the accounts' last transactions
      now: Math.floor(Date.now() / 1000),
      lt: 0n,
      ignoreChksig: req.ignoreChksig,
      bounds: req.bounds,
      signal: req.signal,
    });
  } catch (e) {
    if (e instanceof TraceEmulationError) throw new EmulationError(e.reason, e.message);
    // a run's failure as lite-proxy answers it
    if (e instanceof EmulatorFailure) throw new EmulationError("emulator", `the emulation failed: ${e.message}`, e.httpStatus);
    throw new EmulationError("chain", `the chain's state could not be read: ${(e as Error).message}`);
  }
  return { trace: await pendingTrace(deps, req, block.seqno, trace), accounts: trace.transactions.map((t) => raw(t.address)) };
}

async function pendingTrace(deps: EmulationDeps, req: EmulationRequest, mcSeqno: number, trace: EmulatedTrace): Promise<PendingTrace> {
  const txs = trace.transactions;
  const root = txs[0]!;
  let actionsJson: string[] = [];
  let state = "unclassified";
  if (req.withActions) {
    const input = traceInputFromTransactions(
      txs.map((t) => ({ transaction: t.transaction, cell: t.cell, address: t.address })),
      { mcSeqno, externalHashNorm: req.hashNorm.toString("base64") },
    );
    const c = classified(input, await factsOf(deps, input, mcSeqno).catch(() => new MapInterfaceLookup(new Map())));
    actionsJson = c.actions.map((a) => JSON.stringify(actionToJson(a)));
    state = c.state;
  }
  return create(PendingTraceSchema, {
    traceId: root.cell.hash(),
    externalHash: req.root.hash(),
    externalHashNorm: req.hashNorm,
    transactions: txs.map((t) =>
      create(PendingTransactionSchema, {
        boc: t.cell.toBoc({ idx: false, crc32: true }).toString("base64"),
        finality: Finality.PENDING,
        mcBlockSeqno: mcSeqno,
        blockWorkchain: t.address.workChain,
        blockShard: "",
        blockSeqno: 0,
        accountStateBefore: accountSummary(t.shardAccountBefore, req.includeCodeData ?? false),
        accountStateAfter: accountSummary(t.shardAccountAfter, req.includeCodeData ?? false),
        inMsgHash: t.depth === 0 ? Buffer.alloc(0) : t.inMsgHash,
      }),
    ),
    actionsJson,
    classificationState: state,
    isIncomplete: trace.isIncomplete,
    finality: Finality.PENDING,
    acceptedAt: Math.floor(Date.now() / 1000),
    mcBlockSeqno: mcSeqno,
    randSeed: trace.randomSeed.toString("hex"),
  });
}
