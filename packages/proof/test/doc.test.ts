// Real mainnet answers from the TON docs page (masterchain block 31220993): every byte of the proofs is from
// mainnet; only the TL wrapping (and, for listBlockTransactions, req_count/incomplete) is ours.
import { Address, Cell, beginCell, loadAccount } from "@ton/core";
import { configGlobalVersion } from "@tongate/block";
import { describe, expect, it } from "vitest";
import {
  type LiteServerAccountState,
  type LiteServerBlockHeader,
  type LiteServerBlockTransactions,
  type LiteServerConfigInfo,
  type LiteServerRunMethodResult,
  type LiteServerShardInfo,
  ProofError,
  blockIdToString,
  verifyAccountState,
  verifyBlockHeader,
  verifyBlockTransactions,
  verifyConfig,
  verifyRunMethodResult,
  verifyShardInfo,
} from "../src/index.js";
import {
  ACCOUNT_FRIENDLY,
  ACCOUNT_PROOF,
  ACCOUNT_STATE,
  BLOCK_TX_IDS,
  HEADER_PROOF,
  MC_BLOCK,
  SHARD_BLOCK,
  SHARD_DESCR,
  SHARD_PROOF,
  blockTransactionsProofDump,
  configProofDump,
} from "./doc-vectors.js";
import { flipInBoc, key, merkleProof, multiRootBoc, prunedCells, prunedHash, tamperPrunedHash, viaTl } from "./helpers.js";
import { cellsFromTreeDump } from "./tree-dump.js";

const addr = Address.parse(ACCOUNT_FRIENDLY);
const ACCOUNT = { workchain: addr.workChain, id: addr.hash };
const otherId = (id: typeof MC_BLOCK, patch: Partial<typeof MC_BLOCK>) => ({ ...id, ...patch });
const flipped = (b: Buffer) => {
  const c = Buffer.from(b);
  c[7] ^= 1;
  return c;
};
const roots = (boc: Buffer) => Cell.fromBoc(boc);
/** Account = account_none$0 | account$1 …; @ton/core's loadAccount reads what follows the tag bit. */
const parseAccount = (c: Cell) => {
  const s = c.beginParse();
  expect(s.loadBit()).toBe(true);
  return loadAccount(s);
};

describe("docs mc 31220993: liteServer.blockHeader", () => {
  const answer = (patch: Partial<LiteServerBlockHeader> = {}) =>
    viaTl<LiteServerBlockHeader>({ kind: "liteServer.blockHeader", id: MC_BLOCK, mode: 0, header_proof: HEADER_PROOF, ...patch });

  it("header_proof's virtual hash is the block's root hash; BlockInfo is returned", () => {
    const r = verifyBlockHeader(answer(), MC_BLOCK);
    expect(r.globalId).toBe(-239);
    expect(r.info.seqNo).toBe(31220993);
    expect(r.info.genUtime).toBe(1689699158);
    expect(r.info.startLt).toBe(39391488000000n);
    expect(r.info.endLt).toBe(39391488000004n);
    expect(r.info.minRefMcSeqno).toBe(31220989);
    expect(r.info.prevKeyBlockSeqno).toBe(31212222);
    expect(r.info.wantMerge).toBe(true);
    expect(r.info.prevRef.type === "prev_blk_info" && r.info.prevRef.prev.seqNo).toBe(31220992);
    expect(r.stateHash).toBeNull(); // mode 0: state_update pruned
  });

  it("rejects: wrong trusted id, another block's proof, a flipped pruned hash, mode.0 without state_update", () => {
    expect(() => verifyBlockHeader(answer(), otherId(MC_BLOCK, { seqno: 31220994 }))).toThrow(/answer is for block .* not for the trusted/);
    const shardHeader = roots(ACCOUNT_PROOF)[0].toBoc();
    expect(() => verifyBlockHeader(answer({ header_proof: shardHeader }), MC_BLOCK)).toThrow(/Merkle proof is for hash 39e5cbca.*expected 51ed3b9e/);
    const forged = tamperPrunedHash(roots(HEADER_PROOF)[0]).toBoc();
    expect(() => verifyBlockHeader(answer({ header_proof: forged }), MC_BLOCK)).toThrow(/Merkle proof is for hash .* expected 51ed3b9e/);
    const pruned = prunedCells(roots(HEADER_PROOF)[0])[0];
    expect(() => verifyBlockHeader(answer({ header_proof: flipInBoc(HEADER_PROOF, prunedHash(pruned)) }), MC_BLOCK)).toThrow(/cannot deserialize BoC/);
    expect(() => verifyBlockHeader(answer({ mode: 1 }), MC_BLOCK)).toThrow(/state_update is pruned/);
    expect(() => verifyBlockHeader(answer({ header_proof: Buffer.alloc(0) }), MC_BLOCK)).toThrow(ProofError);
  });
});

describe("docs mc 31220993: liteServer.shardInfo (wc 0)", () => {
  const answer = (patch: Partial<LiteServerShardInfo> = {}) =>
    viaTl<LiteServerShardInfo>({ kind: "liteServer.shardInfo", id: MC_BLOCK, shardblk: SHARD_BLOCK, shard_proof: SHARD_PROOF, shard_descr: SHARD_DESCR, ...patch });
  const request = { workchain: 0, shard: 0x8000000000000000n, exact: true };

  it("mc block → state_update → mc state → ShardHashes leaf = shard_descr, naming shardblk", () => {
    for (const req of [undefined, request, { ...request, shard: 0x6000000000000000n, exact: false }]) {
      const r = verifyShardInfo(answer(), MC_BLOCK, req);
      expect(blockIdToString(r.shardBlock!)).toBe(blockIdToString(SHARD_BLOCK));
      expect(r.descr!.seqNo).toBe(36908135);
      expect(r.descr!.regMcSeqno).toBe(31220993);
      expect(r.descr!.endLt).toBe(39391487000005n);
      expect(r.descr!.nextCatchainSeqno).toBe(459607);
      expect(r.descr!.feesCollected.coins).toBe(1016817575n);
    }
  });

  it("rejects: tampered shard_descr, wrong shardblk, swapped roots, forged state proof, wrong trusted id, split request", () => {
    expect(() => verifyShardInfo(answer({ shard_descr: flipped(SHARD_DESCR) }), MC_BLOCK)).toThrow(ProofError);
    expect(() => verifyShardInfo(answer({ shardblk: otherId(SHARD_BLOCK, { file_hash: Buffer.alloc(32) }) }), MC_BLOCK)).toThrow(/lists .*36908135.* not shardblk/);
    const [r0, r1] = roots(SHARD_PROOF);
    expect(() => verifyShardInfo(answer({ shard_proof: multiRootBoc([r1, r0]) }), MC_BLOCK)).toThrow(/root 0 .*Merkle proof is for hash 32bf3592/);
    expect(() => verifyShardInfo(answer({ shard_proof: multiRootBoc([r0, tamperPrunedHash(r1, 2)]) }), MC_BLOCK)).toThrow(
      /root 1 \(masterchain state\).*expected 32bf3592/,
    );
    expect(() => verifyShardInfo(answer({ shard_proof: r0.toBoc() }), MC_BLOCK)).toThrow(/exactly 2 root cells/);
    expect(() => verifyShardInfo(answer(), otherId(MC_BLOCK, { root_hash: Buffer.alloc(32, 1) }))).toThrow(/not for the trusted/);
    expect(() => verifyShardInfo(answer(), MC_BLOCK, { workchain: 0, shard: 0x4000000000000000n, exact: true })).toThrow(/no such shard/);
  });
});

describe("docs mc 31220993: liteServer.accountState", () => {
  const answer = (patch: Partial<LiteServerAccountState> = {}) =>
    viaTl<LiteServerAccountState>({
      kind: "liteServer.accountState",
      id: MC_BLOCK,
      shardblk: SHARD_BLOCK,
      shard_proof: SHARD_PROOF,
      proof: ACCOUNT_PROOF,
      state: ACCOUNT_STATE,
      ...patch,
    });

  it("shard_proof → shardblk, proof → ShardAccount, state hashes to ShardAccount.account", () => {
    const r = verifyAccountState(answer(), MC_BLOCK, ACCOUNT);
    expect(blockIdToString(r.shardBlock!)).toBe(blockIdToString(SHARD_BLOCK));
    expect(r.shardAccount!.accountHash.toString("hex")).toBe("8282d13bf66b9ace1fbf5d3abd1c59cc46d61af1d47af1665d3013d8f9e47488");
    expect(r.shardAccount!.lastTransHash.toString("hex")).toBe("649b46ac72e6e4d4c1293b66d58d9ed7a54902beefd97f5bff7977dd85998b3d");
    expect(r.shardAccount!.lastTransLt).toBe(39330697000001n);
    expect(r.genUtime).toBe(1689699153);
    expect(r.genLt).toBe(39391487000005n);
    const acc = parseAccount(r.account!);
    expect(acc.addr.equals(addr)).toBe(true);
    expect(acc.storage.balance.coins).toBe(5873792469n);
    expect(acc.storage.lastTransLt).toBe(39330697000003n);
    expect(acc.storage.state.type).toBe("active");
  });

  it("accepts the getAccountStatePrunned form: a Merkle proof of the Account with code and data pruned", () => {
    const full = Cell.fromBoc(ACCOUNT_STATE)[0];
    const pruned = merkleProof(full, new Set([key(full)])).toBoc();
    const r = verifyAccountState(answer({ state: pruned }), MC_BLOCK, ACCOUNT);
    expect(r.account!.hash(0)).toEqual(full.hash());
    expect(parseAccount(r.account!).storage.balance.coins).toBe(5873792469n);
  });

  it("rejects: tampered or missing state, swapped roots, forged state proof, another account, wrong shardblk or trusted id", () => {
    const state = Cell.fromBoc(ACCOUNT_STATE)[0];
    const tampered = beginCell().storeBits(state.bits).storeRef(state.refs[0]).storeRef(beginCell().storeUint(1, 8).endCell()).endCell().toBoc();
    expect(() => verifyAccountState(answer({ state: tampered }), MC_BLOCK, ACCOUNT)).toThrow(/account state hash mismatch: Merkle proof expects 8282d13b/);
    expect(() => verifyAccountState(answer({ state: Buffer.alloc(0) }), MC_BLOCK, ACCOUNT)).toThrow(/must be non-empty, but it actually is empty/);
    const [p0, p1] = roots(ACCOUNT_PROOF);
    expect(() => verifyAccountState(answer({ proof: multiRootBoc([p1, p0]) }), MC_BLOCK, ACCOUNT)).toThrow(/proof, root 0 \(shard block\).*expected 39e5cbca/);
    expect(() => verifyAccountState(answer({ proof: multiRootBoc([p0, tamperPrunedHash(p1, 4)]) }), MC_BLOCK, ACCOUNT)).toThrow(
      /root 1 \(shard state\): Merkle proof is for hash .* expected f93fe5ed/,
    );
    const [s0, s1] = roots(SHARD_PROOF);
    expect(() => verifyAccountState(answer({ shard_proof: multiRootBoc([s1, s0]) }), MC_BLOCK, ACCOUNT)).toThrow(/shard_proof, root 0/);
    // a neighbour whose key leaves the proven path inside the account's leaf label: proven absent
    const neighbour = { ...ACCOUNT, id: Buffer.from(ACCOUNT.id) };
    neighbour.id[31] ^= 1;
    expect(() => verifyAccountState(answer(), MC_BLOCK, neighbour)).toThrow(/must be empty, but it is not/);
    expect(verifyAccountState(answer({ state: Buffer.alloc(0) }), MC_BLOCK, neighbour).shardAccount).toBeNull();
    // an account in a pruned part of ShardAccounts: nothing can be said
    const far = { ...ACCOUNT, id: Buffer.from(ACCOUNT.id) };
    far.id[0] ^= 0x80;
    expect(() => verifyAccountState(answer({ state: Buffer.alloc(0) }), MC_BLOCK, far)).toThrow(/ShardAccounts path to account ef5bc679.* is pruned/);
    expect(() => verifyAccountState(answer(), MC_BLOCK, { workchain: -1, id: ACCOUNT.id })).toThrow(/cannot contain account/);
    expect(() => verifyAccountState(answer({ shardblk: otherId(SHARD_BLOCK, { seqno: 36908136 }) }), MC_BLOCK, ACCOUNT)).toThrow(ProofError);
    expect(() => verifyAccountState(answer(), otherId(MC_BLOCK, { file_hash: Buffer.alloc(32) }), ACCOUNT)).toThrow(/not for the trusted/);
    // the answer claims the account is in the masterchain block itself (no shard proof)
    expect(() => verifyAccountState(answer({ shardblk: MC_BLOCK, shard_proof: Buffer.alloc(0) }), MC_BLOCK, ACCOUNT)).toThrow(/cannot contain account/);
  });
});

describe("docs mc 31220993: liteServer.runMethodResult (real proofs; state_proof cut from the real Account)", () => {
  const accountCell = Cell.fromBoc(ACCOUNT_STATE)[0];
  const stateProof = merkleProof(accountCell, new Set([key(accountCell), key(accountCell.refs[0])])).toBoc();
  const answer = (patch: Partial<LiteServerRunMethodResult> = {}) =>
    viaTl<LiteServerRunMethodResult>({
      kind: "liteServer.runMethodResult",
      mode: 7,
      id: MC_BLOCK,
      shardblk: SHARD_BLOCK,
      shard_proof: SHARD_PROOF,
      proof: ACCOUNT_PROOF,
      state_proof: stateProof,
      exit_code: 0,
      result: Buffer.from("b5ee9c72410101010005000006000000a8e0a65e", "hex"),
      ...patch,
    });

  it("mode 0|1|2: account proven, state_proof is a Merkle proof of the proven Account; the result stays unverified", () => {
    const r = verifyRunMethodResult(answer(), MC_BLOCK, ACCOUNT);
    expect(r.shardAccount!.lastTransLt).toBe(39330697000001n);
    expect(r.accountProof!.hash(0)).toEqual(accountCell.hash());
    expect(r.exitCode).toBe(0);
    expect(r.resultUnverified).not.toBeNull();
  });

  it("rejects: no proof (mode 0), a state_proof of other data, a forged account proof", () => {
    expect(() => verifyRunMethodResult(answer({ mode: 4, shard_proof: undefined, proof: undefined, state_proof: undefined }), MC_BLOCK, ACCOUNT)).toThrow(
      /carries no proof/,
    );
    const other = merkleProof(beginCell().storeUint(5, 8).endCell(), new Set()).toBoc();
    expect(() => verifyRunMethodResult(answer({ state_proof: other }), MC_BLOCK, ACCOUNT)).toThrow(/state_proof is for account hash/);
    const [p0, p1] = roots(ACCOUNT_PROOF);
    expect(() => verifyRunMethodResult(answer({ proof: multiRootBoc([p0, tamperPrunedHash(p1)]) }), MC_BLOCK, ACCOUNT)).toThrow(/root 1 \(shard state\)/);
  });
});

describe("docs mc 31220993: liteServer.configInfo (config_proof rebuilt from the page's cell dump)", () => {
  const stateProof = roots(SHARD_PROOF)[0].toBoc(); // the page's state_proof is the same mc block proof
  const configProofCell = cellsFromTreeDump(configProofDump())[0];
  const answer = (patch: Partial<LiteServerConfigInfo> = {}) =>
    viaTl<LiteServerConfigInfo>({ kind: "liteServer.configInfo", mode: 0, id: MC_BLOCK, state_proof: stateProof, config_proof: configProofCell.toBoc(), ...patch });

  it("the dump rebuilds to the masterchain state's hash", () => {
    expect(configProofCell.refs[0].hash(0).toString("hex")).toBe("32bf3592969931ca4fbc7715494b50597f1884c0d847456029d8cf0e526e6046");
  });

  it("state_proof → state hash → config_proof → ConfigParams 1, 4, 5, 7, 8, 15", () => {
    const r = verifyConfig(answer(), MC_BLOCK, { params: [1, 4, 5, 7, 8, 15] });
    expect(r.fromKeyBlock).toBe(false);
    expect(r.absent).toEqual([]);
    expect(r.configAddr.toString("hex")).toBe("55".repeat(32));
    expect(r.params.get(1)!.beginParse().loadBuffer(32).toString("hex")).toBe("33".repeat(32));
    expect(r.params.get(4)!.beginParse().loadBuffer(32).toString("hex")).toBe("e56754f83426f69b09267bd876ac97c44821345b7e266bd956a7bfbfb98df35c");
    expect(configGlobalVersion(r.params)).toEqual({ version: 2, capabilities: 46n });
    const p15 = r.params.get(15)!.beginParse();
    expect([p15.loadUint(32), p15.loadUint(32), p15.loadUint(32), p15.loadUint(32)]).toEqual([65536, 32768, 8192, 32768]);
  });

  it("rejects: a config_proof without the params (the shard proof's state proof), a forged one, all params, a param not in the proof", () => {
    const shardStateProof = roots(SHARD_PROOF)[1].toBoc(); // proof of the same state, config pruned
    expect(() => verifyConfig(answer({ config_proof: shardStateProof }), MC_BLOCK, { params: [1] })).toThrow(/config param 1 is pruned/);
    expect(() => verifyConfig(answer({ config_proof: tamperPrunedHash(configProofCell, 3).toBoc() }), MC_BLOCK)).toThrow(/expected 32bf3592/);
    expect(() => verifyConfig(answer(), MC_BLOCK, { all: true })).toThrow(/parts of it are pruned/);
    expect(() => verifyConfig(answer(), MC_BLOCK, { params: [34] })).toThrow(/config param 34 is pruned/);
    expect(() => verifyConfig(answer({ state_proof: roots(ACCOUNT_PROOF)[0].toBoc() }), MC_BLOCK)).toThrow(/state_proof .*expected 51ed3b9e/);
    expect(() => verifyConfig(answer({ mode: 0x8000 }), MC_BLOCK)).toThrow(/state_proof must be empty/);
  });
});

describe("docs mc 31220993: liteServer.blockTransactions (proof rebuilt from the page's cell dump)", () => {
  const proofCell = cellsFromTreeDump(blockTransactionsProofDump())[0];
  const ids = BLOCK_TX_IDS.map((t) => ({ kind: "liteServer.transactionId", mode: 39, account: Buffer.from(t.account, "hex"), lt: t.lt, hash: Buffer.from(t.hash, "hex") }));
  const answer = (patch: Record<string, unknown> = {}) =>
    viaTl<LiteServerBlockTransactions>({ kind: "liteServer.blockTransactions", id: MC_BLOCK, req_count: 40, incomplete: false, ids, proof: proofCell.toBoc(), ...patch });

  it("the dump rebuilds to the block's root hash", () => {
    expect(proofCell.refs[0].hash(0)).toEqual(MC_BLOCK.root_hash);
  });

  it("all three transactions are proven, in order, and the proof shows the list is complete", () => {
    const r = verifyBlockTransactions(answer(), MC_BLOCK, {});
    expect(r.ids.map((t) => t.lt)).toEqual([39391488000001n, 39391488000002n, 39391488000003n]);
    expect(verifyBlockTransactions(answer({ req_count: 3, incomplete: true }), MC_BLOCK, {}).ids).toHaveLength(3);
    expect(verifyBlockTransactions(answer({ req_count: 2, incomplete: true, ids: ids.slice(0, 2) }), MC_BLOCK, {}).ids).toHaveLength(2);
    const after = { account: Buffer.alloc(32, 0x33), lt: 39391488000001n };
    expect(verifyBlockTransactions(answer({ ids: ids.slice(1) }), MC_BLOCK, { after }).ids).toHaveLength(2);
    const rev = [...ids].reverse().map((t) => ({ ...t, mode: 39 | 64 }));
    expect(verifyBlockTransactions(answer({ ids: rev }), MC_BLOCK).ids[0].lt).toBe(39391488000003n);
    expect(verifyBlockTransactions(answer({ ids: rev }), MC_BLOCK, { reverse: true }).ids).toHaveLength(3);
  });

  it("rejects: a skipped or forged transaction, a wrong incomplete flag, a missing start, no proof", () => {
    expect(() => verifyBlockTransactions(answer({ ids: [ids[0], ids[2]] }), MC_BLOCK, {})).toThrow(/next transaction is 3{64}:39391488000002/);
    const bad = { ...ids[1], hash: Buffer.alloc(32, 7) };
    expect(() => verifyBlockTransactions(answer({ ids: [ids[0], bad, ids[2]] }), MC_BLOCK, {})).toThrow(/hash mismatch: Merkle proof expects b1e091fc/);
    expect(() => verifyBlockTransactions(answer({ incomplete: true }), MC_BLOCK, {})).toThrow(/incomplete is true/);
    expect(() => verifyBlockTransactions(answer({ req_count: 3 }), MC_BLOCK, {})).toThrow(/incomplete must be true/);
    expect(() => verifyBlockTransactions(answer({ ids: ids.slice(0, 2) }), MC_BLOCK, {})).toThrow(/further transaction 5{64}:39391488000003/);
    expect(() => verifyBlockTransactions(answer({ ids: ids.slice(1) }), MC_BLOCK, {})).toThrow(/next transaction is 3{64}:39391488000001/);
    expect(() => verifyBlockTransactions(answer({ proof: Buffer.alloc(0) }), MC_BLOCK)).toThrow(/no proof/);
    expect(() => verifyBlockTransactions(answer({ proof: tamperPrunedHash(proofCell, 1).toBoc() }), MC_BLOCK)).toThrow(/expected 51ed3b9e/);
    expect(() => verifyBlockTransactions(answer({ ids: ids.map((t) => ({ ...t, mode: 32 | 3, hash: undefined })) }), MC_BLOCK)).toThrow(/lacks account, lt or hash/);
  });
});
