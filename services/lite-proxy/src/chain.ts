// The chain as lite-proxy reads it: liteserver queries through the pool, one
// session per API call (so every query of one call goes to one liteserver), with
// pool errors turned into toncenter's HTTP statuses.
import { createHash } from "node:crypto";
import { Address, Cell, loadAccount } from "@ton/core";
import type { LiteServerMasterchainInfo } from "@tongate/tl";
import { ConnectError } from "@connectrpc/connect";
import { apiError, LruMap } from "@tongate/runtime";
import { ProofError, verifyAccountState, type VerifiedAccountState } from "@tongate/proof";
import type { EmulatorPool } from "@tongate/emulator";
import { LiteServerError, LiteserverProofError, MASTERCHAIN_SHARD, PoolError, toApiError, type BlockIdExt, type LiteserverPool, type PoolSession, type SessionOptions } from "@tongate/liteclient";

export { MASTERCHAIN_SHARD, type BlockIdExt } from "@tongate/liteclient";

export type AccountStatus = "uninitialized" | "active" | "frozen";

export interface AccountSnapshot {
  /** The masterchain block the state was read at. */
  block: BlockIdExt;
  balance: bigint;
  status: AccountStatus;
  code?: Cell;
  data?: Cell;
  /** Hash of the state of a frozen account. */
  frozenHash?: Buffer;
  lastTransLt: bigint;
  lastTransHash: Buffer;
  /** gen_utime of the shard state the account was read from. */
  syncUtime: number;
}

/** Runs a proof check of a liteserver answer: a failure means the liteserver cannot be trusted (502). */
export function verified<T>(method: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (e instanceof ProofError) throw apiError(502, `${method}: the liteserver's answer failed proof verification: ${e.message}`);
    if (e instanceof LiteserverProofError) throw apiError(502, `${method}: the liteserver's answer failed proof verification: ${e.proofError.message}`);
    throw e;
  }
}

/** Maps pool and liteserver errors to API errors a client can act on. */
export function asApiError(err: unknown, what: string): Error {
  if (err instanceof LiteServerError) {
    if (err.notInDb) return apiError(404, `${what}: not found on the liteserver (${err.message}); for old data try archival=true`);
    return apiError(500, `${what}: ${err.message}`);
  }
  if (err instanceof LiteserverProofError) return apiError(502, `${what}: the liteserver's answer failed proof verification: ${err.proofError.message}`);
  if (err instanceof PoolError) return toApiError(err);
  return err instanceof Error ? err : new Error(String(err));
}

/** Verified account answers kept (by the digest of the answer's bytes). */
const VERIFIED_ACCOUNTS = 4096;

interface AccountStateBytes {
  shard_proof: Uint8Array;
  proof: Uint8Array;
  state: Uint8Array;
}

/**
 * Identifies a liteServer.accountState answer for an account at a masterchain block by all its
 * bytes; undefined for an answer of another shape (the verifier reports it).
 */
function answerDigest(block: BlockIdExt, address: Address, a: Partial<AccountStateBytes>): string | undefined {
  const parts = [a.shard_proof, a.proof, a.state];
  if (!parts.every((p) => p instanceof Uint8Array)) return undefined;
  const h = createHash("sha256").update(block.root_hash).update(address.hash).update(String(address.workChain));
  for (const part of parts as Uint8Array[]) h.update(String(part.length)).update(part);
  return h.digest("base64");
}

export class ChainReader {
  /**
   * Account snapshots by the digest of the liteserver answer they were verified from. Every call
   * still asks the liteserver; an answer identical to one already verified (same block, account,
   * proofs and state bytes) is not parsed and verified again: that is ~2 ms of CPU, most of an
   * uncached getAddressInformation.
   */
  private readonly verifiedAccounts = new LruMap<string, VerifiedAccount>(VERIFIED_ACCOUNTS);

  constructor(
    private readonly pool: LiteserverPool | undefined,
    /** Where contract code of the chain runs (get-methods, fee estimates): TON's emulator in processes of its own. */
    readonly emulator: EmulatorPool,
  ) {}

  private session(method: string, options: SessionOptions = {}): PoolSession {
    // Without liteservers (no --global-config and no localnet) chain methods are not available.
    if (!this.pool) throw apiError(501, `${method} needs a liteserver: start tongate with a localnet or --global-config`);
    return this.pool.session(options);
  }

  /** The pool (undefined without liteservers); for broadcasts (sendBoc) and status. */
  get liteservers(): LiteserverPool | undefined {
    return this.pool;
  }

  /**
   * Runs `fn` on one pool session, so every liteserver query of one API call goes to one liteserver,
   * and maps pool and liteserver failures to API errors (404 not in db, 504 timeout, 542 none alive).
   */
  async withSession<T>(method: string, fn: (s: PoolSession) => Promise<T>, options: SessionOptions = {}): Promise<T> {
    const s = this.session(method, options);
    try {
      return await fn(s);
    } catch (e) {
      if (e instanceof ConnectError) throw e; // already an API error
      throw asApiError(e, method);
    }
  }

  get consensus() {
    return this.pool?.consensus ?? null;
  }

  async masterchainInfo(method: string): Promise<LiteServerMasterchainInfo> {
    const s = this.session(method);
    try {
      return await s.query({ kind: "liteServer.getMasterchainInfo" });
    } catch (e) {
      throw asApiError(e, method);
    }
  }

  /** The masterchain block with this seqno (lookupBlock), or the latest. */
  async mcBlock(s: PoolSession, seqno: number | undefined): Promise<BlockIdExt> {
    if (seqno === undefined) return (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
    const r = (await s.query({ kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: MASTERCHAIN_SHARD, seqno }, lt: undefined, utime: undefined }));
    return r.id;
  }

  /**
   * The account at the latest (or the given) masterchain block. The answer's Merkle proofs are
   * checked (@tongate/proof): what the API returns is what the chain commits to.
   */
  async account(method: string, address: Address, seqno?: number): Promise<AccountSnapshot> {
    const v = await this.withSession(method, async (s) => this.verifiedAccount(s, method, address, await this.mcBlock(s, seqno)));
    let snap = snapshots.get(v);
    if (!snap) snapshots.set(v, (snap = snapshotOf(v.block, v.state)));
    return snap;
  }

  /**
   * liteServer.getAccountState at `block`, its proofs checked (a failed check is a 502). Every call
   * asks the liteserver; an answer identical to one already verified (same block, account, proofs
   * and state bytes) is not parsed and verified again: that was ~2 ms of CPU, most of an uncached
   * getAddressInformation.
   */
  async verifiedAccount(s: PoolSession, method: string, address: Address, block: BlockIdExt): Promise<VerifiedAccount> {
    const answer = await s.query({ kind: "liteServer.getAccountState", id: { kind: "tonNode.blockIdExt", ...block }, account: { kind: "liteServer.accountId", workchain: address.workChain, id: address.hash } });
    const digest = answerDigest(block, address, answer);
    const known = digest === undefined ? undefined : this.verifiedAccounts.get(digest);
    if (known) return known;
    const state = verified(method, () => verifyAccountState(answer, { kind: "tonNode.blockIdExt", ...block }, { workchain: address.workChain, id: address.hash }));
    const v = { block, state };
    if (digest !== undefined) this.verifiedAccounts.set(digest, v);
    return v;
  }
}

/** A verified account answer and the masterchain block it was read at. */
export interface VerifiedAccount {
  block: BlockIdExt;
  state: VerifiedAccountState;
}

/** Snapshots derived from verified answers, kept as long as the answer is. */
const snapshots = new WeakMap<VerifiedAccount, AccountSnapshot>();

function snapshotOf(block: BlockIdExt, v: VerifiedAccountState): AccountSnapshot {
  const base = { block, balance: 0n, status: "uninitialized" as AccountStatus, lastTransLt: 0n, lastTransHash: Buffer.alloc(32), syncUtime: v.genUtime ?? 0 };
  if (!v.shardAccount || !v.account) return base;
  const last = { lastTransLt: v.shardAccount.lastTransLt, lastTransHash: v.shardAccount.lastTransHash };
  const slice = v.account.beginParse();
  if (!slice.loadBit()) return { ...base, ...last };
  const account = loadAccount(slice);
  const st = account.storage.state;
  const snap: AccountSnapshot = { ...base, ...last, balance: account.storage.balance.coins };
  if (st.type === "active") {
    snap.status = "active";
    snap.code = st.state.code ?? undefined;
    snap.data = st.state.data ?? undefined;
  } else if (st.type === "frozen") {
    snap.status = "frozen";
    snap.frozenHash = Buffer.from(st.stateHash.toString(16).padStart(64, "0"), "hex");
  }
  return snap;
}
