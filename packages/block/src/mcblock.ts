// Masterchain block extra: McBlockExtra, ShardHashes (BinTree ShardDescr), ShardFees,
// CryptoSignaturePair, ConfigParams.
import {
  type Builder,
  type Cell,
  type CurrencyCollection,
  type Dictionary,
  type DictionaryValue,
  type Slice,
  Dictionary as Dict,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from "@ton/core";
import { storeBits256 } from "./blockid.js";
import { addCurrencyCollections, zeroCurrencyCollection } from "./currency.js";
import {
  type AugValue,
  type Augmentation,
  buildHashmap,
  emptyAugDict,
  loadHashmap,
  loadHashmapAugE,
  loadHashmapE,
  refValueCodec,
  storeHashmapAugE,
  storeHashmapE,
  valueCodec,
} from "./dict.js";
import { type InMsg, loadInMsg, storeInMsg } from "./messages.js";
import { SHARD_FULL, shardChild } from "./shard.js";

// ---------------------------------------------------------------------------------------------
// BinTree

/** bt_leaf$0 leaf:X / bt_fork$1 left:^(BinTree X) right:^(BinTree X). */
export type BinTree<X> = { type: "leaf"; leaf: X } | { type: "fork"; left: BinTree<X>; right: BinTree<X> };

export function loadBinTree<X>(s: Slice, loadLeaf: (s: Slice) => X): BinTree<X> {
  if (!s.loadBit()) return { type: "leaf", leaf: loadLeaf(s) };
  const left = loadBinTree(s.loadRef().beginParse(), loadLeaf);
  const right = loadBinTree(s.loadRef().beginParse(), loadLeaf);
  return { type: "fork", left, right };
}

export function storeBinTree<X>(src: BinTree<X>, storeLeaf: (x: X) => (b: Builder) => void) {
  return (b: Builder): void => {
    if (src.type === "leaf") {
      b.storeBit(0).store(storeLeaf(src.leaf));
    } else {
      b.storeBit(1);
      b.storeRef(beginCell().store(storeBinTree(src.left, storeLeaf)).endCell());
      b.storeRef(beginCell().store(storeBinTree(src.right, storeLeaf)).endCell());
    }
  };
}

/** Leaves of a BinTree with the shard id each one stands for (root = `root`, default the full shard). */
export function binTreeShards<X>(tree: BinTree<X>, root: bigint = SHARD_FULL): { shard: bigint; leaf: X }[] {
  if (tree.type === "leaf") return [{ shard: root, leaf: tree.leaf }];
  return [...binTreeShards(tree.left, shardChild(root, false)), ...binTreeShards(tree.right, shardChild(root, true))];
}

/** A BinTree with the given leaves, which must tile the full shard (keyed by shard id). */
export function binTreeFromShards<X>(leaves: { shard: bigint; leaf: X }[], root: bigint = SHARD_FULL): BinTree<X> {
  const exact = leaves.find((l) => l.shard === root);
  if (exact) {
    if (leaves.length !== 1) throw new Error("BinTree: overlapping shards");
    return { type: "leaf", leaf: exact.leaf };
  }
  if (leaves.length === 0) throw new Error(`BinTree: no leaf for shard ${root.toString(16)}`);
  const l = shardChild(root, false);
  const r = shardChild(root, true);
  const within = (child: bigint) =>
    leaves.filter((x) => {
      const lb = child & -child;
      const mask = ~(lb * 2n - 1n) & ((1n << 64n) - 1n);
      return (x.shard & mask) === (child & mask) && (x.shard & -x.shard) <= lb;
    });
  return { type: "fork", left: binTreeFromShards(within(l), l), right: binTreeFromShards(within(r), r) };
}

// ---------------------------------------------------------------------------------------------
// ShardDescr

/** fsm_none$0 / fsm_split$10 split_utime interval / fsm_merge$11 merge_utime interval. */
export type FutureSplitMerge =
  | { type: "fsm_none" }
  | { type: "fsm_split"; splitUtime: number; interval: number }
  | { type: "fsm_merge"; mergeUtime: number; interval: number };

export function loadFutureSplitMerge(s: Slice): FutureSplitMerge {
  if (!s.loadBit()) return { type: "fsm_none" };
  if (!s.loadBit()) return { type: "fsm_split", splitUtime: s.loadUint(32), interval: s.loadUint(32) };
  return { type: "fsm_merge", mergeUtime: s.loadUint(32), interval: s.loadUint(32) };
}

export function storeFutureSplitMerge(src: FutureSplitMerge) {
  return (b: Builder): void => {
    if (src.type === "fsm_none") b.storeBit(0);
    else if (src.type === "fsm_split") b.storeUint(0b10, 2).storeUint(src.splitUtime, 32).storeUint(src.interval, 32);
    else b.storeUint(0b11, 2).storeUint(src.mergeUtime, 32).storeUint(src.interval, 32);
  };
}

/**
 * shard_descr#b / shard_descr_new#a (the latter keeps fees_collected and funds_created in a ref).
 */
export interface ShardDescr {
  type: "shard_descr" | "shard_descr_new";
  seqNo: number;
  regMcSeqno: number;
  startLt: bigint;
  endLt: bigint;
  rootHash: Buffer;
  fileHash: Buffer;
  beforeSplit: boolean;
  beforeMerge: boolean;
  wantSplit: boolean;
  wantMerge: boolean;
  nxCcUpdated: boolean;
  flags: number;
  nextCatchainSeqno: number;
  nextValidatorShard: bigint;
  minRefMcSeqno: number;
  genUtime: number;
  splitMergeAt: FutureSplitMerge;
  feesCollected: CurrencyCollection;
  fundsCreated: CurrencyCollection;
}

export function loadShardDescr(s: Slice): ShardDescr {
  const tag = s.loadUint(4);
  if (tag !== 0xb && tag !== 0xa) throw new Error(`ShardDescr: bad tag 0x${tag.toString(16)}`);
  const seqNo = s.loadUint(32);
  const regMcSeqno = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const rootHash = s.loadBuffer(32);
  const fileHash = s.loadBuffer(32);
  const beforeSplit = s.loadBit();
  const beforeMerge = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const nxCcUpdated = s.loadBit();
  const flags = s.loadUint(3);
  if (flags !== 0) throw new Error(`ShardDescr: flags ${flags} != 0`);
  const nextCatchainSeqno = s.loadUint(32);
  const nextValidatorShard = s.loadUintBig(64);
  const minRefMcSeqno = s.loadUint(32);
  const genUtime = s.loadUint(32);
  const splitMergeAt = loadFutureSplitMerge(s);
  const fs = tag === 0xb ? s : s.loadRef().beginParse();
  const feesCollected = loadCurrencyCollection(fs);
  const fundsCreated = loadCurrencyCollection(fs);
  return {
    type: tag === 0xb ? "shard_descr" : "shard_descr_new",
    seqNo,
    regMcSeqno,
    startLt,
    endLt,
    rootHash,
    fileHash,
    beforeSplit,
    beforeMerge,
    wantSplit,
    wantMerge,
    nxCcUpdated,
    flags,
    nextCatchainSeqno,
    nextValidatorShard,
    minRefMcSeqno,
    genUtime,
    splitMergeAt,
    feesCollected,
    fundsCreated,
  };
}

export function storeShardDescr(src: ShardDescr) {
  return (b: Builder): void => {
    b.storeUint(src.type === "shard_descr" ? 0xb : 0xa, 4);
    b.storeUint(src.seqNo, 32).storeUint(src.regMcSeqno, 32);
    b.storeUint(src.startLt, 64).storeUint(src.endLt, 64);
    storeBits256(b, src.rootHash, "ShardDescr.root_hash");
    storeBits256(b, src.fileHash, "ShardDescr.file_hash");
    b.storeBit(src.beforeSplit).storeBit(src.beforeMerge).storeBit(src.wantSplit).storeBit(src.wantMerge).storeBit(src.nxCcUpdated);
    b.storeUint(src.flags, 3);
    b.storeUint(src.nextCatchainSeqno, 32).storeUint(src.nextValidatorShard, 64);
    b.storeUint(src.minRefMcSeqno, 32).storeUint(src.genUtime, 32);
    b.store(storeFutureSplitMerge(src.splitMergeAt));
    const fees = (x: Builder) => x.store(storeCurrencyCollection(src.feesCollected)).store(storeCurrencyCollection(src.fundsCreated));
    if (src.type === "shard_descr") fees(b);
    else b.storeRef(fees(beginCell()).endCell());
  };
}

// ---------------------------------------------------------------------------------------------
// ShardHashes

export const KEY_WORKCHAIN = Dict.Keys.Int(32);

export const shardDescrTreeValue: DictionaryValue<BinTree<ShardDescr>> = refValueCodec(
  (s) => loadBinTree(s, loadShardDescr),
  (t) => storeBinTree(t, storeShardDescr),
);

/** _ (HashmapE 32 ^(BinTree ShardDescr)) = ShardHashes; keyed by workchain id. */
export type ShardHashes = Dictionary<number, BinTree<ShardDescr>>;

export function loadShardHashes(s: Slice): ShardHashes {
  return loadHashmapE(s, KEY_WORKCHAIN, shardDescrTreeValue);
}

export function storeShardHashes(src: ShardHashes) {
  return storeHashmapE(src, KEY_WORKCHAIN, shardDescrTreeValue);
}

export function emptyShardHashes(): ShardHashes {
  return Dict.empty(KEY_WORKCHAIN, shardDescrTreeValue);
}

/** Every shard's top block from ShardHashes: (workchain, shard id, descr), ordered by workchain then shard. */
export function shardHashesList(src: ShardHashes): { workchainId: number; shard: bigint; descr: ShardDescr }[] {
  const wcs = [...src.keys()].sort((a, b) => a - b);
  return wcs.flatMap((wc) => binTreeShards(src.get(wc)!).map((x) => ({ workchainId: wc, shard: x.shard, descr: x.leaf })));
}

// ---------------------------------------------------------------------------------------------
// ShardFees

/** _ fees:CurrencyCollection create:CurrencyCollection = ShardFeeCreated. */
export interface ShardFeeCreated {
  fees: CurrencyCollection;
  create: CurrencyCollection;
}

export function loadShardFeeCreated(s: Slice): ShardFeeCreated {
  return { fees: loadCurrencyCollection(s), create: loadCurrencyCollection(s) };
}

export function storeShardFeeCreated(src: ShardFeeCreated) {
  return (b: Builder): void => {
    b.store(storeCurrencyCollection(src.fees)).store(storeCurrencyCollection(src.create));
  };
}

export const shardFeeCreatedAug: Augmentation<ShardFeeCreated> = {
  load: loadShardFeeCreated,
  store: storeShardFeeCreated,
  fork: (a, b) => ({ fees: addCurrencyCollections(a.fees, b.fees), create: addCurrencyCollections(a.create, b.create) }),
  empty: () => ({ fees: zeroCurrencyCollection(), create: zeroCurrencyCollection() }),
};

export const shardFeeCreatedValue: DictionaryValue<ShardFeeCreated> = valueCodec(loadShardFeeCreated, storeShardFeeCreated);

/** Key of ShardFees: [ workchain:int32 shard:uint64 ] as a 96-bit unsigned value. */
export const KEY_SHARD96 = Dict.Keys.BigUint(96);

export function shardKey96(workchainId: number, shard: bigint): bigint {
  return (BigInt.asUintN(32, BigInt(workchainId)) << 64n) | shard;
}

export function shardKey96Parse(key: bigint): { workchainId: number; shard: bigint } {
  return { workchainId: Number(BigInt.asIntN(32, key >> 64n)), shard: key & ((1n << 64n) - 1n) };
}

/** _ (HashmapAugE 96 ShardFeeCreated ShardFeeCreated) = ShardFees. */
export type ShardFees = Dictionary<bigint, AugValue<ShardFeeCreated, ShardFeeCreated>>;

export function loadShardFees(s: Slice): ShardFees {
  return loadHashmapAugE(s, KEY_SHARD96, shardFeeCreatedValue, shardFeeCreatedAug).dict;
}

export function storeShardFees(src: ShardFees) {
  return storeHashmapAugE(src, KEY_SHARD96, shardFeeCreatedValue, shardFeeCreatedAug);
}

export function emptyShardFees(): ShardFees {
  return emptyAugDict(KEY_SHARD96, shardFeeCreatedValue, shardFeeCreatedAug);
}

// ---------------------------------------------------------------------------------------------
// Signatures

/** ed25519_signature#5 R:bits256 s:bits256 = CryptoSignatureSimple. */
export interface CryptoSignatureSimple {
  r: Buffer;
  s: Buffer;
}

/**
 * _ CryptoSignatureSimple = CryptoSignature;
 * chained_signature#f signed_cert:^SignedCertificate temp_key_signature:CryptoSignatureSimple = CryptoSignature
 * (the certificate is kept as its cell).
 */
export type CryptoSignature =
  | ({ type: "ed25519_signature" } & CryptoSignatureSimple)
  | { type: "chained_signature"; signedCert: Cell; tempKeySignature: CryptoSignatureSimple };

export function loadCryptoSignatureSimple(s: Slice): CryptoSignatureSimple {
  const tag = s.loadUint(4);
  if (tag !== 5) throw new Error(`CryptoSignatureSimple: bad tag ${tag}`);
  return { r: s.loadBuffer(32), s: s.loadBuffer(32) };
}

export function storeCryptoSignatureSimple(src: CryptoSignatureSimple) {
  return (b: Builder): void => {
    b.storeUint(5, 4);
    storeBits256(b, src.r, "signature R");
    storeBits256(b, src.s, "signature s");
  };
}

export function loadCryptoSignature(s: Slice): CryptoSignature {
  const tag = s.preloadUint(4);
  if (tag === 5) return { type: "ed25519_signature", ...loadCryptoSignatureSimple(s) };
  if (tag === 0xf) {
    s.skip(4);
    const signedCert = s.loadRef();
    return { type: "chained_signature", signedCert, tempKeySignature: loadCryptoSignatureSimple(s) };
  }
  throw new Error(`CryptoSignature: bad tag ${tag}`);
}

export function storeCryptoSignature(src: CryptoSignature) {
  return (b: Builder): void => {
    if (src.type === "ed25519_signature") {
      b.store(storeCryptoSignatureSimple(src));
    } else {
      b.storeUint(0xf, 4).storeRef(src.signedCert).store(storeCryptoSignatureSimple(src.tempKeySignature));
    }
  };
}

/** The 64-byte ed25519 signature (R || s). */
export function signatureBytes(sig: CryptoSignature): Buffer {
  const simple = sig.type === "ed25519_signature" ? sig : sig.tempKeySignature;
  return Buffer.concat([simple.r, simple.s]);
}

/** sig_pair$_ node_id_short:bits256 sign:CryptoSignature = CryptoSignaturePair. */
export interface CryptoSignaturePair {
  nodeIdShort: Buffer;
  sign: CryptoSignature;
}

export function loadCryptoSignaturePair(s: Slice): CryptoSignaturePair {
  return { nodeIdShort: s.loadBuffer(32), sign: loadCryptoSignature(s) };
}

export function storeCryptoSignaturePair(src: CryptoSignaturePair) {
  return (b: Builder): void => {
    storeBits256(b, src.nodeIdShort, "CryptoSignaturePair.node_id_short");
    b.store(storeCryptoSignature(src.sign));
  };
}

export const KEY_U16 = Dict.Keys.Uint(16);
export const cryptoSignaturePairValue: DictionaryValue<CryptoSignaturePair> = valueCodec(loadCryptoSignaturePair, storeCryptoSignaturePair);

/** HashmapE 16 CryptoSignaturePair (prev_blk_signatures, BlockSignatures.signatures). */
export type CryptoSignatures = Dictionary<number, CryptoSignaturePair>;

export function loadCryptoSignatures(s: Slice): CryptoSignatures {
  return loadHashmapE(s, KEY_U16, cryptoSignaturePairValue);
}

export function storeCryptoSignatures(src: CryptoSignatures) {
  return storeHashmapE(src, KEY_U16, cryptoSignaturePairValue);
}

export function emptyCryptoSignatures(): CryptoSignatures {
  return Dict.empty(KEY_U16, cryptoSignaturePairValue);
}

// ---------------------------------------------------------------------------------------------
// ConfigParams

export const configParamValue: DictionaryValue<Cell> = Dict.Values.Cell();

/** _ config_addr:bits256 config:^(Hashmap 32 ^Cell) = ConfigParams. */
export interface ConfigParams {
  configAddr: Buffer;
  config: Dictionary<number, Cell>;
  /** The dictionary's root cell, stored as is when given (a collator shares one config cell across states). */
  root?: Cell;
}

export function loadConfigParams(s: Slice): ConfigParams {
  const configAddr = s.loadBuffer(32);
  const config = loadHashmap(s.loadRef(), KEY_WORKCHAIN, configParamValue);
  return { configAddr, config };
}

export function storeConfigParams(src: ConfigParams) {
  return (b: Builder): void => {
    storeBits256(b, src.configAddr, "ConfigParams.config_addr");
    b.storeRef(src.root ?? buildHashmap(src.config, KEY_WORKCHAIN, configParamValue));
  };
}

// ---------------------------------------------------------------------------------------------
// McBlockExtra

/**
 * masterchain_block_extra#cca5 key_block:(## 1) shard_hashes:ShardHashes shard_fees:ShardFees
 *   ^[ prev_blk_signatures:(HashmapE 16 CryptoSignaturePair) recover_create_msg:(Maybe ^InMsg)
 *      mint_msg:(Maybe ^InMsg) ]
 *   config:key_block?ConfigParams = McBlockExtra.
 */
export interface McBlockExtra {
  keyBlock: boolean;
  shardHashes: ShardHashes;
  shardFees: ShardFees;
  prevBlkSignatures: CryptoSignatures;
  recoverCreateMsg: InMsg | null;
  mintMsg: InMsg | null;
  /** Present iff keyBlock. */
  config?: ConfigParams;
}

export function loadMcBlockExtra(s: Slice): McBlockExtra {
  const tag = s.loadUint(16);
  if (tag !== 0xcca5) throw new Error(`McBlockExtra: bad tag 0x${tag.toString(16)}`);
  const keyBlock = s.loadBit();
  const shardHashes = loadShardHashes(s);
  const shardFees = loadShardFees(s);
  const r = s.loadRef().beginParse();
  const prevBlkSignatures = loadCryptoSignatures(r);
  const rc = r.loadMaybeRef();
  const mm = r.loadMaybeRef();
  r.endParse();
  const out: McBlockExtra = {
    keyBlock,
    shardHashes,
    shardFees,
    prevBlkSignatures,
    recoverCreateMsg: rc ? loadInMsg(rc.beginParse()) : null,
    mintMsg: mm ? loadInMsg(mm.beginParse()) : null,
  };
  if (keyBlock) out.config = loadConfigParams(s);
  return out;
}

export function storeMcBlockExtra(src: McBlockExtra) {
  return (b: Builder): void => {
    if (src.keyBlock !== (src.config !== undefined)) throw new Error("McBlockExtra: config must be present iff key_block");
    b.storeUint(0xcca5, 16);
    b.storeBit(src.keyBlock);
    b.store(storeShardHashes(src.shardHashes));
    b.store(storeShardFees(src.shardFees));
    const r = beginCell().store(storeCryptoSignatures(src.prevBlkSignatures));
    r.storeMaybeRef(src.recoverCreateMsg ? beginCell().store(storeInMsg(src.recoverCreateMsg)).endCell() : null);
    r.storeMaybeRef(src.mintMsg ? beginCell().store(storeInMsg(src.mintMsg)).endCell() : null);
    b.storeRef(r.endCell());
    if (src.config) b.store(storeConfigParams(src.config));
  };
}
