// liteServer.* methods answered from the chain. Block ids, states and proofs are
// the real ones: root hashes of the built blocks, sha256 of their BoCs, Merkle
// proofs cut from the real block and state cells.
import { Address, beginCell, Cell, loadShardAccount } from "@ton/core";
import { SHARD_FULL } from "@tongate/block";
import type { TlObject } from "@tongate/tl";
import { serializeBoc } from "@tongate/ton";
import { AccountHistory, type TxRecord } from "../chain/account-history.js";
import type { BlockRecord, Chain } from "../chain/chain.js";
import type { LiteHandler } from "./dispatch.js";
import { LiteErrorCode, LiteServerError, notInDb, protoViolation } from "./errors.js";

/** Merkle proofs the handlers attach (cut from real block and state cells). */
export interface ProofMaker {
  /** MerkleProof of a block keeping its header (BlockInfo, state_update hashes). */
  blockHeader(block: Cell): Cell;
  /** MerkleProof of a ShardStateUnsplit keeping the path to one account. */
  shardAccount(state: Cell, accountId: Buffer): Cell;
}

export const LITESERVER_VERSION = 0x101;
export const LITESERVER_CAPABILITIES = 7n;

type TlBlockId = { workchain: number; shard: bigint; seqno: number; root_hash: Buffer; file_hash: Buffer };
type TlAccountId = { workchain: number; id: Buffer };

/** TL `long` carries shard ids as signed 64-bit values (the full shard is -2^63). */
export const signedShard = (shard: bigint) => BigInt.asIntN(64, shard);
const unsignedShard = (shard: bigint) => BigInt.asUintN(64, shard);

const tlId = (r: BlockRecord): TlObject => ({
  kind: "tonNode.blockIdExt",
  workchain: r.id.workchain,
  shard: signedShard(r.id.shard),
  seqno: r.id.seqno,
  root_hash: r.id.rootHash,
  file_hash: r.id.fileHash,
});

const boc = (c: Cell) => c.toBoc({ idx: false, crc32: true });

/** Account id of a Transaction cell (account_addr right after the 4-bit tag). */
const txAccount = (tx: Cell) => tx.beginParse().skip(4).loadBuffer(32);

export function createHandlers(chain: Chain, proofs: ProofMaker, clock: () => number = () => Math.floor(Date.now() / 1000)): Record<string, LiteHandler> {
  const last = () => {
    const b = chain.lastMasterchain;
    if (!b) throw new LiteServerError(LiteErrorCode.notready, "masterchain has no blocks yet");
    return b;
  };
  const zero = (): TlObject => ({ kind: "tonNode.zeroStateIdExt", workchain: -1, root_hash: chain.mcZero.rootHash, file_hash: chain.mcZero.fileHash });
  const blockName = (id: { workchain: number; shard: bigint; seqno: number }) => `block (${id.workchain},${unsignedShard(id.shard).toString(16)},${id.seqno})`;
  const findBlock = (id: TlBlockId): BlockRecord => {
    const rec = chain.blockByRootHash(id.root_hash);
    if (!rec || rec.id.seqno !== id.seqno || rec.id.workchain !== id.workchain || rec.id.shard !== unsignedShard(id.shard) || !rec.id.fileHash.equals(id.file_hash)) {
      throw notInDb(blockName(id));
    }
    return rec;
  };
  const mcBlock = (id: TlBlockId): BlockRecord => {
    const rec = findBlock(id);
    if (rec.id.workchain !== -1) throw protoViolation("the reference block must belong to the masterchain");
    return rec;
  };
  /** The shard block holding a workchain's accounts as of masterchain block `mc`. */
  const shardBlockFor = (mc: BlockRecord, workchain: number): BlockRecord => {
    if (workchain === -1) return mc;
    for (let i = chain.shardchain.length - 1; i >= 0; i--) if (chain.shardchain[i]!.mcSeqno <= mc.id.seqno) return chain.shardchain[i]!;
    throw notInDb(`shard block of workchain ${workchain} for masterchain block ${mc.id.seqno}`);
  };
  const checkWorkchain = (wc: number) => {
    if (wc !== 0 && wc !== -1) throw protoViolation(`workchain ${wc} does not exist`);
  };
  const blockOfTx = (t: TxRecord) => (t.block.workchain === -1 ? chain.masterchain : chain.shardchain).find((b) => b.id.seqno === t.block.seqno)!;

  return {
    "liteServer.getTime": () => ({ kind: "liteServer.currentTime", now: clock() }),

    "liteServer.getVersion": () => ({ kind: "liteServer.version", mode: 0, version: LITESERVER_VERSION, capabilities: LITESERVER_CAPABILITIES, now: clock() }),

    "liteServer.getMasterchainInfo": () => {
      const b = last();
      return { kind: "liteServer.masterchainInfo", last: tlId(b), state_root_hash: b.stateRoot.hash(), init: zero() };
    },

    "liteServer.getMasterchainInfoExt": (q) => {
      const b = last();
      return {
        kind: "liteServer.masterchainInfoExt",
        mode: q.mode as number,
        version: LITESERVER_VERSION,
        capabilities: LITESERVER_CAPABILITIES,
        last: tlId(b),
        last_utime: b.genUtime,
        now: clock(),
        state_root_hash: b.stateRoot.hash(),
        init: zero(),
      };
    },

    "liteServer.getBlock": (q) => {
      const rec = findBlock(q.id as TlBlockId);
      return { kind: "liteServer.blockData", id: tlId(rec), data: rec.boc };
    },

    "liteServer.getBlockHeader": (q) => {
      const rec = findBlock(q.id as TlBlockId);
      return { kind: "liteServer.blockHeader", id: tlId(rec), mode: q.mode as number, header_proof: boc(proofs.blockHeader(rec.root)) };
    },

    "liteServer.lookupBlock": (q) => {
      const mode = q.mode as number;
      const id = q.id as { workchain: number; shard: bigint; seqno: number };
      checkWorkchain(id.workchain);
      const list = id.workchain === -1 ? chain.masterchain : chain.shardchain;
      let rec: BlockRecord | undefined;
      if (mode & 1) rec = list.find((b) => b.id.seqno === id.seqno);
      else if (mode & 2) rec = list.find((b) => (q.lt as bigint) <= b.endLt);
      else if (mode & 4) rec = list.find((b) => b.genUtime >= (q.utime as number));
      else throw protoViolation("lookupBlock needs mode 1 (seqno), 2 (lt) or 4 (utime)");
      if (!rec || (unsignedShard(id.shard) !== SHARD_FULL && id.workchain === -1)) throw notInDb(mode & 1 ? blockName(id) : `block with ${mode & 2 ? `lt ${q.lt}` : `utime ${q.utime}`}`);
      return { kind: "liteServer.blockHeader", id: tlId(rec), mode, header_proof: boc(proofs.blockHeader(rec.root)) };
    },

    "liteServer.getAllShardsInfo": (q) => {
      const mc = mcBlock(q.id as TlBlockId);
      // The answer's data is McBlockExtra's shard_hashes (HashmapE 32 ^(BinTree ShardDescr)) in a cell of its own.
      const extra = mc.root.refs[3]!.refs[3]!.beginParse();
      extra.skip(16 + 1);
      const data = beginCell().storeMaybeRef(extra.loadMaybeRef()).endCell();
      return { kind: "liteServer.allShardsInfo", id: tlId(mc), proof: boc(proofs.blockHeader(mc.root)), data: boc(data) };
    },

    "liteServer.sendMessage": async (q) => {
      await chain.sendExternal(q.body as Buffer);
      return { kind: "liteServer.sendMsgStatus", status: 1 };
    },

    "liteServer.getAccountState": (q) => {
      const mc = mcBlock(q.id as TlBlockId);
      const acc = q.account as TlAccountId;
      checkWorkchain(acc.workchain);
      const shb = shardBlockFor(mc, acc.workchain);
      const cell = chain.history.at(AccountHistory.key(acc.workchain, acc.id), shb.id.seqno);
      const exists = cell !== undefined && loadShardAccount(cell.beginParse()).account !== null;
      return {
        kind: "liteServer.accountState",
        id: tlId(mc),
        shardblk: tlId(shb),
        shard_proof: acc.workchain === -1 ? Buffer.alloc(0) : serializeBoc([proofs.blockHeader(mc.root)], { crc32: true }),
        proof: serializeBoc([proofs.blockHeader(shb.root), proofs.shardAccount(shb.stateRoot, acc.id)], { crc32: true }),
        state: exists ? boc(cell!.refs[0]!) : Buffer.alloc(0),
      };
    },

    "liteServer.runSmcMethod": async (q) => {
      const mode = q.mode as number;
      const mc = mcBlock(q.id as TlBlockId);
      const acc = q.account as TlAccountId;
      checkWorkchain(acc.workchain);
      const shb = shardBlockFor(mc, acc.workchain);
      const cell = chain.history.at(AccountHistory.key(acc.workchain, acc.id), shb.id.seqno);
      if (!cell || loadShardAccount(cell.beginParse()).account === null) throw new LiteServerError(LiteErrorCode.error, "cannot run get-method: account does not exist");
      const params = q.params as Buffer;
      let stack: Cell | null = null;
      try {
        stack = params.length ? Cell.fromBoc(params)[0]! : null;
      } catch {
        throw protoViolation("cannot parse the method's parameters: not a BoC of a VmStack");
      }
      const methodId = Number(BigInt.asIntN(32, q.method_id as bigint));
      let res;
      try {
        res = await chain.executor.runGetMethod(new Address(acc.workchain, acc.id), cell, methodId, stack, { now: shb.genUtime, randomSeed: Buffer.alloc(32) });
      } catch (e) {
        throw new LiteServerError(LiteErrorCode.error, `cannot run get-method: ${(e as Error).message}`);
      }
      const withProofs = (mode & 1) !== 0;
      return {
        kind: "liteServer.runMethodResult",
        mode,
        id: tlId(mc),
        shardblk: tlId(shb),
        ...(withProofs
          ? {
              shard_proof: acc.workchain === -1 ? Buffer.alloc(0) : serializeBoc([proofs.blockHeader(mc.root)], { crc32: true }),
              proof: serializeBoc([proofs.blockHeader(shb.root), proofs.shardAccount(shb.stateRoot, acc.id)], { crc32: true }),
            }
          : {}),
        ...(mode & 2 ? { state_proof: boc(proofs.shardAccount(shb.stateRoot, acc.id)) } : {}),
        ...(mode & 8 ? { init_c7: Buffer.alloc(0) } : {}),
        ...(mode & 16 ? { lib_extras: Buffer.alloc(0) } : {}),
        exit_code: res.exitCode,
        ...(mode & 4 ? { result: res.stack ? boc(res.stack) : Buffer.alloc(0) } : {}),
      };
    },

    "liteServer.getTransactions": (q) => {
      const acc = q.account as TlAccountId;
      const key = AccountHistory.key(acc.workchain, acc.id);
      const first = chain.history.transaction(key, q.lt as bigint);
      if (!first || !first.hash.equals(q.hash as Buffer)) throw notInDb(`transaction ${q.lt} of account ${acc.workchain}:${acc.id.toString("hex")}`);
      const txs = chain.history.transactionsFrom(key, q.lt as bigint, Math.min(Math.max(q.count as number, 1), 16));
      return { kind: "liteServer.transactionList", ids: txs.map((t) => tlId(blockOfTx(t))), transactions: serializeBoc(txs.map((t) => t.cell), { crc32: true }) };
    },

    "liteServer.getOneTransaction": (q) => {
      const acc = q.account as TlAccountId;
      const rec = findBlock(q.id as TlBlockId);
      const tx = chain.history.transaction(AccountHistory.key(acc.workchain, acc.id), q.lt as bigint);
      if (!tx || tx.block.seqno !== rec.id.seqno || tx.block.workchain !== rec.id.workchain) throw notInDb(`transaction ${q.lt} of account ${acc.workchain}:${acc.id.toString("hex")} in ${blockName(rec.id)}`);
      return { kind: "liteServer.transactionInfo", id: tlId(rec), proof: boc(proofs.blockHeader(rec.root)), transaction: boc(tx.cell) };
    },

    "liteServer.listBlockTransactions": (q) => {
      const rec = findBlock(q.id as TlBlockId);
      const mode = q.mode as number;
      const after = q.after as { account: Buffer; lt: bigint } | undefined;
      const sorted = rec.transactions
        .map((t) => ({ t, account: txAccount(t.cell) }))
        .sort((a, b) => Buffer.compare(a.account, b.account) || (a.t.lt < b.t.lt ? -1 : a.t.lt > b.t.lt ? 1 : 0));
      const reverse = (mode & 64) !== 0;
      if (reverse) sorted.reverse();
      const from = after
        ? sorted.findIndex((x) => {
            const c = Buffer.compare(x.account, after.account) || (x.t.lt < after.lt ? -1 : x.t.lt > after.lt ? 1 : 0);
            return reverse ? c < 0 : c > 0;
          })
        : 0;
      const rest = from < 0 ? [] : sorted.slice(from);
      const count = Math.min(Math.max(q.count as number, 0), 256);
      const ids = rest.slice(0, count).map(({ t, account }) => ({
        kind: "liteServer.transactionId",
        mode: mode & 7,
        ...(mode & 1 ? { account } : {}),
        ...(mode & 2 ? { lt: t.lt } : {}),
        ...(mode & 4 ? { hash: t.hash } : {}),
      }));
      return { kind: "liteServer.blockTransactions", id: tlId(rec), req_count: q.count as number, incomplete: rest.length > count, ids, proof: Buffer.alloc(0) };
    },
  };
}
