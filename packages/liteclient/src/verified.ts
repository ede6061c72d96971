// Verified reads: a lite_api query whose answer is checked against a trusted block with @tongate/proof before
// it is returned. A failed check throws LiteserverProofError (HTTP 502: the liteserver cannot be trusted);
// each service maps it, as the pool's other errors, at its boundary.
import {
  ProofError,
  verifyAccountState,
  verifyBlockHeader,
  verifyConfig,
  type AccountAddress,
  type ConfigRequest,
  type VerifiedAccountState,
  type VerifiedBlockHeader,
  type VerifiedConfig,
} from "@tongate/proof";
import type { LiteServerAccountState } from "@tongate/tl";
import { tlBlockId, type BlockIdExt } from "./block-id.js";
import { PoolError } from "./errors.js";
import type { LiteAnswer, LiteCall, LiteQueryName } from "./lite-api.js";
import type { QueryOptions } from "./pool.js";

/** What a verified read needs: the pool, a session, or anything typed like them. */
export interface LiteQuerier {
  query<K extends LiteQueryName>(fn: LiteCall<K>, options?: QueryOptions): Promise<LiteAnswer<K>>;
  /** `host:port` of the liteserver that answered (a PoolSession's). */
  readonly liteserver?: string | null;
}

/** The liteserver's answer failed its proof check: HTTP 502. */
export class LiteserverProofError extends PoolError {
  override readonly name = "LiteserverProofError";
  readonly httpStatus = 502;

  constructor(
    /** The lite_api function whose answer failed. */
    readonly query: string,
    /** What @tongate/proof found. */
    readonly proofError: ProofError,
    liteserver?: string,
  ) {
    super(`the liteserver's answer to ${query} failed proof verification: ${proofError.message}`, liteserver);
  }
}

/** Runs `check` on the answer to `query`; a ProofError becomes a LiteserverProofError. */
export function checkAnswer<T>(query: string, lite: Pick<LiteQuerier, "liteserver">, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof ProofError) throw new LiteserverProofError(query, e, lite.liteserver ?? undefined);
    throw e;
  }
}

/** liteServer.getAccountState at masterchain block `block`, its shard and account proofs checked. */
export async function getAccountState(
  lite: LiteQuerier,
  block: BlockIdExt,
  account: AccountAddress,
  options?: QueryOptions,
): Promise<{ answer: LiteServerAccountState; state: VerifiedAccountState }> {
  const fn = "liteServer.getAccountState";
  const answer = await lite.query({ kind: fn, id: tlBlockId(block), account: { kind: "liteServer.accountId", workchain: account.workchain, id: account.id } }, options);
  return { answer, state: checkAnswer(fn, lite, () => verifyAccountState(answer, block, account)) };
}

/** The configuration (all of it, or `params`) at masterchain block `block`, its state proof checked. */
export async function getConfig(lite: LiteQuerier, block: BlockIdExt, request: ConfigRequest, options?: QueryOptions): Promise<VerifiedConfig> {
  const id = tlBlockId(block);
  if ("all" in request) {
    const answer = await lite.query({ kind: "liteServer.getConfigAll", mode: 0, id }, options);
    return checkAnswer("liteServer.getConfigAll", lite, () => verifyConfig(answer, block, request));
  }
  const answer = await lite.query({ kind: "liteServer.getConfigParams", mode: 0, id, param_list: request.params }, options);
  return checkAnswer("liteServer.getConfigParams", lite, () => verifyConfig(answer, block, request));
}

/** The header of block `block` (liteServer.getBlockHeader), its proof checked against the block's root hash. */
export async function getBlockHeader(lite: LiteQuerier, block: BlockIdExt, options?: QueryOptions): Promise<VerifiedBlockHeader> {
  const fn = "liteServer.getBlockHeader";
  const answer = await lite.query({ kind: fn, id: tlBlockId(block), mode: 0 }, options);
  return checkAnswer(fn, lite, () => verifyBlockHeader(answer, block));
}
