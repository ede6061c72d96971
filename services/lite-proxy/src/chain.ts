// The chain as lite-proxy reads it: liteserver queries through the pool, one
// session per API call (so every query of one call goes to one liteserver), with
// pool errors turned into toncenter's HTTP statuses.
import { Address, Cell, loadAccount } from "@ton/core";
import type { TlObject } from "@tongate/tl";
import { apiError } from "@tongate/runtime";
import { LiteServerError, PoolError, toApiError, type LiteserverPool, type PoolSession } from "./pool/index.js";

export const MASTERCHAIN_SHARD = -(2n ** 63n);

export interface BlockIdExt {
  workchain: number;
  shard: bigint;
  seqno: number;
  root_hash: Buffer;
  file_hash: Buffer;
}

export type AccountStatus = "uninitialized" | "active" | "frozen";

export interface AccountSnapshot {
  /** The masterchain block the state was read at. */
  block: BlockIdExt;
  balance: bigint;
  status: AccountStatus;
}

/** Maps pool and liteserver errors to API errors a client can act on. */
export function asApiError(err: unknown, what: string): Error {
  if (err instanceof LiteServerError) {
    if (err.notInDb) return apiError(404, `${what}: not found on the liteserver (${err.message}); for old data try archival=true`);
    return apiError(500, `${what}: ${err.message}`);
  }
  if (err instanceof PoolError) return toApiError(err);
  return err instanceof Error ? err : new Error(String(err));
}

export class ChainReader {
  constructor(private readonly pool: LiteserverPool | undefined) {}

  private session(method: string): PoolSession {
    // Without liteservers (no --global-config and no localnet) chain methods are not available.
    if (!this.pool) throw apiError(501, `${method} needs a liteserver: start tongate with a localnet or --global-config`);
    return this.pool.session();
  }

  get consensus() {
    return this.pool?.consensus ?? null;
  }

  async masterchainInfo(method: string): Promise<{ last: BlockIdExt; state_root_hash: Buffer; init: { workchain: number; root_hash: Buffer; file_hash: Buffer } }> {
    const s = this.session(method);
    try {
      return (await s.query({ kind: "liteServer.getMasterchainInfo" })) as never;
    } catch (e) {
      throw asApiError(e, method);
    }
  }

  /** The masterchain block with this seqno (lookupBlock), or the latest. */
  private async mcBlock(s: PoolSession, seqno: number | undefined): Promise<BlockIdExt> {
    if (seqno === undefined) return ((await s.query({ kind: "liteServer.getMasterchainInfo" })) as TlObject & { last: BlockIdExt }).last;
    const r = (await s.query({ kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: MASTERCHAIN_SHARD, seqno }, lt: undefined, utime: undefined })) as TlObject & { id: BlockIdExt };
    return r.id;
  }

  async account(method: string, address: Address, seqno?: number): Promise<AccountSnapshot> {
    const s = this.session(method);
    try {
      const block = await this.mcBlock(s, seqno);
      const r = (await s.query({ kind: "liteServer.getAccountState", id: { kind: "tonNode.blockIdExt", ...block }, account: { kind: "liteServer.accountId", workchain: address.workChain, id: address.hash } })) as TlObject & { state: Buffer };
      if (r.state.length === 0) return { block, balance: 0n, status: "uninitialized" };
      const slice = Cell.fromBoc(r.state)[0]!.beginParse();
      if (!slice.loadBit()) return { block, balance: 0n, status: "uninitialized" };
      const account = loadAccount(slice);
      const state = account.storage.state.type;
      return { block, balance: account.storage.balance.coins, status: state === "active" ? "active" : state === "frozen" ? "frozen" : "uninitialized" };
    } catch (e) {
      throw asApiError(e, method);
    }
  }
}
