// liteServer.partialBlockProof (getBlockProof): a chain of masterchain block links from a trusted block,
// as block::BlockProofLink::validate and BlockProofChain::validate check it.
import { Dictionary } from "@ton/core";
import {
  type CryptoSignatures,
  KEY_U16,
  computeValidatorSetHashShort,
  cryptoSignaturePairValue,
  loadValidatorSet,
  verifyBlockSignatures,
} from "@tongate/block";
import { blockIdToString, isMasterchainId, sameBlockId } from "./blockid.js";
import { deserializeBoc, hex, openMerkleProof } from "./cells.js";
import { checkStateMatchesBlock, expectTrustedId } from "./common.js";
import { fail, guard } from "./errors.js";
import { type ProvenBlock, checkBlockProofBoc } from "./header.js";
import {
  type ConfigRoot,
  loadMcBlockExtra,
  loadMcStateExtra,
  loadProvenBlockExtra,
  loadProvenState,
  lookupConfigParam,
  lookupPrevBlock,
  openStateProof,
} from "./state.js";
import {
  type LiteServerBlockLink,
  type LiteServerBlockLinkBack,
  type LiteServerBlockLinkForward,
  type LiteServerPartialBlockProof,
  type TonNodeBlockIdExt,
  checkBlockId,
  checkShape,
} from "./tl.js";
import { masterchainValidatorSubset, shuffleMcValidators } from "./validators.js";

export interface VerifiedBlockLink {
  type: "back" | "forward";
  from: TonNodeBlockIdExt;
  to: TonNodeBlockIdExt;
  toKeyBlock: boolean;
  /** gen_utime of the destination block (0 for a zerostate). */
  toUtime: number;
  /** Forward links: signed weight and total weight of the validator subset. */
  signedWeight?: bigint;
  totalWeight?: bigint;
}

function checkDestProof(link: { to: TonNodeBlockIdExt; dest_proof: Buffer; to_key_block: boolean }, what: string): number {
  if (link.to.seqno === 0) {
    if (!link.to_key_block) fail(`${what}: a zerostate destination must have to_key_block set`);
    return 0;
  }
  if (link.dest_proof.length === 0) fail(`${what}: contains no proof for destination block ${blockIdToString(link.to)}`);
  const dest = checkBlockProofBoc(link.dest_proof, link.to, `${what}: dest_proof`);
  if (dest.info.keyBlock !== link.to_key_block) fail(`${what}: incorrect to_key_block ${link.to_key_block} for destination block ${blockIdToString(link.to)}`);
  return dest.info.genUtime;
}

/** A backward link: `from`'s state (proven via its header's state_update) lists `to` in prev_blocks. */
export function verifyBlockLinkBack(link: LiteServerBlockLinkBack, what = "liteServer.blockLinkBack"): VerifiedBlockLink {
  checkShape(link, "liteServer.blockLinkBack", { to_key_block: "bool", from: "id", to: "id", dest_proof: "bytes", proof: "bytes", state_proof: "bytes" });
  return guard(what, () => {
    const from = checkBlockId(link.from, `${what}.from`);
    const to = checkBlockId(link.to, `${what}.to`);
    if (!isMasterchainId(from) || !isMasterchainId(to)) fail(`${what}: both blocks must be in the masterchain`);
    if (from.seqno <= to.seqno) fail(`${what}: backward link from ${blockIdToString(from)} to ${blockIdToString(to)} does not go back`);
    if (link.proof.length === 0) fail(`${what}: contains no proof for source block ${blockIdToString(from)}`);
    if (link.state_proof.length === 0) fail(`${what}: contains no proof for the source state of ${blockIdToString(from)}`);
    const src = checkBlockProofBoc(link.proof, from, `${what}: proof`, { stateHash: true });
    const [sp] = deserializeBoc(link.state_proof, `${what}: state_proof`, 1);
    const { state } = openStateProof(sp, src.stateHash!, `${what}: state_proof (state of ${blockIdToString(from)})`);
    checkStateMatchesBlock(state, from, `${what}: state_proof`);
    const old = lookupPrevBlock(loadMcStateExtra(state, `${what}: state_proof`), to.seqno, `${what}: state_proof`);
    if (!old) fail(`${what}: ${blockIdToString(to)} is not a previous masterchain block of ${blockIdToString(from)} (absent from prev_blocks)`);
    if (old.seqno !== to.seqno || !old.rootHash.equals(to.root_hash) || !old.fileHash.equals(to.file_hash)) {
      fail(`${what}: prev_blocks of ${blockIdToString(from)} has seqno ${old.seqno} root ${hex(old.rootHash)} file ${hex(old.fileHash)}, not ${blockIdToString(to)}`);
    }
    if (old.key !== link.to_key_block) fail(`${what}: prev_blocks marks ${blockIdToString(to)} key=${old.key}, the link says to_key_block=${link.to_key_block}`);
    const toUtime = checkDestProof(link, what);
    return { type: "back", from, to, toKeyBlock: link.to_key_block, toUtime };
  });
}

/** The config a forward link starts from: McBlockExtra.config of the key block `from`, or the zerostate's McStateExtra.config. */
function sourceConfig(from: TonNodeBlockIdExt, configProof: Buffer, what: string): ConfigRoot {
  if (from.seqno === 0) {
    const [cell] = deserializeBoc(configProof, `${what}: config_proof`, 1);
    const root = openMerkleProof(cell, from.root_hash, `${what}: config_proof (zerostate ${blockIdToString(from)})`);
    const state = loadProvenState(root, `${what}: config_proof`);
    checkStateMatchesBlock(state, from, `${what}: config_proof`);
    return loadMcStateExtra(state, `${what}: config_proof`).config;
  }
  const src: ProvenBlock = checkBlockProofBoc(configProof, from, `${what}: config_proof`);
  const mc = loadMcBlockExtra(loadProvenBlockExtra(src, `${what}: config_proof`).custom, `${what}: config_proof`);
  if (!src.info.keyBlock || !mc.config) fail(`${what}: source block ${blockIdToString(from)} of a forward link is not a key block (no config)`);
  return mc.config;
}

function signatureDict(sigs: LiteServerBlockLinkForward["signatures"], what: string): CryptoSignatures {
  const dict = Dictionary.empty(KEY_U16, cryptoSignaturePairValue);
  sigs.signatures.forEach((sig, i) => {
    if (!Buffer.isBuffer(sig.node_id_short) || sig.node_id_short.length !== 32 || !Buffer.isBuffer(sig.signature)) fail(`${what}: signature #${i} is malformed`);
    if (sig.signature.length !== 64) fail(`${what}: signature #${i} is ${sig.signature.length} bytes, not 64`);
    dict.set(i, { nodeIdShort: sig.node_id_short, sign: { type: "ed25519_signature", r: sig.signature.subarray(0, 32), s: sig.signature.subarray(32) } });
  });
  return dict;
}

/**
 * A forward link: `to` is signed by > 2/3 of the weight of the masterchain validators that ConfigParam 34 of
 * the key block (or zerostate) `from` defines, and those validators hash to the header's
 * gen_validator_list_hash_short.
 */
export function verifyBlockLinkForward(link: LiteServerBlockLinkForward, what = "liteServer.blockLinkForward"): VerifiedBlockLink {
  checkShape(link, "liteServer.blockLinkForward", { to_key_block: "bool", from: "id", to: "id", dest_proof: "bytes", config_proof: "bytes", signatures: "object" });
  return guard(what, () => {
    const from = checkBlockId(link.from, `${what}.from`);
    const to = checkBlockId(link.to, `${what}.to`);
    if (!isMasterchainId(from) || !isMasterchainId(to)) fail(`${what}: both blocks must be in the masterchain`);
    if (from.seqno >= to.seqno) fail(`${what}: forward link from ${blockIdToString(from)} to ${blockIdToString(to)} does not go forward`);
    if (link.config_proof.length === 0) fail(`${what}: contains no proof for source block ${blockIdToString(from)}`);
    const sigs = link.signatures;
    if (typeof sigs !== "object" || sigs === null || !Array.isArray(sigs.signatures)) fail(`${what}: signatures missing`);
    if (sigs.kind === "liteServer.signatureSet.simplex") fail(`${what}: simplex-consensus signature sets are not supported`);
    if (sigs.kind !== undefined && sigs.kind !== "liteServer.signatureSet.ordinary") fail(`${what}: unknown signature set ${sigs.kind}`);
    if (sigs.signatures.length === 0) fail(`${what}: forward link to ${blockIdToString(to)} contains no signatures`);
    const config = sourceConfig(from, link.config_proof, what);
    if (link.dest_proof.length === 0) fail(`${what}: contains no proof for destination block ${blockIdToString(to)}`);
    const dest = checkBlockProofBoc(link.dest_proof, to, `${what}: dest_proof`);
    if (dest.info.keyBlock !== link.to_key_block) fail(`${what}: incorrect to_key_block ${link.to_key_block} for destination block ${blockIdToString(to)}`);
    const p34 = lookupConfigParam(config, 34, `${what}: config_proof`);
    if (p34.type === "absent") fail(`${what}: source config has no current validator set (ConfigParam 34)`);
    const vset = loadValidatorSet(p34.cell.beginParse());
    const p28 = lookupConfigParam(config, 28, `${what}: config_proof`);
    const shuffle = shuffleMcValidators(p28.type === "found" ? p28.cell : null, `${what}: config_proof`);
    const cc = dest.info.genCatchainSeqno;
    const nodes = masterchainValidatorSubset(vset, shuffle, cc);
    const vsetHash = computeValidatorSetHashShort(cc, nodes);
    if (vsetHash !== dest.info.genValidatorListHashShort) {
      fail(
        `${what}: computed validator set for block ${blockIdToString(to)} with cc_seqno ${cc} starting from key block ${blockIdToString(from)} has hash ${vsetHash} different from ${dest.info.genValidatorListHashShort} stated in block header`,
      );
    }
    const setHash = sigs.validator_set_hash >>> 0;
    const sigCc = sigs.catchain_seqno ?? sigs.cc_seqno;
    if (setHash !== dest.info.genValidatorListHashShort || sigCc !== cc) {
      fail(`${what}: signature set is for validator set hash ${setHash} / catchain ${sigCc}, the block header says ${dest.info.genValidatorListHashShort} / ${cc}`);
    }
    const r = verifyBlockSignatures({ rootHash: to.root_hash, fileHash: to.file_hash }, signatureDict(sigs, what), nodes);
    if (!r.ok) fail(`${what}: error checking signatures for block ${blockIdToString(to)}: ${r.errors.join("; ")}`);
    return { type: "forward", from, to, toKeyBlock: link.to_key_block, toUtime: dest.info.genUtime, signedWeight: r.signedWeight, totalWeight: r.totalWeight };
  });
}

export function verifyBlockLink(link: LiteServerBlockLink, what?: string): VerifiedBlockLink {
  const kind = (link as { kind?: string }).kind;
  if (kind === "liteServer.blockLinkBack") return verifyBlockLinkBack(link as LiteServerBlockLinkBack, what);
  if (kind === "liteServer.blockLinkForward") return verifyBlockLinkForward(link as LiteServerBlockLinkForward, what);
  return fail(`${what ?? "block link"}: unknown block link ${String(kind)}`);
}

export interface VerifiedPartialBlockProof {
  from: TonNodeBlockIdExt;
  /** The block the chain reaches: proven (with the trusted `from`) to be a block of the masterchain. */
  to: TonNodeBlockIdExt;
  /** The server says the chain reaches the requested target (with `target` given, to == target is checked). */
  complete: boolean;
  steps: VerifiedBlockLink[];
  /** The newest key block the chain passes (to_key_block), if any. */
  lastKeyBlock: TonNodeBlockIdExt | null;
}

/**
 * Verifies a liteServer.partialBlockProof from the trusted masterchain block: every step is verified and
 * the steps chain from → … → to. With `target` (getBlockProof mode.1), a complete proof must end there.
 */
export function verifyPartialBlockProof(
  answer: LiteServerPartialBlockProof | object,
  trusted: TonNodeBlockIdExt,
  target?: TonNodeBlockIdExt,
): VerifiedPartialBlockProof {
  const what = "liteServer.partialBlockProof";
  const a = checkShape<LiteServerPartialBlockProof>(answer, what, { complete: "bool", from: "id", to: "id", steps: "vector" });
  return guard(what, () => {
    expectTrustedId(a.from, trusted, `${what}.from`);
    if (!isMasterchainId(a.from) || !isMasterchainId(a.to)) fail(`${what}: both ends must be masterchain blocks`);
    if (a.steps.length === 0 && !sameBlockId(a.from, a.to)) fail(`${what}: no steps, but from ${blockIdToString(a.from)} and to ${blockIdToString(a.to)} differ`);
    let cur = a.from;
    let lastKeyBlock: TonNodeBlockIdExt | null = null;
    const steps = a.steps.map((link, i) => {
      const w = `${what}: step #${i + 1}`;
      const step = verifyBlockLink(link, w);
      if (!sameBlockId(step.from, cur)) fail(`${w} begins with block ${blockIdToString(step.from)} but the previous step ends at ${blockIdToString(cur)}`);
      if (step.toKeyBlock && (!lastKeyBlock || lastKeyBlock.seqno < step.to.seqno)) lastKeyBlock = step.to;
      cur = step.to;
      return step;
    });
    if (!sameBlockId(cur, a.to)) fail(`${what}: last step ends at ${blockIdToString(cur)}, not at the declared destination ${blockIdToString(a.to)}`);
    if (target && a.complete && !sameBlockId(a.to, target)) fail(`${what}: complete proof ends at ${blockIdToString(a.to)}, not at the target ${blockIdToString(target)}`);
    if (target && !a.complete && sameBlockId(a.to, target)) fail(`${what}: proof reaches the target but is marked incomplete`);
    return { from: a.from, to: a.to, complete: a.complete, steps, lastKeyBlock };
  });
}

