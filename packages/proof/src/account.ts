// liteServer.accountState (getAccountState / getAccountStatePrunned) and liteServer.runMethodResult
// (runSmcMethod), as block::AccountState::validate and the lite-client check them.
import { type Cell, CellType } from "@ton/core";
import { blockIdToString, isInvalidBlockId } from "./blockid.js";
import { deserializeBoc, hex } from "./cells.js";
import {
  type AccountAddress,
  accountToString,
  checkAccountAddress,
  checkAccountProof,
  checkNoShardProof,
  checkShardBlockForAccount,
  checkShardProof,
  expectTrustedId,
} from "./common.js";
import { fail, guard } from "./errors.js";
import type { ProvenShardAccount } from "./state.js";
import { type LiteServerAccountState, type LiteServerRunMethodResult, type TonNodeBlockIdExt, checkShape } from "./tl.js";

export interface VerifiedAccountState {
  /** The trusted masterchain block the answer is relative to. */
  mcBlock: TonNodeBlockIdExt;
  /** The shard block whose state holds the account (= mcBlock for a masterchain account); null if the masterchain knows no shard for the account. */
  shardBlock: TonNodeBlockIdExt | null;
  /** The proven ShardAccount; null when the account is proven absent from the shard state. */
  shardAccount: ProvenShardAccount | null;
  /**
   * The Account cell from `state`: the whole account, or for getAccountStatePrunned the virtual root of its
   * Merkle proof (code and data pruned). null iff shardAccount is null.
   */
  account: Cell | null;
  /** gen_utime / gen_lt of the shard state (null with shardBlock). */
  genUtime: number | null;
  genLt: bigint | null;
}

/** The Account cell of a `state` BoC that must hash to `expected` (a full cell tree, or a MERKLE_PROOF of it). */
function checkAccountCell(boc: Buffer, expected: Buffer, what: string): Cell {
  const [root] = deserializeBoc(boc, what, 1);
  if (root.type === CellType.MerkleProof) {
    const virt = root.refs[0];
    if (!virt.hash(0).equals(expected)) fail(`${what}: account state hash mismatch: Merkle proof expects ${hex(expected)} but received data has ${hex(virt.hash(0))}`);
    return virt;
  }
  if (root.type !== CellType.Ordinary || root.level() !== 0) fail(`${what}: account state must be a full cell tree or a Merkle proof of one`);
  if (!root.hash().equals(expected)) fail(`${what}: account state hash mismatch: Merkle proof expects ${hex(expected)} but received data has ${hex(root.hash())}`);
  return root;
}

/**
 * Verifies a liteServer.accountState answer for `account` against the trusted masterchain block `trusted`
 * (or, for a shard-block reference, that shard block itself):
 * - shard_proof: trusted mc block → its state (via state_update) → ShardHashes leaf naming shardblk (empty
 *   when shardblk is the reference block);
 * - proof: shardblk header → its state (via state_update) → ShardAccounts entry of the account, or its absence;
 * - state: the Account whose cell hash is the proven ShardAccount.account (empty iff the account is absent).
 */
export function verifyAccountState(answer: LiteServerAccountState | object, trusted: TonNodeBlockIdExt, account: AccountAddress): VerifiedAccountState {
  const what = "liteServer.accountState";
  const a = checkShape<LiteServerAccountState>(answer, what, { id: "id", shardblk: "id", shard_proof: "bytes", proof: "bytes", state: "bytes" });
  checkAccountAddress(account, what);
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    if (isInvalidBlockId(a.shardblk)) {
      checkNoShardProof(a.id, account, a.shard_proof, what);
      if (a.proof.length !== 0 || a.state.length !== 0) fail(`${what}: proof and state must be empty when shardblk is empty`);
      return { mcBlock: a.id, shardBlock: null, shardAccount: null, account: null, genUtime: null, genLt: null };
    }
    checkShardBlockForAccount(a.shardblk, account, what);
    checkShardProof(a.id, a.shardblk, a.shard_proof, what);
    const proven = checkAccountProof(a.proof, a.shardblk, account, `${what}: proof`);
    let accountCell: Cell | null = null;
    if (proven.shardAccount) {
      if (a.state.length === 0) {
        fail(`${what}: account state proof shows that account state for ${accountToString(account)} must be non-empty, but it actually is empty`);
      }
      accountCell = checkAccountCell(a.state, proven.shardAccount.accountHash, `${what}: state`);
    } else if (a.state.length !== 0) {
      fail(`${what}: account state proof shows that account state for ${accountToString(account)} must be empty, but it is not`);
    }
    return {
      mcBlock: a.id,
      shardBlock: a.shardblk,
      shardAccount: proven.shardAccount,
      account: accountCell,
      genUtime: proven.state.genUtime,
      genLt: proven.state.genLt,
    };
  });
}

export interface VerifiedRunMethodResult {
  mcBlock: TonNodeBlockIdExt;
  shardBlock: TonNodeBlockIdExt;
  shardAccount: ProvenShardAccount | null;
  /** mode.1: virtual root of the Merkle proof of the Account cell (the cells the method touched). */
  accountProof: Cell | null;
  exitCode: number;
  /**
   * mode.2: the result stack BoC. NOT proven: it is what the server computed; a client that needs it proven
   * re-runs the method on the proven account (accountProof) with the proven config.
   */
  resultUnverified: Buffer | null;
  /** mode.3: the c7 the server used, NOT proven. */
  initC7Unverified: Buffer | null;
}

/**
 * Verifies a liteServer.runMethodResult: with mode.0 the shard_proof/proof pair is checked like an account
 * state; with mode.1 state_proof must be a Merkle proof of the proven Account cell. An answer without
 * mode.0 carries no proof and is rejected. The method's result itself is not provable (see resultUnverified).
 */
export function verifyRunMethodResult(
  answer: LiteServerRunMethodResult | object,
  trusted: TonNodeBlockIdExt,
  account: AccountAddress,
): VerifiedRunMethodResult {
  const what = "liteServer.runMethodResult";
  const a = checkShape<LiteServerRunMethodResult>(answer, what, { mode: "int", id: "id", shardblk: "id", exit_code: "int" });
  checkAccountAddress(account, what);
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    if (!(a.mode & 1) || !a.shard_proof || !a.proof) fail(`${what}: the answer carries no proof (mode ${a.mode} lacks bit 0: shard_proof and proof)`);
    if (isInvalidBlockId(a.shardblk)) fail(`${what}: shardblk ${blockIdToString(a.shardblk)} is invalid`);
    checkShardBlockForAccount(a.shardblk, account, what);
    checkShardProof(a.id, a.shardblk, a.shard_proof, what);
    const proven = checkAccountProof(a.proof, a.shardblk, account, `${what}: proof`);
    let accountProof: Cell | null = null;
    if (a.mode & 2) {
      const sp = a.state_proof ?? Buffer.alloc(0);
      if (proven.shardAccount) {
        if (sp.length === 0) fail(`${what}: state_proof is empty but the account exists`);
        const [root] = deserializeBoc(sp, `${what}: state_proof`, 1);
        if (root.type !== CellType.MerkleProof) fail(`${what}: state_proof is not a Merkle proof`);
        const virt = root.refs[0];
        if (!virt.hash(0).equals(proven.shardAccount.accountHash)) {
          fail(`${what}: state_proof is for account hash ${hex(virt.hash(0))}, the proven ShardAccount has ${hex(proven.shardAccount.accountHash)}`);
        }
        accountProof = virt;
      } else if (sp.length !== 0) {
        fail(`${what}: state_proof must be empty: the account is proven absent`);
      }
    }
    if (!proven.shardAccount && a.exit_code !== -256) fail(`${what}: the account is proven absent but exit_code is ${a.exit_code}, not -256`);
    return {
      mcBlock: a.id,
      shardBlock: a.shardblk,
      shardAccount: proven.shardAccount,
      accountProof,
      exitCode: a.exit_code,
      resultUnverified: a.mode & 4 ? (a.result ?? null) : null,
      initC7Unverified: a.mode & 8 ? (a.init_c7 ?? null) : null,
    };
  });
}
