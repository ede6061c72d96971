// A small synthetic chain built with @tongate/block's storers, for the answers no real fixture covers:
// masterchain states with ShardHashes / prev_blocks / ShardAccounts, a key block with a validator set
// (ConfigParam 34, shuffled masterchain subset via ConfigParam 28), blocks signed by those validators,
// and a split basechain (two shard blocks). Proofs over it are cut with helpers.merkleProof.
import { createHash } from "node:crypto";
import {
  Cell,
  type Dictionary,
  Dictionary as Dict,
  beginCell,
  loadCurrencyCollection,
  storeCurrencyCollection,
} from "@ton/core";
import { keyPairFromSeed, sign } from "@ton/crypto";
import {
  type Augmentation,
  type Block,
  type BlockInfo,
  type ShardDescr,
  type ValidatorSet,
  KEY_256,
  KEY_U16,
  KEY_WORKCHAIN,
  SHARD_FULL,
  augValueCodec,
  binTreeFromShards,
  blockSignedMessage,
  computeValidatorSetHashShort,
  configParamValue,
  emptyCryptoSignatures,
  emptyInMsgDescr,
  emptyOldMcBlocksInfo,
  emptyOutMsgDescr,
  emptyShardAccountBlocks,
  emptyShardFees,
  emptyShardHashes,
  loadBlock,
  makeMerkleUpdate,
  shardIdentOf,
  storeBlock,
  storeHashmapAugE,
  storeMcStateExtra,
  storeShardIdent,
  storeValidatorSet,
  validatorDescrValue,
  validatorNodeIdShort,
  valueCodec,
} from "@tongate/block";
import { masterchainValidatorSubset } from "../src/index.js";
import type { LiteServerSignatureSet, TonNodeBlockIdExt } from "../src/index.js";
import { fixtureBytes, prunedBranch } from "./helpers.js";

export const GLOBAL_ID = -239;

function sha(s: string): Buffer {
  return createHash("sha256").update(s).digest();
}

export interface Account {
  id: Buffer;
  cell: Cell;
  lastTransHash: Buffer;
  lastTransLt: bigint;
  balance: bigint;
}

export function makeAccount(name: string, workchainPrefix?: Buffer): Account {
  const id = sha(`account ${name}`);
  if (workchainPrefix) workchainPrefix.copy(id, 0);
  const code = beginCell().storeUint(0xc0de, 16).storeStringTail(name).endCell();
  const data = beginCell().storeUint(42, 32).endCell();
  // An opaque Account-like cell: the verifier only hashes it.
  const cell = beginCell().storeUint(1, 1).storeBuffer(id).storeCoins(1000n).storeRef(code).storeRef(data).endCell();
  return { id, cell, lastTransHash: sha(`last tx ${name}`), lastTransLt: 1000n + BigInt(name.length), balance: 1000n };
}

const depthBalanceAug: Augmentation<bigint> = {
  load: (s) => {
    s.loadUint(5);
    return loadCurrencyCollection(s).coins;
  },
  store: (v) => (b) => void b.storeUint(0, 5).store(storeCurrencyCollection({ coins: v })),
  fork: (a, b) => a + b,
  empty: () => 0n,
};

const shardAccountValue = valueCodec<Account>(
  () => {
    throw new Error("not needed");
  },
  (a) => (b) => void b.storeRef(a.cell).storeBuffer(a.lastTransHash).storeUint(a.lastTransLt, 64),
);

function shardAccountsCell(accounts: Account[]): Cell {
  const dict = Dict.empty(KEY_256, augValueCodec(depthBalanceAug, shardAccountValue));
  for (const a of accounts) dict.set(BigInt("0x" + a.id.toString("hex")), { extra: a.balance, value: a });
  return beginCell().store(storeHashmapAugE(dict, KEY_256, shardAccountValue, depthBalanceAug)).endCell();
}

export function shardStateCell(p: { workchain: number; shard: bigint; seqno: number; accounts: Account[]; custom: Cell | null }): Cell {
  const other = beginCell()
    .storeUint(0, 64)
    .storeUint(0, 64)
    .store(storeCurrencyCollection({ coins: 1n }))
    .store(storeCurrencyCollection({ coins: 0n }))
    .storeBit(0)
    .storeBit(0)
    .endCell();
  return beginCell()
    .storeUint(0x9023afe2, 32)
    .storeInt(GLOBAL_ID, 32)
    .store(storeShardIdent(shardIdentOf(p.workchain, p.shard)))
    .storeUint(p.seqno, 32)
    .storeUint(0, 32)
    .storeUint(1700000000 + p.seqno, 32)
    .storeUint(BigInt(p.seqno) * 1000000n + 5n, 64)
    .storeUint(1, 32)
    .storeRef(beginCell().storeUint(0, 3).endCell())
    .storeBit(0)
    .storeRef(shardAccountsCell(p.accounts))
    .storeRef(other)
    .storeMaybeRef(p.custom)
    .endCell();
}

// ---------------------------------------------------------------------------------------------------------
// Validators and config

export interface Validator {
  publicKey: Buffer;
  secretKey: Buffer;
  weight: bigint;
}

export const VALIDATORS: Validator[] = [10n, 20n, 30n, 40n].map((weight, i) => {
  const kp = keyPairFromSeed(sha(`validator ${i}`));
  return { publicKey: kp.publicKey, secretKey: kp.secretKey, weight };
});

export function validatorSet(main: number): ValidatorSet {
  const list = Dict.empty(KEY_U16, validatorDescrValue);
  VALIDATORS.forEach((v, i) => list.set(i, { type: "validator", publicKey: v.publicKey, weight: v.weight }));
  const totalWeight = VALIDATORS.reduce((s, v) => s + v.weight, 0n);
  return { type: "validators_ext", utimeSince: 1000, utimeUntil: 2000000000, total: VALIDATORS.length, main, totalWeight, list };
}

export function configDict(vset: ValidatorSet, shuffle: boolean): Dictionary<number, Cell> {
  const d = Dict.empty(KEY_WORKCHAIN, configParamValue);
  d.set(0, beginCell().storeBuffer(Buffer.alloc(32, 0x55)).endCell());
  d.set(1, beginCell().storeBuffer(Buffer.alloc(32, 0x33)).endCell());
  d.set(28, beginCell().storeUint(0xc2, 8).storeUint(0, 7).storeBit(shuffle).storeUint(250, 32).storeUint(250, 32).storeUint(1000, 32).storeUint(7, 32).endCell());
  d.set(34, beginCell().store(storeValidatorSet(vset)).endCell());
  return d;
}

// ---------------------------------------------------------------------------------------------------------
// Blocks

const MC_TEMPLATE: Block = loadBlock(Cell.fromBoc(fixtureBytes("proofs/mainnet_mc_3082182.boc"))[0].beginParse());
const SHARD_TEMPLATE: Block = loadBlock(Cell.fromBoc(fixtureBytes("blocks/mainnet_0_a000000000000000_54302208.boc"))[0].beginParse());

export interface SynthBlock {
  root: Cell;
  id: TonNodeBlockIdExt;
  data: Buffer;
  state: Cell;
  info: BlockInfo;
}

function blockOf(p: {
  workchain: number;
  shard: bigint;
  seqno: number;
  state: Cell;
  keyBlock?: boolean;
  custom?: Block["extra"]["custom"];
  cc: number;
  vsetHash: number;
  prevKey: number;
}): SynthBlock {
  const t = p.workchain === -1 ? MC_TEMPLATE : SHARD_TEMPLATE;
  const oldState = beginCell().storeUint(p.seqno, 32).storeStringTail("previous state").endCell();
  const info: BlockInfo = {
    ...t.info,
    shard: shardIdentOf(p.workchain, p.shard),
    seqNo: p.seqno,
    keyBlock: p.keyBlock ?? false,
    genUtime: 1700000000 + p.seqno,
    genCatchainSeqno: p.cc,
    genValidatorListHashShort: p.vsetHash,
    prevKeyBlockSeqno: p.prevKey,
    beforeSplit: false,
    afterSplit: false,
    afterMerge: false,
    prevRef: { type: "prev_blk_info", prev: { endLt: 1n, seqNo: p.seqno - 1, rootHash: sha(`prev ${p.seqno}`), fileHash: sha(`prevf ${p.seqno}`) } },
  };
  const block: Block = {
    globalId: GLOBAL_ID,
    info,
    valueFlow: t.valueFlow,
    stateUpdate: makeMerkleUpdate(prunedBranch(oldState, 1), prunedBranch(p.state, 1)),
    extra: {
      inMsgDescr: emptyInMsgDescr(),
      outMsgDescr: emptyOutMsgDescr(),
      accountBlocks: emptyShardAccountBlocks(),
      randSeed: sha(`rand ${p.seqno}`),
      createdBy: sha(`creator ${p.seqno}`),
      custom: p.custom ?? null,
    },
  };
  const root = beginCell().store(storeBlock(block)).endCell();
  const data = root.toBoc();
  const id: TonNodeBlockIdExt = {
    workchain: p.workchain,
    shard: BigInt.asIntN(64, p.shard),
    seqno: p.seqno,
    root_hash: root.hash(),
    file_hash: createHash("sha256").update(data).digest(),
  };
  return { root, id, data, state: p.state, info };
}

function shardDescrOf(b: SynthBlock): ShardDescr {
  return {
    type: "shard_descr_new",
    seqNo: b.id.seqno,
    regMcSeqno: 10,
    startLt: 1n,
    endLt: 2n,
    rootHash: b.id.root_hash,
    fileHash: b.id.file_hash,
    beforeSplit: false,
    beforeMerge: false,
    wantSplit: false,
    wantMerge: false,
    nxCcUpdated: false,
    flags: 0,
    nextCatchainSeqno: 1,
    nextValidatorShard: BigInt.asUintN(64, b.id.shard),
    minRefMcSeqno: 1,
    genUtime: b.info.genUtime,
    splitMergeAt: { type: "fsm_none" },
    feesCollected: { coins: 1n },
    fundsCreated: { coins: 2n },
  };
}

export function signatureSet(block: SynthBlock, signers: number[]): LiteServerSignatureSet {
  return {
    kind: "liteServer.signatureSet.ordinary",
    validator_set_hash: block.info.genValidatorListHashShort | 0,
    catchain_seqno: block.info.genCatchainSeqno,
    signatures: signers.map((i) => ({
      kind: "liteServer.signature",
      node_id_short: validatorNodeIdShort(VALIDATORS[i].publicKey),
      signature: sign(blockSignedMessage(block.id.root_hash, block.id.file_hash), VALIDATORS[i].secretKey),
    })),
  };
}

export interface SynthChain {
  vset: ValidatorSet;
  config: Dictionary<number, Cell>;
  /** Masterchain accounts (in states 10..12) and basechain accounts (left shard). */
  mcAccount: Account;
  wcAccount: Account;
  /** mc 10: key block with the config; 11, 12: ordinary blocks signed by 10's validators. */
  mc10: SynthBlock;
  mc11: SynthBlock;
  mc12: SynthBlock;
  /** wc 0 split in two: 0:4000… (seqno 5, holds wcAccount) and 0:c000… (seqno 6). */
  left: SynthBlock;
  right: SynthBlock;
  cc: number;
}

export function buildChain(opts: { shuffle?: boolean; main?: number; headerShuffle?: boolean } = {}): SynthChain {
  const shuffle = opts.shuffle ?? true;
  const vset = validatorSet(opts.main ?? 3);
  const config = configDict(vset, shuffle);
  const cc = 77;
  const nodes = masterchainValidatorSubset(vset, opts.headerShuffle ?? shuffle, cc);
  const vsetHash = computeValidatorSetHashShort(cc, nodes);
  const mcAccount = makeAccount("mc");
  const wcAccount = makeAccount("wc", Buffer.from([0x12]));

  const leftState = shardStateCell({ workchain: 0, shard: 0x4000000000000000n, seqno: 5, accounts: [wcAccount, makeAccount("wc2", Buffer.from([0x30]))], custom: null });
  const rightState = shardStateCell({ workchain: 0, shard: 0xc000000000000000n, seqno: 6, accounts: [makeAccount("wc3", Buffer.from([0xd0]))], custom: null });
  const left = blockOf({ workchain: 0, shard: 0x4000000000000000n, seqno: 5, state: leftState, cc, vsetHash, prevKey: 10 });
  const right = blockOf({ workchain: 0, shard: 0xc000000000000000n, seqno: 6, state: rightState, cc, vsetHash, prevKey: 10 });
  const shardHashes = emptyShardHashes();
  shardHashes.set(
    0,
    binTreeFromShards([
      { shard: 0x4000000000000000n, leaf: shardDescrOf(left) },
      { shard: 0xc000000000000000n, leaf: shardDescrOf(right) },
    ]),
  );

  const prevBlocks = emptyOldMcBlocksInfo();
  const mcState = (seqno: number) =>
    shardStateCell({
      workchain: -1,
      shard: SHARD_FULL,
      seqno,
      accounts: [mcAccount, makeAccount("mc2")],
      custom: beginCell()
        .store(
          storeMcStateExtra({
            shardHashes,
            config: { configAddr: Buffer.alloc(32, 0x55), config },
            flags: 0,
            validatorInfo: { validatorListHashShort: vsetHash, catchainSeqno: cc, nxCcUpdated: false },
            prevBlocks,
            afterKeyBlock: seqno === 10,
            lastKeyBlock: null,
            globalBalance: { coins: 5n },
          }),
        )
        .endCell(),
    });
  const mcExtra = (keyBlock: boolean) => ({
    keyBlock,
    shardHashes,
    shardFees: emptyShardFees(),
    prevBlkSignatures: emptyCryptoSignatures(),
    recoverCreateMsg: null,
    mintMsg: null,
    ...(keyBlock ? { config: { configAddr: Buffer.alloc(32, 0x55), config } } : {}),
  });
  const mc10 = blockOf({ workchain: -1, shard: SHARD_FULL, seqno: 10, state: mcState(10), keyBlock: true, custom: mcExtra(true), cc, vsetHash, prevKey: 9 });
  prevBlocks.set(10, { extra: { key: true, maxEndLt: 10n }, value: { key: true, blkRef: { endLt: 10n, seqNo: 10, rootHash: mc10.id.root_hash, fileHash: mc10.id.file_hash } } });
  const mc11 = blockOf({ workchain: -1, shard: SHARD_FULL, seqno: 11, state: mcState(11), custom: mcExtra(false), cc, vsetHash, prevKey: 10 });
  prevBlocks.set(11, { extra: { key: false, maxEndLt: 11n }, value: { key: false, blkRef: { endLt: 11n, seqNo: 11, rootHash: mc11.id.root_hash, fileHash: mc11.id.file_hash } } });
  const mc12 = blockOf({ workchain: -1, shard: SHARD_FULL, seqno: 12, state: mcState(12), custom: mcExtra(false), cc, vsetHash, prevKey: 10 });
  return { vset, config, mcAccount, wcAccount, mc10, mc11, mc12, left, right, cc };
}
