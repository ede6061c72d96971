// Account states: getAccountState, getAccountStatePrunned and runSmcMethod, relative to a masterchain
// block (the shard block comes from its ShardHashes, proven by shard_proof) or to a block of the
// account's own workchain (no shard proof), as TON's perform_getAccountState resolves them.
import { Address, beginCell, Cell, loadAccount } from "@ton/core";
import { LruMap } from "@tongate/runtime";
import { readBoc } from "@tongate/ton";
import { accountPrefix64, lookupShardAccount, makeMerkleProof, proveShardAccount, shardContainsAccount, shardHashesList, storeShardAccount, type ShardAccount } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import {
  type Ctx,
  type FoundShard,
  boc,
  fatal,
  isValidId,
  multiBoc,
  shardInfoProof,
  stateRootProof,
  tlId,
  tlInvalidId,
  type TlAccountId,
  type TlBlockId,
} from "./context.js";
import type { LiteHandler } from "./dispatch.js";
import { LiteErrorCode, LiteServerError, notInDb } from "./errors.js";

export interface ResolvedAccount {
  /** The reference block of the answer (`id`). */
  base: BlockRecord;
  /** The block whose state holds the account; null: no shard of the masterchain block holds it (unknown workchain). */
  shardblk: BlockRecord | null;
  shardProof: Buffer;
}

/**
 * Shard proofs by masterchain block, per (workchain, shard that holds the account): every account of a
 * shard shares one, and blocks never change.
 */
const shardProofs = new WeakMap<BlockRecord, Map<string, { shardProof: Buffer; top: FoundShard["top"] | null }>>();

function cachedShardProof(ctx: Ctx, mc: BlockRecord, workchain: number, account: Buffer): { shardProof: Buffer; top: FoundShard["top"] | null } {
  const prefix = accountPrefix64(account) | 1n;
  const holder = shardHashesList(mc.block.extra.custom!.shardHashes).find((s) => s.workchainId === workchain && shardContainsAccount(s.shard, account));
  const key = `${workchain}:${holder ? holder.shard.toString(16) : "-"}`;
  let byKey = shardProofs.get(mc);
  if (!byKey) shardProofs.set(mc, (byKey = new Map()));
  let entry = byKey.get(key);
  if (!entry) {
    const { proof, found } = shardInfoProof(mc, workchain, prefix, false);
    entry = { shardProof: multiBoc([stateRootProof(ctx, mc), proof]), top: found?.top ?? null };
    byKey.set(key, entry);
  }
  return entry;
}

/** perform_getAccountState / continue_getAccountState: which block's state answers for the account. */
export function resolveAccount(ctx: Ctx, id: TlBlockId, acc: TlAccountId): ResolvedAccount {
  if (id.workchain !== -1 && id.workchain !== acc.workchain) throw fatal("reference block for a getAccountState() must belong to the masterchain");
  if (!isValidId(id)) throw fatal("reference block id for a getAccountState() is invalid");
  if (id.workchain !== -1) {
    const rec = ctx.findBlock(id);
    return { base: rec, shardblk: rec, shardProof: Buffer.alloc(0) };
  }
  // seqno -1 (~0U): the newest masterchain block.
  const mc = id.seqno === -1 ? ctx.last() : ctx.mcBlock(id);
  if (acc.workchain === -1) return { base: mc, shardblk: mc, shardProof: Buffer.alloc(0) };
  const { shardProof, top: t } = cachedShardProof(ctx, mc, acc.workchain, acc.id);
  if (!t) return { base: mc, shardblk: null, shardProof };
  const shardblk = ctx.findBlock({ workchain: t.workchain, shard: t.shard, seqno: t.seqno, root_hash: t.rootHash, file_hash: t.fileHash });
  return { base: mc, shardblk, shardProof };
}

/** The ShardAccount of an account in a block's state (read from the state's ShardAccounts). */
export function accountIn(rec: BlockRecord, id: Buffer): ShardAccount | null {
  const dictRoot = rec.stateRoot.refs[1]!.beginParse().loadMaybeRef();
  return dictRoot ? lookupShardAccount(dictRoot, id).account : null;
}

/**
 * The MERKLE_PROOF of an Account that getAccountStatePrunned sends: the Account validated (addr, storage,
 * balance, the StateInit's fields), its code and data pruned.
 */
export function prunedAccount(account: Cell): Cell {
  const s = account.beginParse();
  const skip = new Set<string>();
  if (s.loadBit()) {
    const state = loadAccount(s).storage.state;
    if (state.type === "active") for (const c of [state.state.code, state.state.data]) if (c) skip.add(c.hash().toString("hex"));
  }
  return makeMerkleProof(account, (c) => !skip.has(c.hash().toString("hex")));
}

/** Serialized account proofs and states kept, by shard block, account and prunedness (blocks never change). */
const ACCOUNT_ANSWERS = 4096;

export function accountHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const answers = new LruMap<string, { proof: Buffer; state: Buffer }>(ACCOUNT_ANSWERS);
  const accountState = (q: TlObject, pruned: boolean): TlObject => {
    const acc = q.account as TlAccountId;
    const r = resolveAccount(ctx, q.id as TlBlockId, acc);
    if (!r.shardblk) {
      return { kind: "liteServer.accountState", id: tlId(r.base), shardblk: tlInvalidId(), shard_proof: r.shardProof, proof: Buffer.alloc(0), state: Buffer.alloc(0) };
    }
    const shardblk = r.shardblk;
    const key = `${shardblk.id.rootHash.toString("hex")}:${acc.workchain}:${acc.id.toString("hex")}:${pruned}`;
    let answer = answers.get(key);
    if (!answer) {
      const sa = accountIn(shardblk, acc.id);
      const stateProof = pruned ? proveShardAccount(shardblk.stateRoot, acc.id) : ctx.proofs.shardAccount(shardblk.stateRoot, acc.id);
      answer = {
        proof: multiBoc([stateRootProof(ctx, shardblk), stateProof]),
        state: sa ? boc(pruned ? prunedAccount(sa.account) : sa.account) : Buffer.alloc(0),
      };
      answers.set(key, answer);
    }
    return { kind: "liteServer.accountState", id: tlId(r.base), shardblk: tlId(shardblk), shard_proof: r.shardProof, ...answer };
  };

  return {
    "liteServer.getAccountState": (q) => accountState(q, false),

    "liteServer.getAccountStatePrunned": (q) => accountState(q, true),

    "liteServer.runSmcMethod": async (q) => {
      const mode = q.mode as number;
      if (mode & ~0x3f) throw fatal("unsupported mode in runSmcMethod");
      const params = q.params as Buffer;
      if (params.length >= 65536) throw fatal("more than 64k parameter bytes passed");
      let stack: Cell | null = null;
      try {
        // a cell's own depth bound (the 64 KiB bound above limits its cells)
        stack = params.length ? readBoc(params, {})[0]! : null;
      } catch (e) {
        throw fatal(`cannot deserialize parameter list boc: ${(e as Error).message}`);
      }
      const acc = q.account as TlAccountId;
      const r = resolveAccount(ctx, q.id as TlBlockId, acc);
      if (!r.shardblk) throw notInDb(`shard of workchain ${acc.workchain}`);
      const shb = r.shardblk;
      const sa = accountIn(shb, acc.id);
      if (!sa) throw new LiteServerError(LiteErrorCode.error, "cannot run get-method: account does not exist");
      const cell = beginCell().store(storeShardAccount(sa)).endCell();
      const methodId = Number(BigInt.asIntN(32, q.method_id as bigint));
      let res;
      try {
        res = await ctx.chain.executor.runGetMethod(new Address(acc.workchain, acc.id), cell, methodId, stack, { now: shb.genUtime, randomSeed: Buffer.alloc(32) });
      } catch (e) {
        throw new LiteServerError(LiteErrorCode.error, `cannot run get-method: ${(e as Error).message}`);
      }
      return {
        kind: "liteServer.runMethodResult",
        mode,
        id: tlId(r.base),
        shardblk: tlId(shb),
        ...(mode & 1 ? { shard_proof: r.shardProof, proof: multiBoc([stateRootProof(ctx, shb), ctx.proofs.shardAccount(shb.stateRoot, acc.id)]) } : {}),
        // The VM's reads are not tracked: the proof keeps the whole Account.
        ...(mode & 2 ? { state_proof: boc(makeMerkleProof(sa.account, () => true)) } : {}),
        ...(mode & 8 ? { init_c7: Buffer.alloc(0) } : {}),
        ...(mode & 16 ? { lib_extras: Buffer.alloc(0) } : {}),
        exit_code: res.exitCode,
        ...(mode & 4 ? { result: res.stack ? boc(res.stack) : Buffer.alloc(0) } : {}),
      };
    },
  };
}
