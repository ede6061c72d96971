// Checks shared by several answers: the answer's block id against the trusted one, shard proofs (mc block →
// mc state → ShardHashes → shard block) and account proofs (shard block → shard state → ShardAccount).
import type { Cell } from "@ton/core";
import type { ShardStateUnsplitHeader } from "@tongate/block";
import { shardIdOf } from "@tongate/block";
import { blockIdToString, isMasterchainId, isValidShard, sameBlockId, shardContainsAccount, shardU64 } from "./blockid.js";
import { deserializeBoc, hex } from "./cells.js";
import { fail } from "./errors.js";
import { type ProvenBlock, checkBlockProofCell } from "./header.js";
import { type ProvenShardAccount, type ShardLookup, loadMcStateExtra, lookupShard, lookupShardAccount, openStateProof } from "./state.js";
import type { TonNodeBlockIdExt } from "./tl.js";

/** An account address as lite_api carries it (liteServer.accountId). */
export interface AccountAddress {
  workchain: number;
  /** 32 bytes. */
  id: Buffer;
}

export function checkAccountAddress(a: AccountAddress, what: string): void {
  if (!Number.isInteger(a.workchain) || !Buffer.isBuffer(a.id) || a.id.length !== 32) fail(`${what}: account must be { workchain, id: 32 bytes }`);
}

export function accountToString(a: AccountAddress): string {
  return `${a.workchain}:${hex(a.id)}`;
}

/** The answer must be about the block the caller trusts (and asked about). */
export function expectTrustedId(got: TonNodeBlockIdExt, trusted: TonNodeBlockIdExt, what: string): void {
  if (!sameBlockId(got, trusted)) fail(`${what}: answer is for block ${blockIdToString(got)}, not for the trusted ${blockIdToString(trusted)}`);
}

export function expectMasterchain(id: TonNodeBlockIdExt, what: string): void {
  if (!isMasterchainId(id)) fail(`${what}: ${blockIdToString(id)} is not a masterchain block`);
}

/** The masterchain state of `mcId` proven by a 2-root BoC [block proof with state_update, state proof]. */
export function checkMcStateProof(
  boc: Buffer,
  mcId: TonNodeBlockIdExt,
  what: string,
): { block: ProvenBlock; stateRoot: Cell; state: ShardStateUnsplitHeader } {
  const [blockProof, stateProof] = deserializeBoc(boc, what, 2);
  const block = checkBlockProofCell(blockProof, mcId, `${what}, root 0 (masterchain block)`, { stateHash: true });
  const { root, state } = openStateProof(stateProof, block.stateHash!, `${what}, root 1 (masterchain state)`);
  checkStateMatchesBlock(state, mcId, `${what}, root 1`);
  return { block, stateRoot: root, state };
}

export function checkStateMatchesBlock(state: ShardStateUnsplitHeader, id: TonNodeBlockIdExt, what: string): void {
  if (state.shardId.workchainId !== id.workchain || shardIdOf(state.shardId) !== shardU64(id) || state.seqNo !== id.seqno) {
    fail(`${what}: state is of (${state.shardId.workchainId},${shardIdOf(state.shardId).toString(16)},${state.seqNo}), not of ${blockIdToString(id)}`);
  }
}

/**
 * shard_proof of getAccountState / runSmcMethod (block::check_shard_proof): for a shard account, the
 * masterchain state of `mcId` lists `shardblk` as the top block of its shard; for a masterchain account
 * (shardblk = mcId) the proof must be empty.
 */
export function checkShardProof(mcId: TonNodeBlockIdExt, shardblk: TonNodeBlockIdExt, shardProof: Buffer, what: string): void {
  if (sameBlockId(mcId, shardblk)) {
    if (shardProof.length !== 0) fail(`${what}: shard_proof must be empty when shardblk is the reference block itself`);
    return;
  }
  expectMasterchain(mcId, `${what}: reference block`);
  const { state } = checkMcStateProof(shardProof, mcId, `${what}: shard_proof`);
  const extra = loadMcStateExtra(state, `${what}: shard_proof`);
  const found = lookupShard(extra.shardHashes, shardblk.workchain, shardU64(shardblk), true, `${what}: shard_proof`);
  expectShardBlock(found, shardblk, `${what}: shard_proof`);
}

export function shardBlockIdOf(found: Extract<ShardLookup, { type: "found" }>): TonNodeBlockIdExt {
  return {
    workchain: found.workchain,
    shard: BigInt.asIntN(64, found.shard),
    seqno: found.descr.seqNo,
    root_hash: found.descr.rootHash,
    file_hash: found.descr.fileHash,
  };
}

function expectShardBlock(found: ShardLookup, shardblk: TonNodeBlockIdExt, what: string): void {
  if (found.type === "absent") fail(`${what}: masterchain state has no shard ${blockIdToString(shardblk).split(":")[0]}: ${found.reason}`);
  const top = shardBlockIdOf(found);
  if (!sameBlockId(top, shardblk)) fail(`${what}: masterchain state lists top block ${blockIdToString(top)} for the shard, not ${blockIdToString(shardblk)}`);
}

/** Proof that account's shard is unknown to the masterchain state (the liteserver's answer with an invalid shardblk). */
export function checkNoShardProof(mcId: TonNodeBlockIdExt, account: AccountAddress, shardProof: Buffer, what: string): void {
  expectMasterchain(mcId, `${what}: reference block`);
  // The masterchain is never in ShardHashes: its accounts are always answered from the masterchain block.
  if (account.workchain === -1) fail(`${what}: shardblk is empty for a masterchain account`);
  const { state } = checkMcStateProof(shardProof, mcId, `${what}: shard_proof`);
  const extra = loadMcStateExtra(state, `${what}: shard_proof`);
  const leafShard = (account.id.readBigUInt64BE(0) & ~0xfn) | 0x8n;
  const found = lookupShard(extra.shardHashes, account.workchain, leafShard, false, `${what}: shard_proof`);
  if (found.type === "found") {
    fail(`${what}: shardblk is empty but the masterchain state has shard block ${blockIdToString(shardBlockIdOf(found))} for account ${accountToString(account)}`);
  }
}

export interface ProvenAccount {
  block: ProvenBlock;
  state: ShardStateUnsplitHeader;
  shardAccount: ProvenShardAccount | null;
}

/**
 * `proof` of getAccountState / runSmcMethod (block::check_account_proof): 2 roots, [shard block header with
 * state_update, shard state with the path to the account in ShardAccounts].
 */
export function checkAccountProof(proof: Buffer, shardblk: TonNodeBlockIdExt, account: AccountAddress, what: string): ProvenAccount {
  const [blockProof, stateProof] = deserializeBoc(proof, what, 2);
  const block = checkBlockProofCell(blockProof, shardblk, `${what}, root 0 (shard block)`, { stateHash: true });
  const { state } = openStateProof(stateProof, block.stateHash!, `${what}, root 1 (shard state)`);
  checkStateMatchesBlock(state, shardblk, `${what}, root 1`);
  const shardAccount = lookupShardAccount(state.accounts, account.id, `${what}, root 1`);
  return { block, state, shardAccount };
}

/** shardblk of an account answer: a block of the account's workchain whose shard contains the account. */
export function checkShardBlockForAccount(shardblk: TonNodeBlockIdExt, account: AccountAddress, what: string): void {
  if (!isValidShard(shardblk.shard)) fail(`${what}: shard block ${blockIdToString(shardblk)} has an invalid shard id`);
  if (shardblk.workchain !== account.workchain || !shardContainsAccount(shardU64(shardblk), account.id)) {
    fail(`${what}: shard block ${blockIdToString(shardblk)} cannot contain account ${accountToString(account)}`);
  }
}
