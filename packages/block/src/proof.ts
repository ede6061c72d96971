// Block proofs and validator signatures: BlockSignatures, BlockProof, verifyBlockSignatures.
import { createHash, createPublicKey, verify as edVerify } from "node:crypto";
import { type Builder, type Cell, type Slice, CellType, beginCell, crc32c } from "@ton/core";
import { type BlockHeader, loadBlockHeader } from "./block.js";
import { type BlockIdExt, loadBlockIdExt, storeBits256, storeBlockIdExt } from "./blockid.js";
import { type ValidatorDescr, type ValidatorSet, validatorList } from "./config.js";
import { type CryptoSignatures, loadCryptoSignatures, signatureBytes, storeCryptoSignatures } from "./mcblock.js";
import { collectCellHashes, loadMerkleProof, loadMerkleUpdate, makeMerkleProof } from "./merkle.js";

/**
 * block_signatures_ordinary#11 validator_list_hash_short:uint32 catchain_seqno:uint32 sig_count:uint32
 *   sig_weight:uint64 signatures:(HashmapE 16 CryptoSignaturePair)
 * block_signatures_simplex#12 … session_id:bits256 slot:uint32 candidate_data:^Cell
 */
export interface BlockSignatures {
  type: "block_signatures_ordinary" | "block_signatures_simplex";
  validatorListHashShort: number;
  catchainSeqno: number;
  sigCount: number;
  sigWeight: bigint;
  signatures: CryptoSignatures;
  /** simplex only. */
  sessionId?: Buffer;
  /** simplex only. */
  slot?: number;
  /** simplex only. */
  candidateData?: Cell;
}

export function loadBlockSignatures(s: Slice): BlockSignatures {
  const tag = s.loadUint(8);
  if (tag !== 0x11 && tag !== 0x12) throw new Error(`BlockSignatures: bad tag 0x${tag.toString(16)}`);
  const validatorListHashShort = s.loadUint(32);
  const catchainSeqno = s.loadUint(32);
  const sigCount = s.loadUint(32);
  const sigWeight = s.loadUintBig(64);
  const signatures = loadCryptoSignatures(s);
  const base = { validatorListHashShort, catchainSeqno, sigCount, sigWeight, signatures };
  if (tag === 0x11) return { type: "block_signatures_ordinary", ...base };
  const sessionId = s.loadBuffer(32);
  const slot = s.loadUint(32);
  return { type: "block_signatures_simplex", ...base, sessionId, slot, candidateData: s.loadRef() };
}

export function storeBlockSignatures(src: BlockSignatures) {
  return (b: Builder): void => {
    b.storeUint(src.type === "block_signatures_ordinary" ? 0x11 : 0x12, 8);
    b.storeUint(src.validatorListHashShort, 32).storeUint(src.catchainSeqno, 32);
    b.storeUint(src.sigCount, 32).storeUint(src.sigWeight, 64);
    b.store(storeCryptoSignatures(src.signatures));
    if (src.type === "block_signatures_simplex") {
      if (!src.sessionId || src.slot === undefined || !src.candidateData) throw new Error("BlockSignatures: simplex fields missing");
      storeBits256(b, src.sessionId, "BlockSignatures.session_id");
      b.storeUint(src.slot, 32).storeRef(src.candidateData);
    }
  };
}

/** block_proof#c3 proof_for:BlockIdExt root:^Cell signatures:(Maybe ^BlockSignatures) = BlockProof. */
export interface BlockProof {
  proofFor: BlockIdExt;
  /** The MERKLE_PROOF cell of the block (header). */
  root: Cell;
  signatures: BlockSignatures | null;
}

export function loadBlockProof(s: Slice): BlockProof {
  const tag = s.loadUint(8);
  if (tag !== 0xc3) throw new Error(`BlockProof: bad tag 0x${tag.toString(16)}`);
  const proofFor = loadBlockIdExt(s);
  const root = s.loadRef();
  const sig = s.loadMaybeRef();
  return { proofFor, root, signatures: sig ? loadBlockSignatures(sig.beginParse()) : null };
}

export function storeBlockProof(src: BlockProof) {
  return (b: Builder): void => {
    b.storeUint(0xc3, 8).store(storeBlockIdExt(src.proofFor)).storeRef(src.root);
    b.storeMaybeRef(src.signatures ? beginCell().store(storeBlockSignatures(src.signatures)).endCell() : null);
  };
}

/**
 * Checks the Merkle part of a BlockProof: `root` is a MERKLE_PROOF whose virtual hash is
 * proof_for.root_hash, and the proven block header parses. Returns the header.
 */
export function checkBlockProofMerkle(proof: BlockProof): BlockHeader {
  if (proof.root.type !== CellType.MerkleProof) throw new Error("BlockProof: root is not a Merkle proof");
  const mp = loadMerkleProof(proof.root);
  if (!mp.virtualHash.equals(proof.proofFor.rootHash)) throw new Error("BlockProof: virtual hash differs from proof_for.root_hash");
  if (!mp.virtualRoot.hash(0).equals(mp.virtualHash)) throw new Error("BlockProof: virtual root hash differs from the declared virtual hash");
  const header = loadBlockHeader(mp.virtualRoot.beginParse());
  const info = header.info;
  if (info.seqNo !== proof.proofFor.seqNo) throw new Error("BlockProof: seqno differs from proof_for");
  if (info.shard.workchainId !== proof.proofFor.shardId.workchainId) throw new Error("BlockProof: workchain differs from proof_for");
  return header;
}

// ---------------------------------------------------------------------------------------------
// Signatures

const TL_PUB_ED25519 = 0x4813b4c6;
const TL_TON_BLOCK_ID = 0xc50b6e70;
const TL_TEST0_VALIDATOR_SET = -1877581587;
const ED25519_SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

function tlInt32(v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeInt32LE(v | 0);
  return b;
}

/** A validator's short node id: sha256 of the TL `pub.ed25519 key:int256`. */
export function validatorNodeIdShort(publicKey: Buffer): Buffer {
  if (publicKey.length !== 32) throw new Error("ed25519 public key must be 32 bytes");
  return createHash("sha256").update(tlInt32(TL_PUB_ED25519)).update(publicKey).digest();
}

/** The bytes validators sign for a block: TL `ton.blockId root_cell_hash:int256 file_hash:int256`. */
export function blockSignedMessage(rootHash: Buffer, fileHash: Buffer): Buffer {
  if (rootHash.length !== 32 || fileHash.length !== 32) throw new Error("root_hash and file_hash must be 32 bytes");
  return Buffer.concat([tlInt32(TL_TON_BLOCK_ID), rootHash, fileHash]);
}

/**
 * validator_list_hash_short of a validator subset (crypto/block/block.cpp compute_validator_set_hash):
 * crc32c of TL test0.validatorSet cc_seqno, then per validator pubkey, weight, adnl address.
 */
export function computeValidatorSetHashShort(catchainSeqno: number, validators: ValidatorDescr[]): number {
  const parts: Buffer[] = [tlInt32(TL_TEST0_VALIDATOR_SET), tlInt32(catchainSeqno)];
  const n = Buffer.alloc(4);
  n.writeUInt32LE(validators.length);
  parts.push(n);
  for (const v of validators) {
    const w = Buffer.alloc(8);
    w.writeBigUInt64LE(v.weight);
    parts.push(v.publicKey, w, v.adnlAddr ?? Buffer.alloc(32));
  }
  return crc32c(Buffer.concat(parts)).readUInt32LE(0);
}

/** The validators that sign masterchain blocks: the first `main` of the set (ConfigParam 34). */
export function masterchainValidators(vs: ValidatorSet): ValidatorDescr[] {
  return validatorList(vs).slice(0, vs.main);
}

function ed25519Verify(publicKey: Buffer, message: Buffer, signature: Buffer): boolean {
  try {
    const key = createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]), format: "der", type: "spki" });
    return edVerify(null, message, key, signature);
  } catch {
    return false;
  }
}

export interface BlockSignaturesCheck {
  /** True iff every signature is by a known validator, verifies, is not a duplicate, and signed weight * 3 > total * 2. */
  ok: boolean;
  signedWeight: bigint;
  totalWeight: bigint;
  validSignatures: number;
  invalidSignatures: number;
  unknownSigners: number;
  duplicateSigners: number;
  /** BlockSignatures.sig_count / sig_weight agree with what was counted (only when BlockSignatures were given). */
  declaredCountsMatch?: boolean;
  /** validator_list_hash_short agrees with the validator subset (only when BlockSignatures were given). */
  validatorListHashMatches?: boolean;
  errors: string[];
}

/**
 * Verifies validator signatures of a block: each signature must be an ed25519 signature of
 * `ton.blockId root_hash file_hash` by the validator whose short node id it names, and the signing
 * weight must exceed 2/3 of the subset's total weight (ValidatorSetQ::check_signatures).
 *
 * `validators` is the validator subset of the block: a ValidatorSet means a masterchain block
 * (its first `main` validators, ConfigParam 34 of the latest key block); for shardchain blocks
 * pass the subset explicitly.
 */
export function verifyBlockSignatures(
  block: { rootHash: Buffer; fileHash: Buffer },
  signatures: BlockSignatures | CryptoSignatures,
  validators: ValidatorSet | ValidatorDescr[],
): BlockSignaturesCheck {
  const subset = Array.isArray(validators) ? validators : masterchainValidators(validators);
  const byNode = new Map<string, ValidatorDescr>();
  let totalWeight = 0n;
  for (const v of subset) {
    byNode.set(validatorNodeIdShort(v.publicKey).toString("hex"), v);
    totalWeight += v.weight;
  }
  if ("type" in signatures && signatures.type === "block_signatures_simplex") {
    throw new Error("verifyBlockSignatures: simplex-consensus signatures sign a different message; not supported");
  }
  const sigs = "signatures" in signatures && "sigWeight" in signatures ? signatures.signatures : (signatures as CryptoSignatures);
  const message = blockSignedMessage(block.rootHash, block.fileHash);
  const seen = new Set<string>();
  const errors: string[] = [];
  let signedWeight = 0n;
  let validSignatures = 0;
  let invalidSignatures = 0;
  let unknownSigners = 0;
  let duplicateSigners = 0;
  for (const [idx, pair] of sigs) {
    const id = pair.nodeIdShort.toString("hex");
    const v = byNode.get(id);
    if (!v) {
      unknownSigners++;
      errors.push(`signature ${idx}: unknown signer ${id}`);
      continue;
    }
    if (seen.has(id)) {
      duplicateSigners++;
      errors.push(`signature ${idx}: duplicate signer ${id}`);
      continue;
    }
    seen.add(id);
    if (pair.sign.type !== "ed25519_signature" || !ed25519Verify(v.publicKey, message, signatureBytes(pair.sign))) {
      invalidSignatures++;
      errors.push(`signature ${idx}: invalid signature by ${id}`);
      continue;
    }
    validSignatures++;
    signedWeight += v.weight;
  }
  const enough = signedWeight * 3n > totalWeight * 2n;
  if (!enough) errors.push(`signed weight ${signedWeight} is not above 2/3 of ${totalWeight}`);
  const res: BlockSignaturesCheck = {
    ok: enough && invalidSignatures === 0 && unknownSigners === 0 && duplicateSigners === 0,
    signedWeight,
    totalWeight,
    validSignatures,
    invalidSignatures,
    unknownSigners,
    duplicateSigners,
    errors,
  };
  if ("sigWeight" in signatures) {
    const bs = signatures as BlockSignatures;
    res.declaredCountsMatch = bs.sigCount === validSignatures && bs.sigWeight === signedWeight;
    res.validatorListHashMatches = computeValidatorSetHashShort(bs.catchainSeqno, subset) === bs.validatorListHashShort;
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// Block header proofs

/** Options of proveBlockHeader: what to keep besides the header. */
export interface ProveBlockHeaderOptions {
  /** Keep the whole ValueFlow (validators' BlockProof of 2020 did). */
  withValueFlow?: boolean;
  /** Keep the BlockExtra root cell (its four refs pruned), as validators' BlockProof of a non-key block does. */
  withExtraRoot?: boolean;
}


/**
 * A MERKLE_PROOF of a block keeping what a liteserver's block header proof keeps: the Block root
 * cell (global_id), the BlockInfo with its prev/master/vert refs, and the state_update
 * MERKLE_UPDATE cell (so old_hash / new_hash — the state hashes — are proven) with both states
 * pruned; value_flow and extra are pruned. Works on a full block or on a proof's virtual root.
 */
export function proveBlockHeader(blockRoot: Cell, opts: ProveBlockHeaderOptions = {}): Cell {
  const root = blockRoot.type === CellType.MerkleProof ? blockRoot.refs[0] : blockRoot;
  if (root.isExotic || root.beginParse().preloadUint(32) !== 0x11ef55aa) throw new Error("proveBlockHeader: not a Block");
  const [info, valueFlow, stateUpdate, extra] = root.refs;
  const keep = new Set<string>([root.hash().toString("hex")]);
  collectCellHashes(info, keep);
  keep.add(stateUpdate.hash().toString("hex"));
  if (opts.withValueFlow) collectCellHashes(valueFlow, keep);
  if (opts.withExtraRoot) keep.add(extra.hash().toString("hex"));
  return makeMerkleProof(root, keep);
}

/**
 * The state hashes a block header proof pins: the MERKLE_UPDATE's old_hash / new_hash (the state
 * before and after the block), read from a block (or its proof) whose state_update cell is present.
 */
export function blockStateHashes(blockRoot: Cell): { oldHash: Buffer; newHash: Buffer } {
  const root = blockRoot.type === CellType.MerkleProof ? blockRoot.refs[0] : blockRoot;
  const u = loadMerkleUpdate(root.refs[2]);
  return { oldHash: u.oldHash, newHash: u.newHash };
}
