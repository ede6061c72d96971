import { CellType, beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  blockIdExtToString,
  blockRootHash,
  blockSignedMessage,
  checkBlockProofMerkle,
  computeValidatorSetHashShort,
  configFromMcState,
  configGlobalId,
  configGlobalVersion,
  configParamValue,
  configValidatorSet,
  KEY_WORKCHAIN,
  buildHashmap,
  loadBlock,
  loadBlockHeader,
  loadBlockProof,
  loadHashmap,
  loadMerkleProof,
  loadShardStateUnsplitHeader,
  masterchainValidators,
  merkleProofCell,
  shardIdToString,
  storeBlockProof,
  storeValidatorSet,
  validatorList,
  validatorNodeIdShort,
  validatorSetTotalWeight,
  verifyBlockSignatures,
} from "../src/index.js";
import { fixtureCells, fixtureRoot } from "./fixtures.js";

const keyBlock = loadBlock(fixtureRoot("proofs/mainnet_mc_3082181_keyblock.boc").beginParse());
const keyConfig = keyBlock.extra.custom!.config!;
const vset = configValidatorSet(keyConfig, 34)!;

describe("BlockProof (block_proof#c3)", () => {
  it("parses the proof of mc 3082182 and its Merkle proof's virtual root is the block", () => {
    const cell = fixtureRoot("proofs/mainnet_mc_3082182.proof.boc");
    const proof = loadBlockProof(cell.beginParse());
    expect(shardIdToString(proof.proofFor.shardId)).toBe("-1:8000000000000000");
    expect(proof.proofFor.seqNo).toBe(3082182);
    expect(blockIdExtToString(proof.proofFor)).toBe(
      "(-1,8000000000000000,3082182):2A7B5B161F99EEBAAF0AFFA99AA959EAAD74CE883F66F52743635FAC3B6A1851:064F1B609741820EF002B84CF574144F997598753F1CF23B4F8D34AC08246B3D",
    );
    expect(proof.root.type).toBe(CellType.MerkleProof);
    const mp = loadMerkleProof(proof.root);
    expect(mp.virtualHash).toEqual(proof.proofFor.rootHash);
    expect(mp.virtualRoot.hash(0)).toEqual(proof.proofFor.rootHash);
    // the full block of the same seqno has that root hash
    const full = fixtureRoot("proofs/mainnet_mc_3082182.boc");
    expect(blockRootHash(full)).toEqual(proof.proofFor.rootHash);
    expect(blockRootHash(proof.root)).toEqual(proof.proofFor.rootHash);
    expect(blockRootHash(mp.virtualRoot)).toEqual(proof.proofFor.rootHash);
    // the proven header is the block's header
    const header = checkBlockProofMerkle(proof);
    const fullBlock = loadBlock(full.beginParse());
    expect(header.globalId).toBe(-239);
    expect(header.info).toEqual(fullBlock.info);
    // re-serialization: BlockProof and its exotic Merkle proof cell
    expect(merkleProofCell(mp).hash()).toEqual(proof.root.hash());
    expect(beginCell().store(storeBlockProof(proof)).endCell().hash()).toEqual(cell.hash());
    // signatures
    const sigs = proof.signatures!;
    expect(sigs.type).toBe("block_signatures_ordinary");
    expect(sigs.sigCount).toBe(10);
    expect(sigs.signatures.size).toBe(10);
    expect(sigs.catchainSeqno).toBe(header.info.genCatchainSeqno);
    expect(sigs.validatorListHashShort).toBe(header.info.genValidatorListHashShort);
  });

  it("a tampered Merkle proof is rejected", () => {
    const proof = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082182.proof.boc").beginParse());
    const other = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082181_keyblock.proof.boc").beginParse());
    expect(() => checkBlockProofMerkle({ ...proof, root: other.root })).toThrow(/virtual hash/);
    expect(() => checkBlockProofMerkle({ ...proof, root: fixtureRoot("proofs/mainnet_mc_3082182.boc") })).toThrow(/not a Merkle proof/);
  });
});

describe("verifyBlockSignatures", () => {
  it("the key block 3082181 holds the validator set (p34) that signs the next blocks", () => {
    expect(keyBlock.info.keyBlock).toBe(true);
    expect(keyBlock.info.seqNo).toBe(3082181);
    expect(vset.type).toBe("validators_ext");
    expect(vset.total).toBe(13);
    expect(vset.main).toBe(13);
    expect(vset.totalWeight).toBe(validatorSetTotalWeight(vset));
    expect(validatorList(vset).every((v) => v.type === "validator_addr")).toBe(true);
    expect(vset.utimeSince).toBeLessThanOrEqual(keyBlock.info.genUtime);
    expect(vset.utimeUntil).toBeGreaterThan(keyBlock.info.genUtime);
  });

  it("mc 3082182: ed25519 signatures of `ton.blockId root_hash file_hash` by > 2/3 of the weight", () => {
    const proof = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082182.proof.boc").beginParse());
    const msg = blockSignedMessage(proof.proofFor.rootHash, proof.proofFor.fileHash);
    expect(msg.length).toBe(68);
    expect(msg.subarray(0, 4).toString("hex")).toBe("706e0bc5"); // 0xc50b6e70 little-endian
    const r = verifyBlockSignatures(proof.proofFor, proof.signatures!, vset);
    expect(r.errors).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.validSignatures).toBe(10);
    expect(r.signedWeight).toBe(902682873435324223n);
    expect(r.totalWeight).toBe(1152921504606846967n);
    expect(r.signedWeight * 3n > r.totalWeight * 2n).toBe(true);
    expect(r.declaredCountsMatch).toBe(true);
    // validator_list_hash_short = crc32c(test0.validatorSet) over the mc validators
    expect(r.validatorListHashMatches).toBe(true);
    expect(computeValidatorSetHashShort(48615, masterchainValidators(vset))).toBe(3435399186);
  });

  it("the key block's own proof (cc_seqno 48614) verifies with the same set", () => {
    const proof = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082181_keyblock.proof.boc").beginParse());
    expect(blockRootHash(fixtureRoot("proofs/mainnet_mc_3082181_keyblock.boc"))).toEqual(proof.proofFor.rootHash);
    const header = checkBlockProofMerkle(proof);
    expect(header.info.keyBlock).toBe(true);
    const r = verifyBlockSignatures(proof.proofFor, proof.signatures!, vset);
    expect(r.ok).toBe(true);
    expect(r.validatorListHashMatches).toBe(true);
  });

  it("node ids are sha256(pub.ed25519 key) and map every signer to a validator", () => {
    const proof = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082182.proof.boc").beginParse());
    const ids = new Set(validatorList(vset).map((v) => validatorNodeIdShort(v.publicKey).toString("hex")));
    for (const [, pair] of proof.signatures!.signatures) expect(ids.has(pair.nodeIdShort.toString("hex"))).toBe(true);
  });

  it("fails for a wrong file hash, a forged signature, a wrong set, or too little weight", () => {
    const proof = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082182.proof.boc").beginParse());
    const sigs = proof.signatures!;
    const wrongFile = verifyBlockSignatures({ rootHash: proof.proofFor.rootHash, fileHash: Buffer.alloc(32) }, sigs, vset);
    expect(wrongFile.ok).toBe(false);
    expect(wrongFile.invalidSignatures).toBe(10);

    // one forged signature → not ok even though the rest has enough weight
    const forged = sigs.signatures;
    const [k0] = [...forged.keys()];
    const orig = forged.get(k0)!;
    if (orig.sign.type !== "ed25519_signature") throw new Error("unexpected");
    const bad = Buffer.from(orig.sign.s);
    bad[0] ^= 1;
    forged.set(k0, { ...orig, sign: { ...orig.sign, s: bad } });
    try {
      const r = verifyBlockSignatures(proof.proofFor, sigs, vset);
      expect(r.ok).toBe(false);
      expect(r.invalidSignatures).toBe(1);
      expect(r.validSignatures).toBe(9);
    } finally {
      forged.set(k0, orig);
    }

    // previous validator set (p32) does not know the signers
    const p32 = configValidatorSet(keyConfig, 32)!;
    const wrongSet = verifyBlockSignatures(proof.proofFor, sigs, p32);
    expect(wrongSet.ok).toBe(false);
    expect(wrongSet.unknownSigners).toBe(10);

    // keep only 3 of the 10 signatures: valid, but not above 2/3 of the weight
    const dict = sigs.signatures;
    const all = [...dict];
    for (const [k] of all.slice(3)) dict.delete(k);
    try {
      const r = verifyBlockSignatures(proof.proofFor, sigs, vset);
      expect(r.validSignatures).toBe(3);
      expect(r.invalidSignatures).toBe(0);
      expect(r.ok).toBe(false);
      expect(r.declaredCountsMatch).toBe(false);
      expect(r.errors.at(-1)).toMatch(/not above 2\/3/);
    } finally {
      for (const [k, v] of all) dict.set(k, v);
    }
    expect(verifyBlockSignatures(proof.proofFor, sigs, vset).ok).toBe(true);
  });
});

describe("config and state proofs, config fixtures", () => {
  it("config proof mc 65466080: ConfigParams reached through the pruned ShardStateUnsplit", () => {
    const cell = fixtureRoot("proofs/mainnet_config_proof_mc65466080.boc");
    const mp = loadMerkleProof(cell);
    const st = loadShardStateUnsplitHeader(mp.virtualRoot.beginParse());
    expect(st.globalId).toBe(-239);
    expect(shardIdToString(st.shardId)).toBe("-1:8000000000000000");
    expect(st.seqNo).toBe(65466080);
    const cfg = configFromMcState(cell);
    expect(cfg.configAddr.toString("hex")).toBe("5".repeat(64));
    expect(configGlobalId(cfg)).toBe(-239);
    expect(configGlobalVersion(cfg).version).toBe(13);
    const vs = configValidatorSet(cfg)!;
    expect(vs.total).toBe(400);
    expect(vs.main).toBe(100);
    expect(vs.list.size).toBe(400);
  });

  it("account proof wc0 31618192: block header and state header behind Merkle proofs", () => {
    const [blockProof, stateProof] = fixtureCells("proofs/mainnet_account_proof_wc0_31618192.boc");
    const header = loadBlockHeader(loadMerkleProof(blockProof).virtualRoot.beginParse());
    expect(header.globalId).toBe(-239);
    expect(shardIdToString(header.info.shard)).toBe("0:8000000000000000");
    expect(header.info.seqNo).toBe(31618192);
    expect(new Date(header.info.genUtime * 1000).toISOString().slice(0, 10)).toBe("2022-12-25");
    const st = loadShardStateUnsplitHeader(loadMerkleProof(stateProof).virtualRoot.beginParse());
    expect(st.seqNo).toBe(31618192);
    expect(st.custom).toBeNull();
  });

  const CONFIGS: [string, number, number, number, number][] = [
    ["config/mainnet_config_mc84773657_gv15.boc", 40, 15, 396, -239],
    ["config/testnet_config_mc76769489_gv15.boc", 61, 15, 15, -3],
    ["config/mainnet_config_2026-04_gv13.boc", 40, 13, 397, -239],
  ];
  for (const [file, params, gv, validators, globalId] of CONFIGS) {
    it(`${file}: params, global version, validators; the config dict and p34 rebuild to the same hashes`, () => {
      const root = fixtureRoot(file);
      const d = loadHashmap(root, KEY_WORKCHAIN, configParamValue);
      expect(d.size).toBe(params);
      expect(configGlobalVersion(d).version).toBe(gv);
      expect(configGlobalId(d)).toBe(globalId);
      const vs = configValidatorSet(d, 34)!;
      expect(vs.total).toBe(validators);
      expect(vs.list.size).toBe(validators);
      expect(vs.totalWeight).toBe(validatorSetTotalWeight(vs));
      expect(buildHashmap(d, KEY_WORKCHAIN, configParamValue).hash()).toEqual(root.hash());
      expect(beginCell().store(storeValidatorSet(vs)).endCell().hash()).toEqual(d.get(34)!.hash());
    });
  }
});
