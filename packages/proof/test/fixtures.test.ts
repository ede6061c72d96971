// Real fixtures (/work/shared/fixtures, see its README.md): mainnet proofs and blocks. Where a fixture is
// only part of an answer, the test says which part is real and what was added.
import { Cell, beginCell, loadTransaction } from "@ton/core";
import {
  type Block,
  blockTransactions,
  configGlobalVersion,
  configValidatorSet,
  loadBlock,
  loadBlockProof,
  loadMerkleUpdate,
  loadShardStateUnsplitHeader,
  shardHashesList,
} from "@tongate/block";
import { describe, expect, it } from "vitest";
import {
  type LiteServerAccountState,
  type LiteServerAllShardsInfo,
  type LiteServerBlockData,
  type LiteServerBlockHeader,
  type LiteServerBlockLinkForward,
  type LiteServerBlockTransactionsExt,
  type LiteServerConfigInfo,
  type LiteServerPartialBlockProof,
  type LiteServerTransactionInfo,
  type LiteServerTransactionList,
  type TonNodeBlockIdExt,
  ProofError,
  blockIdToString,
  dictItems,
  masterchainValidatorSubset,
  shuffleMcValidators,
  tlBlockId,
  verifyAccountState,
  verifyAllShardsInfo,
  verifyBlockData,
  verifyBlockHeader,
  verifyBlockLinkForward,
  verifyBlockTransactionsExt,
  verifyConfig,
  verifyMcStateConfigProof,
  verifyPartialBlockProof,
  verifyTransactionInfo,
  verifyTransactionList,
} from "../src/index.js";
import { computeValidatorSetHashShort, configParam } from "@tongate/block";
import { keepPaths, same } from "./cut.js";
import { fixtureBytes, flipInBoc, merkleProof, multiRootBoc, pathsTo, prunedCells, prunedHash, tamperPrunedHash, viaTl } from "./helpers.js";

const P = "proofs/";

// ---------------------------------------------------------------------------------------------------------
describe("fixture mainnet_account_proof_wc0_31618192 (the `proof` of a getAccountState answer)", () => {
  const bytes = fixtureBytes(P + "mainnet_account_proof_wc0_31618192.boc");
  const [blockProof, stateProof] = Cell.fromBoc(bytes);
  // The shard block id: root hash = virtual hash of root 0; the file hash is not in the data (zeros here, it
  // is not checked by this answer). As the reference block it is its own shardblk: shard_proof is empty,
  // which the liteserver does for a reference block in the account's workchain.
  const shardblk: TonNodeBlockIdExt = { workchain: 0, shard: -9223372036854775808n, seqno: 31618192, root_hash: blockProof.refs[0].hash(0), file_hash: Buffer.alloc(32) };
  const state = loadShardStateUnsplitHeader(stateProof.refs[0].beginParse());
  const leaves = dictItems(state.accounts.beginParse().loadRef(), 256, "accounts").filter((x) => x.type === "leaf");
  const account = { workchain: 0, id: Buffer.from((leaves[0] as { key: bigint }).key.toString(16).padStart(64, "0"), "hex") };
  // `state` is not in the fixture (the ShardAccount's Account is pruned): stand-in = a Merkle proof whose
  // virtual root is that pruned cell, i.e. a getAccountStatePrunned answer with everything pruned (synthetic).
  const accountRef = (() => {
    const leaf = leaves[0];
    if (leaf.type !== "leaf") throw new Error("unexpected");
    const v = leaf.value;
    v.loadUint(5); // DepthBalanceInfo
    v.loadCoins();
    v.loadMaybeRef();
    return v.loadRef(); // ShardAccount.account (pruned)
  })();
  const prunedState = beginCell().storeUint(3, 8).storeBuffer(accountRef.hash(0)).storeUint(accountRef.depth(0), 16).storeRef(accountRef).endCell({ exotic: true }).toBoc();
  const answer = (patch: Partial<LiteServerAccountState> = {}) =>
    viaTl<LiteServerAccountState>({ kind: "liteServer.accountState", id: shardblk, shardblk, shard_proof: Buffer.alloc(0), proof: bytes, state: prunedState, ...patch });

  it("the proof chain: block header's state_update new hash is the virtual hash of root 1", () => {
    const mu = loadMerkleUpdate(blockProof.refs[0].refs[2]);
    expect(mu.newHash).toEqual(stateProof.refs[0].hash(0));
    expect(leaves).toHaveLength(1);
  });

  it("verifies: ShardAccount of the one account on the proven path", () => {
    const r = verifyAccountState(answer(), shardblk, account);
    expect(r.shardBlock!.seqno).toBe(31618192);
    expect(r.shardAccount!.accountHash).toEqual(accountRef.hash(0));
    expect(r.shardAccount!.lastTransLt).toBeGreaterThan(0n);
    expect(new Date(r.genUtime! * 1000).toISOString().slice(0, 10)).toBe("2022-12-25");
  });

  it("rejects: empty or foreign state, swapped roots, a flipped pruned hash, a shard_proof, a wrong trusted id or seqno", () => {
    expect(() => verifyAccountState(answer({ state: Buffer.alloc(0) }), shardblk, account)).toThrow(/must be non-empty/);
    expect(() => verifyAccountState(answer({ state: beginCell().storeUint(0, 1).endCell().toBoc() }), shardblk, account)).toThrow(/account state hash mismatch/);
    expect(() => verifyAccountState(answer({ proof: multiRootBoc([stateProof, blockProof]) }), shardblk, account)).toThrow(/root 0 \(shard block\)/);
    expect(() => verifyAccountState(answer({ proof: multiRootBoc([blockProof, tamperPrunedHash(stateProof, 5)]) }), shardblk, account)).toThrow(
      /root 1 \(shard state\): Merkle proof is for hash/,
    );
    expect(() => verifyAccountState(answer({ proof: multiRootBoc([tamperPrunedHash(blockProof, 1), stateProof]) }), shardblk, account)).toThrow(
      /root 0 \(shard block\).*Merkle proof is for hash/,
    );
    expect(() => verifyAccountState(answer({ proof: flipInBoc(bytes, prunedHash(prunedCells(stateProof)[3])) }), shardblk, account)).toThrow(/cannot deserialize BoC/);
    expect(() => verifyAccountState(answer({ shard_proof: bytes }), shardblk, account)).toThrow(/shard_proof must be empty/);
    expect(() => verifyAccountState(answer(), { ...shardblk, file_hash: Buffer.alloc(32, 1) }, account)).toThrow(/not for the trusted/);
    const wrongSeqno = { ...shardblk, seqno: 31618193 };
    expect(() => verifyAccountState(answer({ id: wrongSeqno, shardblk: wrongSeqno }), wrongSeqno, account)).toThrow(/block header is for \(0,8000000000000000,31618192\)/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("fixture mainnet_config_proof_mc65466080 (config_proof of getConfigAll; no state_proof in the fixture)", () => {
  const bytes = fixtureBytes(P + "mainnet_config_proof_mc65466080.boc");
  const cell = Cell.fromBoc(bytes)[0];
  // The state hash would come from the block's state_update (state_proof); here it is the proof's own
  // virtual hash, so this covers the Merkle step and the config extraction, not the block → state step.
  const stateHash = cell.refs[0].hash(0);

  it("the whole config is proven: 400 validators (100 mc), global version 13", () => {
    const r = verifyMcStateConfigProof(bytes, stateHash);
    expect(r.complete).toBe(true);
    expect(r.configAddr.toString("hex")).toBe("5".repeat(64));
    expect(configGlobalVersion(r.params).version).toBe(13);
    const vs = configValidatorSet(r.params, 34)!;
    expect([vs.total, vs.main]).toEqual([400, 100]);
    expect(r.params.size).toBeGreaterThan(30);
  });

  it("rejects a flipped pruned hash (rebuilt or raw), another state hash", () => {
    expect(() => verifyMcStateConfigProof(tamperPrunedHash(cell, 0).toBoc(), stateHash)).toThrow(/Merkle proof is for hash .* expected/);
    expect(() => verifyMcStateConfigProof(flipInBoc(bytes, prunedHash(prunedCells(cell)[0])), stateHash)).toThrow(/cannot deserialize BoC/);
    expect(() => verifyMcStateConfigProof(bytes, Buffer.alloc(32))).toThrow(/expected 0{64}/);
  });
});

// ---------------------------------------------------------------------------------------------------------
const keyBlockBytes = fixtureBytes(P + "mainnet_mc_3082181_keyblock.boc");
const blockBytes = fixtureBytes(P + "mainnet_mc_3082182.boc");
const keyProof = loadBlockProof(Cell.fromBoc(fixtureBytes(P + "mainnet_mc_3082181_keyblock.proof.boc"))[0].beginParse());
const proof82 = loadBlockProof(Cell.fromBoc(fixtureBytes(P + "mainnet_mc_3082182.proof.boc"))[0].beginParse());
const id81 = tlBlockId(keyProof.proofFor);
const id82 = tlBlockId(proof82.proofFor);

describe("fixtures mc 3082181 (key block) / 3082182: liteServer.blockData and liteServer.blockHeader", () => {
  const data = (id: TonNodeBlockIdExt, bytes: Buffer) => viaTl<LiteServerBlockData>({ kind: "liteServer.blockData", id, data: bytes });

  it("getBlock: root hash and sha256(BoC) = file hash (real, complete answers)", () => {
    expect(verifyBlockData(data(id81, keyBlockBytes), id81).info.keyBlock).toBe(true);
    const r = verifyBlockData(data(id82, blockBytes), id82);
    expect(r.info.seqNo).toBe(3082182);
    expect(r.root.hash()).toEqual(id82.root_hash);
  });

  it("getBlock rejects: a changed byte, another block's data, a wrong root hash", () => {
    const bad = Buffer.from(blockBytes);
    bad[bad.length - 10] ^= 1;
    expect(() => verifyBlockData(data(id82, bad), id82)).toThrow(/sha256 of the block data/);
    expect(() => verifyBlockData(data(id82, keyBlockBytes), id82)).toThrow(/sha256 of the block data is 132a5c10/);
    const wrongRoot = { ...id82, root_hash: id81.root_hash };
    expect(() => verifyBlockData(data(wrongRoot, blockBytes), wrongRoot)).toThrow(/block root hash is 2a7b5b16/);
  });

  it("getBlockHeader with the BlockProof's Merkle proof as header_proof (mode 1: with state_update)", () => {
    const header = (id: TonNodeBlockIdExt, root: Cell) => viaTl<LiteServerBlockHeader>({ kind: "liteServer.blockHeader", id, mode: 1, header_proof: root.toBoc() });
    const r = verifyBlockHeader(header(id82, proof82.root), id82);
    expect(r.info.genCatchainSeqno).toBe(48615);
    expect(r.stateHash).toEqual(loadBlock(Cell.fromBoc(blockBytes)[0].beginParse()).stateUpdate.newHash);
    expect(verifyBlockHeader(header(id81, keyProof.root), id81).info.keyBlock).toBe(true);
    expect(() => verifyBlockHeader(header(id82, keyProof.root), id82)).toThrow(/Merkle proof is for hash ae16b67c/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("fixtures mc 3082181 → 3082182: liteServer.partialBlockProof with a forward link (real proofs and signatures)", () => {
  // config_proof = the key block's proof link (MERKLE_PROOF with McBlockExtra.config: params 28, 32, 34, 36),
  // dest_proof = the Merkle proof of 3082182's BlockProof, signatures = its BlockSignatures as a TL set.
  const sigs = proof82.signatures!;
  const signatures = {
    kind: "liteServer.signatureSet.ordinary",
    validator_set_hash: sigs.validatorListHashShort | 0,
    catchain_seqno: sigs.catchainSeqno,
    signatures: [...sigs.signatures.values()].map((p) => ({
      kind: "liteServer.signature",
      node_id_short: p.nodeIdShort,
      signature: Buffer.concat(p.sign.type === "ed25519_signature" ? [p.sign.r, p.sign.s] : []),
    })),
  };
  const link = (patch: Record<string, unknown> = {}) => ({
    kind: "liteServer.blockLinkForward",
    to_key_block: false,
    from: id81,
    to: id82,
    dest_proof: proof82.root.toBoc(),
    config_proof: keyProof.root.toBoc(),
    signatures,
    ...patch,
  });
  const answer = (steps: Record<string, unknown>[] = [link()], patch: Record<string, unknown> = {}) =>
    viaTl<LiteServerPartialBlockProof>({ kind: "liteServer.partialBlockProof", complete: true, from: id81, to: id82, steps, ...patch });

  it("verifies: p34's 13 validators, 10 signatures above 2/3 of the weight, header's validator list hash", () => {
    const r = verifyPartialBlockProof(answer(), id81, id82);
    expect(r.complete).toBe(true);
    expect(blockIdToString(r.to)).toBe(blockIdToString(id82));
    expect(r.steps[0].type).toBe("forward");
    expect(r.steps[0].signedWeight).toBe(902682873435324223n);
    expect(r.steps[0].totalWeight).toBe(1152921504606846967n);
    expect(r.lastKeyBlock).toBeNull();
  });

  it("rejects: a forged signature, too few signatures, a wrong file hash, a wrong key flag, a non-key source, swapped proofs, wrong trusted block", () => {
    const forged = { ...signatures, signatures: signatures.signatures.map((s, i) => (i === 3 ? { ...s, signature: Buffer.from(s.signature).fill(1, 0, 1) } : s)) };
    expect(() => verifyPartialBlockProof(answer([link({ signatures: forged })]), id81)).toThrow(/invalid signature/);
    const few = { ...signatures, signatures: signatures.signatures.slice(0, 6) };
    expect(() => verifyPartialBlockProof(answer([link({ signatures: few })]), id81)).toThrow(/not above 2\/3/);
    const otherFile = { ...id82, file_hash: Buffer.alloc(32, 9) };
    expect(() => verifyPartialBlockProof(answer([link({ to: otherFile })], { to: otherFile }), id81)).toThrow(/invalid signature/);
    expect(() => verifyPartialBlockProof(answer([link({ to_key_block: true })]), id81)).toThrow(/incorrect to_key_block/);
    expect(() => verifyPartialBlockProof(answer([link({ config_proof: proof82.root.toBoc() })]), id81)).toThrow(/Merkle proof is for hash 2a7b5b16/);
    expect(() => verifyPartialBlockProof(answer([link({ dest_proof: keyProof.root.toBoc() })]), id81)).toThrow(/dest_proof .*Merkle proof is for hash ae16b67c/);
    expect(() => verifyPartialBlockProof(answer(), id82)).toThrow(/not for the trusted/);
    expect(() => verifyPartialBlockProof(answer([], { to: id82 }), id81)).toThrow(/no steps/);
    expect(() => verifyPartialBlockProof(answer(), id81, { ...id82, seqno: 3082183 })).toThrow(/not at the target/);
    const wrongHash = { ...signatures, validator_set_hash: 5 };
    expect(() => verifyPartialBlockProof(answer([link({ signatures: wrongHash })]), id81)).toThrow(/signature set is for validator set hash 5/);
  });

  it("the link alone (verifyBlockLinkForward) and ConfigParam 28 without shuffling", () => {
    expect(verifyBlockLinkForward(viaTl<LiteServerBlockLinkForward>(link())).to.seqno).toBe(3082182);
    const kb = loadBlock(Cell.fromBoc(keyBlockBytes)[0].beginParse());
    expect(shuffleMcValidators(configParam(kb.extra.custom!.config!, 28)!, "p28")).toBe(false);
  });
});

describe("ConfigParam 28 shuffle (ValidatorSetPRNG) against mainnet: block 47129122 is created by key block 47110814's p34", () => {
  it("the shuffled masterchain subset hashes to the header's gen_validator_list_hash_short; the unshuffled one does not", () => {
    const kb = loadBlock(Cell.fromBoc(fixtureBytes("blocks/mainnet_mc_47110814_keyblock.boc"))[0].beginParse());
    const b = loadBlock(Cell.fromBoc(fixtureBytes("blocks/mainnet_mc_47129122.boc"))[0].beginParse());
    const cfg = kb.extra.custom!.config!;
    expect(b.info.prevKeyBlockSeqno).toBe(47110814);
    expect(shuffleMcValidators(configParam(cfg, 28)!, "p28")).toBe(true);
    const vs = configValidatorSet(cfg, 34)!;
    const cc = b.info.genCatchainSeqno;
    expect(computeValidatorSetHashShort(cc, masterchainValidatorSubset(vs, true, cc))).toBe(b.info.genValidatorListHashShort);
    expect(computeValidatorSetHashShort(cc, masterchainValidatorSubset(vs, false, cc))).not.toBe(b.info.genValidatorListHashShort);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("fixture mc 3082181: liteServer.configInfo mode 0x8000 (config from the key block; config_proof = its real proof link)", () => {
  const answer = (patch: Partial<LiteServerConfigInfo> = {}) =>
    viaTl<LiteServerConfigInfo>({ kind: "liteServer.configInfo", mode: 0x8000, id: id81, state_proof: Buffer.alloc(0), config_proof: keyProof.root.toBoc(), ...patch });

  it("params 28, 32, 34, 36 of McBlockExtra.config", () => {
    const r = verifyConfig(answer(), id81, { params: [28, 32, 34, 36] });
    expect(r.fromKeyBlock).toBe(true);
    expect([...r.params.keys()].sort((a, b) => a - b)).toEqual([28, 32, 34, 36]);
    expect(configValidatorSet(r.params, 34)!.total).toBe(13);
  });

  it("rejects: the whole config (pruned), a non-key block, a state_proof given", () => {
    expect(() => verifyConfig(answer(), id81, { all: true })).toThrow(/pruned/);
    expect(() => verifyConfig(answer({ id: id82, config_proof: proof82.root.toBoc() }), id82)).toThrow(/not a key block/);
    expect(() => verifyConfig(answer({ state_proof: keyProof.root.toBoc() }), id81)).toThrow(/state_proof must be empty/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Block 0:8000000000000000:71398501 (real, root hash exact) and its transactions / accounts fixtures.
const bigBlockRoot = Cell.fromBoc(fixtureBytes("blocks/mainnet_0_8000000000000000_71398501.boc"))[0];
const bigBlock: Block = loadBlock(bigBlockRoot.beginParse());
const bigId: TonNodeBlockIdExt = {
  workchain: 0,
  shard: -9223372036854775808n,
  seqno: 71398501,
  root_hash: bigBlockRoot.hash(),
  file_hash: Buffer.alloc(32), // the file hash is not recoverable from the re-serialized fixture; not checked by these answers
};
const txFixture = (name: string) => Cell.fromBoc(fixtureBytes(`transactions/${name}.tx.boc`))[0];

describe("block 0:8000…:71398501: liteServer.transactionList (real transactions; the answer has no proof)", () => {
  const acc = { workchain: 0, id: Buffer.from("18aa8e2eed51747dae033c079b93883d941cad8f65459f2ee9cd7474b6b8ed5d", "hex") };
  const names = ["14", "12", "10", "07"].map((lt) => `contract_recv_jetton_notify_0_18aa8e2eed51_lt767340690000${lt}`);
  const txs = names.map(txFixture);
  const answer = (cells = txs) => viaTl<LiteServerTransactionList>({ kind: "liteServer.transactionList", ids: cells.map(() => bigId), transactions: multiRootBoc(cells) });
  const start = { account: acc, lt: 76734069000014n, hash: txs[0].hash() };

  it("the chain of prev_trans_hash from the newest transaction, and it continues into the fixture ShardAccount's last transaction", () => {
    const r = verifyTransactionList(answer(), start);
    expect(r.map((t) => t.lt)).toEqual([76734069000014n, 76734069000012n, 76734069000010n, 76734069000007n]);
    const sa = Cell.fromBoc(fixtureBytes("accounts/contract_recv_jetton_notify_0_18aa8e2eed51.shardaccount.boc"))[0].beginParse();
    sa.loadRef();
    expect(r[3].prevTransHash).toEqual(sa.loadBuffer(32));
    expect(r[3].prevTransLt).toBe(sa.loadUintBig(64));
  });

  it("rejects: wrong anchor hash, a gap, reordering, another account's transaction, a count mismatch", () => {
    expect(() => verifyTransactionList(answer(), { ...start, hash: Buffer.alloc(32) })).toThrow(/transaction #0: transaction hash mismatch/);
    expect(() => verifyTransactionList(answer([txs[0], txs[2]]), start)).toThrow(/transaction #1: transaction hash mismatch/);
    expect(() => verifyTransactionList(answer([txs[1], txs[0]]), { ...start, lt: 76734069000012n, hash: txs[1].hash() })).toThrow(/#1/);
    expect(() => verifyTransactionList(answer(), { ...start, account: { workchain: 0, id: Buffer.alloc(32) } })).toThrow(/not 0{64}/);
    expect(() => verifyTransactionList({ kind: "liteServer.transactionList", ids: [bigId], transactions: multiRootBoc(txs) }, start)).toThrow(/must be equal/);
    expect(() => verifyTransactionList(answer(), { ...start, count: 2 })).toThrow(/for a request of 2/);
  });
});

describe("block 0:8000…:71398501: liteServer.transactionInfo (real block and transaction; proof cut by the test like a liteserver)", () => {
  const tx = txFixture("wallet_v4r2_0_0116acf81149_lt76734069000020");
  const acc = { workchain: 0, id: Buffer.from("0116acf811496055da36a1662a5c4bf199a2e1f497d718652b5c150f5cbc21b0", "hex") };
  const proof = merkleProof(bigBlockRoot, keepPaths(bigBlockRoot, [tx], false)).toBoc();
  const answer = (patch: Partial<LiteServerTransactionInfo> = {}) =>
    viaTl<LiteServerTransactionInfo>({ kind: "liteServer.transactionInfo", id: bigId, proof, transaction: tx.toBoc(), ...patch });

  it("the transaction hashes to the proven ShardAccountBlocks[account].transactions[lt]", () => {
    const r = verifyTransactionInfo(answer(), bigId, { account: acc, lt: 76734069000020n });
    expect(r.hash!.toString("hex")).toBe("3d5fdd35ee2c51ec7fca6ecbc00e5a9df0a98fd4538892d5adb767441e7f27c8");
    expect(loadTransaction(r.transaction!.beginParse()).lt).toBe(76734069000020n);
  });

  it("a neighbouring lt of the same account is proven absent; other answers are rejected", () => {
    const r = verifyTransactionInfo(answer({ transaction: Buffer.alloc(0) }), bigId, { account: acc, lt: 76734069000021n });
    expect(r.transaction).toBeNull();
    expect(() => verifyTransactionInfo(answer(), bigId, { account: acc, lt: 76734069000021n })).toThrow(/shows no transaction/);
    expect(() => verifyTransactionInfo(answer({ transaction: Buffer.alloc(0) }), bigId, { account: acc, lt: 76734069000020n })).toThrow(/none was returned/);
    const other = txFixture("wallet_v5r1_0_019cfcdc3bb4_lt76734069000002");
    expect(() => verifyTransactionInfo(answer({ transaction: other.toBoc() }), bigId, { account: acc, lt: 76734069000020n })).toThrow(/transaction hash mismatch/);
    expect(() => verifyTransactionInfo(answer({ proof: tamperPrunedHash(Cell.fromBoc(proof)[0], 7).toBoc() }), bigId, { account: acc, lt: 76734069000020n })).toThrow(
      /Merkle proof is for hash/,
    );
    const far = { workchain: 0, id: Buffer.from("f".repeat(64), "hex") };
    expect(() => verifyTransactionInfo(answer(), bigId, { account: far, lt: 1n })).toThrow(/pruned/);
    expect(() => verifyTransactionInfo(answer(), bigId, { account: { workchain: -1, id: acc.id }, lt: 1n })).toThrow(/cannot contain account/);
  });
});

describe("block 0:8000…:71398501: liteServer.blockTransactionsExt (real block; proof cut by the test)", () => {
  const all = blockTransactions(bigBlock.extra.accountBlocks).map((t) => t.raw);
  const first = all.slice(0, 5);
  const cut = (txs: Cell[]) => merkleProof(bigBlockRoot, keepPaths(bigBlockRoot, txs, false)).toBoc();
  const answer = (txs: Cell[], proofTxs: Cell[], reqCount: number, incomplete: boolean) =>
    viaTl<LiteServerBlockTransactionsExt>({
      kind: "liteServer.blockTransactionsExt",
      id: bigId,
      req_count: reqCount,
      incomplete,
      transactions: multiRootBoc(txs),
      proof: cut(proofTxs),
    });

  it("the first 5 of 269 transactions in (account, lt) order; a later page after (account, lt)", () => {
    expect(all).toHaveLength(269);
    const r = verifyBlockTransactionsExt(answer(first, first, 5, true), bigId, {});
    expect(r.transactions.map((t) => t.hash)).toEqual(first.map((c) => c.hash()));
    const t2 = loadTransaction(first[1].beginParse());
    // the liteserver's nearest-key lookup walks to the `after` key, so its path is in the proof
    const page = verifyBlockTransactionsExt(answer(first.slice(2), first.slice(1), 3, true), bigId, {
      after: { account: Buffer.from(t2.address.toString(16).padStart(64, "0"), "hex"), lt: t2.lt },
    });
    expect(page.transactions).toHaveLength(3);
  });

  it("rejects: an omitted transaction, a list claimed complete, a reordered list, a wrong block", () => {
    expect(() => verifyBlockTransactionsExt(answer([first[0], first[2]], first, 2, true), bigId, {})).toThrow(/next transaction is/);
    expect(() => verifyBlockTransactionsExt(answer(first, first, 10, false), bigId, {})).toThrow(/prunes the rest/);
    expect(() => verifyBlockTransactionsExt(answer([first[1], first[0]], first, 2, true), bigId, {})).toThrow(/next transaction is/);
    expect(() => verifyBlockTransactionsExt(answer(first, first, 5, true), { ...bigId, seqno: 1 }, {})).toThrow(/not for the trusted/);
    // the proof of the first five does not cover the next page
    expect(() => verifyBlockTransactionsExt(answer(all.slice(5, 7), first, 2, true), bigId)).toThrow(/not in the proof|pruned/);
  });
});

// ---------------------------------------------------------------------------------------------------------
describe("mc block 24374597: liteServer.allShardsInfo (real block; proof cut by the test)", () => {
  const root = Cell.fromBoc(fixtureBytes("blocks/mainnet_mc_24374597.boc"))[0];
  const mcExtra = root.refs[3].refs[3];
  const id: TonNodeBlockIdExt = { workchain: -1, shard: -9223372036854775808n, seqno: 24374597, root_hash: root.hash(), file_hash: Buffer.alloc(32) };
  const proof = merkleProof(root, pathsTo(root, same(mcExtra))).toBoc();
  const data = beginCell().storeBit(1).storeRef(mcExtra.refs[0]).endCell().toBoc();
  const answer = (patch: Partial<LiteServerAllShardsInfo> = {}) => viaTl<LiteServerAllShardsInfo>({ kind: "liteServer.allShardsInfo", id, proof, data, ...patch });

  it("data is the proven McBlockExtra.shard_hashes", () => {
    const r = verifyAllShardsInfo(answer(), id);
    expect(r.shards.length).toBeGreaterThan(0);
    expect(r.shards.every((s) => s.workchain === 0)).toBe(true);
    const full = shardHashesList(loadBlock(root.beginParse()).extra.custom!.shardHashes);
    expect(r.shards.map((s) => [s.shard, s.blockId.seqno, s.blockId.root_hash.toString("hex")])).toEqual(
      full.map((s) => [s.shard, s.descr.seqNo, s.descr.rootHash.toString("hex")]),
    );
  });

  it("rejects: data of another block, an empty dictionary, a forged proof", () => {
    const other = Cell.fromBoc(fixtureBytes("blocks/mainnet_mc_17734191.boc"))[0].refs[3].refs[3];
    expect(() => verifyAllShardsInfo(answer({ data: beginCell().storeBit(1).storeRef(other.refs[0]).endCell().toBoc() }), id)).toThrow(/data's ShardHashes root hashes to/);
    expect(() => verifyAllShardsInfo(answer({ data: beginCell().storeBit(0).endCell().toBoc() }), id)).toThrow(/says ShardHashes is empty/);
    expect(() => verifyAllShardsInfo(answer({ proof: tamperPrunedHash(Cell.fromBoc(proof)[0]).toBoc() }), id)).toThrow(/Merkle proof is for hash/);
    expect(() => verifyAllShardsInfo(answer(), { ...id, seqno: 5 })).toThrow(ProofError);
  });
});

