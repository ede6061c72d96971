// Running a contract's get-method, as tonlib does for toncenter: the account and the config are read
// from one liteserver with their proofs checked, and the method runs here, in TON's emulator. (The
// liteserver's own runSmcMethod reports no gas_used, which API v2 returns, and its result stack is
// not provable; running locally gives both from proven inputs.)
import { Cell, type Address, type TupleItem } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { crc16 } from "@tongate/ton";
import { emptyLibraries, libraryRefs, librariesCell, runGetMethod } from "@tongate/emulator";
import { blockConfig, fetchLibraries } from "@tongate/liteclient";
import type { BlockIdExt, ChainReader } from "./chain.js";
import { accountAt, emulatorFailed } from "./emulation.js";
import { parseVmStack, type StackItem } from "./tvm-stack.js";

/** tonlib's exit code for a get-method on an account without code (uninitialized or frozen). */
export const EXIT_NO_CODE = -13;
/** The gas a get-method may use, as a liteserver allows it. */
const GET_METHOD_GAS_LIMIT = 1_000_000n;
/** Libraries the emulator may ask for one by one (beyond those referenced from code and data). */
const MAX_LIBRARY_ROUNDS = 8;

export interface SmcRunResult {
  exitCode: number;
  gasUsed: bigint;
  /** The result stack, bottom first; values tonlib cannot represent (continuations, builders) are "unsupported". */
  stack: StackItem[];
  /** The masterchain block the method ran at. */
  block: BlockIdExt;
  /** The account's last transaction at that block. */
  lastTransactionId: { lt: bigint; hash: Buffer };
}

/**
 * A get-method id: crc16(name) & 0xffff | 0x10000 for a name, the number itself for a decimal
 * string or a number (a signed 32-bit id, as tonlib's smc.methodIdNumber).
 */
export function getMethodId(method: string | number): number {
  if (typeof method === "number" || /^-?\d+$/.test(method)) {
    const id = Number(method);
    if (!Number.isSafeInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) throw apiError(422, `method: ${method} is not a get-method id (a signed 32-bit integer)`);
    return id;
  }
  if (method === "") throw apiError(422, "method: must be a get-method name or id");
  return (crc16(Buffer.from(method)) & 0xffff) | 0x10000;
}

/**
 * Runs get-method `getMethod` (a name or an id) of `address` with `stack` (bottom first) at the latest
 * or the given masterchain block. A non-zero exit code is a result, not an error; an account without
 * code gives exit code -13 (tonlib's answer) with an empty stack. `method` names the API method for errors.
 */
export async function runSmcMethod(chain: ChainReader, method: string, address: Address, getMethod: string | number, stack: TupleItem[], seqno?: number): Promise<SmcRunResult> {
  const methodId = getMethodId(getMethod);
  return chain.withSession(method, async (s) => {
    const block = await chain.mcBlock(s, seqno);
    const acc = await accountAt(chain, s, method, address, block);
    const base = { block, lastTransactionId: { lt: acc.lastTransLt, hash: acc.lastTransHash } };
    const state = acc.account?.storage.state;
    if (!acc.account || state?.type !== "active" || !state.state.code) return { ...base, exitCode: EXIT_NO_CODE, gasUsed: 0n, stack: [] };
    const code = state.state.code;
    const data = state.state.data ?? Cell.EMPTY;
    const config = await blockConfig(s, block);
    const libs = emptyLibraries();
    await fetchLibraries(s, libraryRefs([code, data]), libs);
    for (let round = 0; ; round++) {
      const out = await runGetMethod(chain.emulator, {
        code,
        data,
        methodId,
        stack,
        config,
        libs: librariesCell(libs),
        address,
        now: acc.genUtime,
        balance: acc.account.storage.balance.coins,
        randomSeed: Buffer.alloc(32),
        gasLimit: GET_METHOD_GAS_LIMIT,
      }).catch((e: unknown) => emulatorFailed(method, e));
      if (!out.success) throw apiError(500, `${method}: the emulator could not run the get-method: ${out.error}`);
      if (out.missingLibrary && round < MAX_LIBRARY_ROUNDS) {
        const before = libs.size;
        await fetchLibraries(s, [Buffer.from(out.missingLibrary, "hex")], libs);
        if (libs.size > before) continue; // run again with it; a library no liteserver has leaves the exit code as it is
      }
      return { ...base, exitCode: out.exitCode, gasUsed: out.gasUsed, stack: out.stack ? parseVmStack(out.stack) : [] };
    }
  });
}
