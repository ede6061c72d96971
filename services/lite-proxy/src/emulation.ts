// Running contract code for API v2 (runGetMethod, estimateFee): the inputs are read as
// @tongate/liteclient reads them (account, block config, libraries), the account through the
// chain reader, which keeps verified answers; @tongate/emulator runs the code. Here: how that
// reaches the API, and its failures as API errors.
import type { Address } from "@ton/core";
import { readAccount, type AccountAtBlock, type PoolSession } from "@tongate/liteclient";
import { EmulatorFailure } from "@tongate/emulator";
import { apiError } from "@tongate/runtime";
import type { BlockIdExt, ChainReader } from "./chain.js";

export type { AccountAtBlock };

/** The account at a masterchain block, with its proofs checked (ChainReader.verifiedAccount). */
export function accountAt(chain: ChainReader, s: PoolSession, method: string, address: Address, block: BlockIdExt): Promise<AccountAtBlock> {
  return readAccount(async (a, b) => (await chain.verifiedAccount(s, method, a, b)).state, address, block);
}

/**
 * A run the emulator could not finish within its bounds, as an API error: 504 past its time bound,
 * 503 when too many runs wait, 422 for an input it threw a C++ exception on, else 500 saying what happened to the run (only the run failed: its
 * process was replaced, the service goes on). Anything else is rethrown as it is.
 */
export function emulatorFailed(method: string, e: unknown): never {
  if (!(e instanceof EmulatorFailure)) throw e;
  throw apiError(e.httpStatus, `${method}: ${e.message}`);
}
