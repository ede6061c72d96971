// One get-method of an account, run in TON's emulator (an EmulatorPool: each run has the pool's
// time and memory bounds) with a gas limit, at a block's config, libraries and time. Whatever
// happens to the run is an answer: the result stack, or a ReadFailure saying why there is none.
import { getMethodId, type Address, type Cell, type TupleItem } from "@ton/core";
import { EmulatorFailure, runGetMethod, type EmulatorFailureReason, type EmulatorPool } from "@tongate/emulator";
import type { StackItem } from "@tongate/contracts";
import { readVmStack } from "./vm-stack.js";

/** The state of an account whose get-methods run. */
export interface AccountState {
  address: Address;
  code: Cell;
  data: Cell;
  balance: bigint;
}

/** Where and when get-methods run: the block's inputs, as a liteserver's runSmcMethod would take them. */
export interface GetMethodContext {
  pool: EmulatorPool;
  /** The block's ConfigParams dictionary as a base64 BoC (liteclient's blockConfig). */
  config: string;
  /** The libraries dictionary (HashmapE 256 ^Cell, @tongate/emulator's librariesCell); undefined: none. */
  libraries?: Cell;
  /** c7's unixtime: the block's. */
  now: number;
  /** Gas one run may use (default GAS_LIMIT). */
  gasLimit?: bigint;
  /** Stops waiting for runs when the caller has gone. */
  signal?: AbortSignal;
}

/** The gas one get-method may use by default, as a liteserver allows it. */
export const GAS_LIMIT = 1_000_000n;

/** Why a get-method gave no value. */
export type ReadFailure = { method: string; message: string } & (
  | /** The contract's answer: an exit code other than TVM's two of success (0 and 1); -14: out of gas. */
  { reason: "exit_code"; exitCode: number }
  /** The code needs a library the context did not have (hex hash): fetch it and run again. */
  | { reason: "missing_library"; library: string; exitCode: number }
  /** The emulator did not finish the run (past its time or memory bound, a trap, the pool busy or closed). */
  | { reason: "emulator"; emulator: EmulatorFailureReason | "error" }
  /** The run ended, but its result does not fit the get-method's standard (ContractDataError), or an argument does not fit the emulator. */
  | { reason: "result" }
);

export type Read<T> = { ok: true; value: T } | { ok: false; failure: ReadFailure };

export const failed = <T>(failure: ReadFailure): Read<T> => ({ ok: false, failure });

/**
 * Runs get-method `method` (a name or an id) of `state` with `stack` (bottom first). Never throws:
 * a run that did not give a result is a ReadFailure.
 */
export async function callGetMethod(ctx: GetMethodContext, state: AccountState, method: string | number, stack: TupleItem[] = []): Promise<Read<StackItem[]>> {
  const name = String(method);
  try {
    const out = await runGetMethod(
      ctx.pool,
      {
        code: state.code,
        data: state.data,
        methodId: typeof method === "number" ? method : getMethodId(method),
        stack,
        config: ctx.config,
        libs: ctx.libraries,
        address: state.address,
        now: ctx.now,
        balance: state.balance,
        randomSeed: Buffer.alloc(32),
        gasLimit: ctx.gasLimit ?? GAS_LIMIT,
      },
      ctx.signal,
    );
    if (!out.success) return failed({ method: name, reason: "emulator", emulator: "error", message: `the emulator could not run ${name}: ${out.error}` });
    if (out.exitCode !== 0 && out.exitCode !== 1) {
      if (out.missingLibrary) return failed({ method: name, reason: "missing_library", library: out.missingLibrary, exitCode: out.exitCode, message: `${name} needs library ${out.missingLibrary}` });
      return failed({ method: name, reason: "exit_code", exitCode: out.exitCode, message: `${name} exited with code ${out.exitCode}` });
    }
    return { ok: true, value: out.stack ? readVmStack(out.stack) : [] };
  } catch (e) {
    if (e instanceof EmulatorFailure) return failed({ method: name, reason: "emulator", emulator: e.reason, message: `${name}: ${e.message}` });
    // A result stack that does not parse, an argument the emulator's input cannot carry.
    return failed({ method: name, reason: "result", message: `${name}: ${e instanceof Error ? e.message : String(e)}` });
  }
}

/** Runs `method` and reads its result with `read` (a @tongate/contracts reader); a result that does not fit is a "result" failure. */
export async function readGetMethod<T>(ctx: GetMethodContext, state: AccountState, method: string, stack: TupleItem[], read: (items: StackItem[]) => T): Promise<Read<T>> {
  const r = await callGetMethod(ctx, state, method, stack);
  if (!r.ok) return r;
  try {
    return { ok: true, value: read(r.value) };
  } catch (e) {
    return failed({ method, reason: "result", message: e instanceof Error ? e.message : String(e) });
  }
}
