// Every liteServer function of lite_api.tl against a running localnet over ADNL: ton-lite-client's
// engine for the functions its schema has, our AdnlClient with the @tongate/tl codec for the rest. Each
// answer is compared with what the chain holds, and each proof is checked structurally: a MERKLE_PROOF's
// virtual root hash is the block root hash / state hash it claims, and the proven data (config params,
// accounts, shard descriptions, transactions, signatures) is readable from the proof.
import { once } from "node:events";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { Address, beginCell, Cell, CellType, Dictionary, external, internal, loadAccount, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { AdnlClient } from "@tongate/adnl";
import {
  blockStateHashes,
  computeValidatorSetHashShort,
  masterchainValidators,
  cryptoSignaturePairValue,
  emptyOldMcBlocksInfo,
  emptyShardHashes,
  KEY_U16,
  loadBlockHeader,
  loadMerkleProof,
  loadShardDescr,
  loadShardHashes,
  loadShardStateUnsplitHeader,
  loadValidatorSet,
  SHARD_FULL,
  shardHashesList,
  storeMcStateExtra,
  validatorNodeIdShort,
  verifyBlockSignatures,
  walkHashmap,
  type ShardDescr,
} from "@tongate/block";
import * as verify from "@tongate/proof";
import { LITE_API_TL, liteApi, type TlObject } from "@tongate/tl";
import { LiteSingleEngine } from "ton-lite-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BlockRecord } from "../src/chain/chain.js";
import { cellEdge, dictExtreme, dictGet, dictNearest, prevBlock, readMcStateOther, unpackMcStateExtra, Usage } from "../src/liteserver/cells.js";
import { buildShardState } from "../src/chain/state.js";
import { configDict, configParam } from "../src/config.js";
import { deriveKeyPair } from "../src/keys.js";
import { LiteErrorCode } from "../src/liteserver/errors.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

const require = createRequire(import.meta.url);
// ton-lite-client's generated schema (camelCase fields, int64 as decimal strings).
const Functions: Record<string, any> = require("ton-lite-client/dist/schema.js").Functions;

const SEED = "methods";
const FATAL = -400; // LiteQuery::fatal_error's code

let net: Localnet;
let engine: LiteSingleEngine;
let adnl: AdnlClient;
let wallet: Address;
let fresh: Address;
/** The shard block with the first transfer's transactions, and the masterchain block that committed it. */
let txBlock: BlockRecord;
let txMc: BlockRecord;

// ---------------------------------------------------------------------------------------------
// Clients

/** A query through ton-lite-client (its TL names: liteServer_getState etc.). */
const lc = (name: string, req: object = {}): Promise<any> => engine.query(Functions[name], { kind: name.replace("liteServer_", "liteServer."), ...req });

/** A query through our ADNL client and TL codec; answers liteServer.error as an object. */
async function call(fn: TlObject): Promise<any> {
  return liteApi.decode(await adnl.query(liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(fn) })));
}

async function ok(fn: TlObject): Promise<any> {
  const r = await call(fn);
  if (r.kind === "liteServer.error") throw new Error(`liteServer.error ${r.code}: ${r.message}`);
  return r;
}

async function err(fn: TlObject): Promise<{ code: number; message: string }> {
  const r = await call(fn);
  expect(r.kind, `${fn.kind} should fail`).toBe("liteServer.error");
  return r;
}

const signed = (shard: bigint) => BigInt.asIntN(64, shard);
type Id = TlObject & { workchain: number; shard: bigint; seqno: number; root_hash: Buffer; file_hash: Buffer };
const tl = (r: BlockRecord): Id => ({ kind: "tonNode.blockIdExt", workchain: r.id.workchain, shard: signed(r.id.shard), seqno: r.id.seqno, root_hash: r.id.rootHash, file_hash: r.id.fileHash });
const tlZero = (): Id => ({ kind: "tonNode.blockIdExt", workchain: -1, shard: signed(SHARD_FULL), seqno: 0, root_hash: net.chain.mcZero.rootHash, file_hash: net.chain.mcZero.fileHash });
const lcId = (id: TlObject) => ({ kind: "tonNode.blockIdExt", workchain: id.workchain, shard: (id.shard as bigint).toString(), seqno: id.seqno, rootHash: id.root_hash, fileHash: id.file_hash });
const unknownId = (workchain: number, seqno: number): Id => ({ kind: "tonNode.blockIdExt", workchain, shard: signed(SHARD_FULL), seqno, root_hash: Buffer.alloc(32, 7), file_hash: Buffer.alloc(32, 9) });
const accountId = (a: Address): TlObject => ({ kind: "liteServer.accountId", workchain: a.workChain, id: a.hash });
const mc = (seqno: number) => net.chain.masterchain[seqno - 1]!;
/** A shard block without transactions (masterchain blocks always have their tick and tock). */
const emptyShard = () => net.chain.shardchain[4]!;
const last = () => net.chain.lastMasterchain!;
/** Compare a decoded tonNode.blockIdExt (ours or ton-lite-client's) with a block. */
function expectId(id: any, r: BlockRecord): void {
  expect(id.workchain).toBe(r.id.workchain);
  expect(BigInt.asUintN(64, BigInt(id.shard))).toBe(r.id.shard);
  expect(id.seqno).toBe(r.id.seqno);
  expect(Buffer.from(id.root_hash ?? id.rootHash)).toEqual(r.id.rootHash);
  expect(Buffer.from(id.file_hash ?? id.fileHash)).toEqual(r.id.fileHash);
}

// ---------------------------------------------------------------------------------------------
// Proof checks

const isPruned = (c: Cell) => c.type === CellType.PrunedBranch;

/** The virtual root of a MERKLE_PROOF whose virtual hash must be `hash`. */
function proven(proof: Cell, hash: Buffer): Cell {
  expect(proof.type).toBe(CellType.MerkleProof);
  const mp = loadMerkleProof(proof);
  expect(mp.virtualHash.toString("hex")).toBe(hash.toString("hex"));
  expect(proof.refs[0]!.hash(0).toString("hex")).toBe(hash.toString("hex"));
  return proof.refs[0]!;
}

function provenBoc(boc: Buffer, hash: Buffer): Cell {
  const roots = Cell.fromBoc(boc);
  expect(roots).toHaveLength(1);
  return proven(roots[0]!, hash);
}

/** A block header proof: checks the root hash and returns the header and the state hash it pins (if it keeps the state_update). */
function provenHeader(proof: Cell, r: BlockRecord): { header: ReturnType<typeof loadBlockHeader>; stateHash: Buffer } {
  const root = proven(proof, r.id.rootHash);
  const header = loadBlockHeader(root.beginParse());
  expect(header.info.seqNo).toBe(r.id.seqno);
  expect(header.info.shard.workchainId).toBe(r.id.workchain);
  return { header, stateHash: isPruned(root.refs[2]!) ? Buffer.alloc(0) : blockStateHashes(root).newHash };
}

/** A two-root [block header proof, state proof] pair (shard_proof, accountState.proof, …): the state's virtual root. */
function provenState(boc: Buffer, r: BlockRecord): Cell {
  const roots = Cell.fromBoc(boc);
  expect(roots).toHaveLength(2);
  const { stateHash } = provenHeader(roots[0]!, r);
  expect(stateHash).toEqual(r.stateRoot.hash());
  return proven(roots[1]!, stateHash);
}


/** The McStateExtra cell of a proven masterchain state and its fields up to the config dictionary. */
function mcStateExtra(state: Cell): { shardHashes: Cell | null; config: Cell; other: Cell } {
  const custom = loadShardStateUnsplitHeader(state.beginParse()).custom!;
  expect(isPruned(custom)).toBe(false);
  const s = custom.beginParse();
  expect(s.loadUint(16)).toBe(0xcc26);
  const shardHashes = s.loadMaybeRef();
  s.skip(256);
  return { shardHashes, config: s.loadRef(), other: s.loadRef() };
}

/** What a proven Hashmap says about a key: its leaf (after the label), "absent", or "pruned" (not proven). */
function provenLookup(root: Cell, n: number, key: bigint): { leaf: ReturnType<Cell["beginParse"]> } | "absent" | "pruned" {
  for (const node of walkHashmap(root, n)) {
    if (node.type === "leaf" && node.path === key) return { leaf: node.rest! };
    if (node.type === "pruned" && key >> BigInt(n - node.prefixLen) === node.prefix) return "pruned";
  }
  return "absent";
}

/** A config parameter readable from a proven config dictionary (Hashmap 32 ^Cell). */
function provenParam(config: Cell, id: number): Cell | "absent" | "pruned" {
  const r = provenLookup(config, 32, BigInt.asUintN(32, BigInt(id)));
  if (typeof r === "string") return r;
  const value = r.leaf.loadRef();
  return isPruned(value) ? "pruned" : value;
}

/** The transactions a proven block shows in its ShardAccountBlocks: account, lt, Transaction hash. */
function provenTransactions(block: Cell): { account: string; lt: bigint; hash: string }[] {
  const extra = block.refs[3]!;
  expect(isPruned(extra)).toBe(false);
  const root = extra.refs[2]!.beginParse().loadMaybeRef();
  const out: { account: string; lt: bigint; hash: string }[] = [];
  if (!root) return out;
  for (const node of walkHashmap(root, 256)) {
    if (node.type !== "leaf") continue;
    const s = node.rest!;
    s.loadCoins();
    s.loadMaybeRef();
    expect(s.loadUint(4)).toBe(5);
    const account = s.loadBuffer(32).toString("hex");
    expect(account).toBe(node.path.toString(16).padStart(64, "0"));
    for (const t of walkHashmap(beginCell().storeSlice(s).endCell(), 64)) {
      if (t.type !== "leaf") continue;
      t.rest!.loadCoins();
      t.rest!.loadMaybeRef();
      out.push({ account, lt: t.path, hash: t.rest!.loadRef().hash(0).toString("hex") });
    }
  }
  return out;
}

/** The shard descriptions of a proven ShardHashes dictionary (HashmapE 32 ^(BinTree ShardDescr)). */
function provenShards(shardHashes: Cell | null): { workchain: number; descr: ShardDescr }[] {
  if (!shardHashes) return [];
  return shardHashesList(loadShardHashes(beginCell().storeMaybeRef(shardHashes).endCell().beginParse())).map((s) => ({ workchain: s.workchainId, descr: s.descr }));
}

/** McBlockExtra of a proven masterchain block: its shard hashes and (key blocks) config dictionary. */
function mcBlockExtra(block: Cell): { keyBlock: boolean; shardHashes: Cell | null; config: Cell | null } {
  const custom = block.refs[3]!.refs[3]!;
  expect(isPruned(custom)).toBe(false);
  const s = custom.beginParse();
  expect(s.loadUint(16)).toBe(0xcca5);
  const keyBlock = s.loadBit();
  const shardHashes = s.loadMaybeRef();
  s.loadMaybeRef();
  for (let i = 0; i < 2; i++) {
    s.loadCoins();
    s.loadMaybeRef();
  }
  s.loadRef();
  let config: Cell | null = null;
  if (keyBlock) {
    s.skip(256);
    config = s.loadRef();
  }
  return { keyBlock, shardHashes, config };
}

/** Transactions of a block as listBlockTransactions orders them (account, then lt). */
const orderedTxs = (r: BlockRecord) =>
  r.transactions
    .map((t) => ({ account: t.cell.beginParse().skip(4).loadBuffer(32).toString("hex"), lt: t.lt, hash: t.hash.toString("hex") }))
    .sort((a, b) => a.account.localeCompare(b.account) || (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  net = await Localnet.start({ seed: SEED, wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs });
  const ls = net.liteservers[0]!;
  engine = new LiteSingleEngine({ host: `tcp://${ls.host}:${ls.port}`, publicKey: ls.publicKey });
  await once(engine, "ready");
  adnl = await AdnlClient.connect(ls.host, ls.port, ls.publicKey);

  const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
  const v4 = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
  const dest = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair(SEED, "fresh").publicKey });
  wallet = v4.address;
  fresh = dest.address;
  const send = async (seqno: number, value: bigint, init: boolean) => {
    const body = v4.createTransfer({ seqno, secretKey: w.keyPair.secretKey, messages: [internal({ to: fresh, value, init: init ? dest.init : undefined, bounce: false })] });
    const msg = beginCell().store(storeMessage(external({ to: wallet, body }))).endCell();
    const r = await lc("liteServer_sendMessage", { body: msg.toBoc() });
    expect(r.status).toBe(1);
    await net.chain.seal();
  };
  await send(0, toNano(7), true); // masterchain block 2: deploys `fresh`
  await send(1, toNano(1), false); // block 3
  await net.chain.seal(); // 4, 5: no messages (shard blocks 4 and 5 are empty; masterchain blocks hold their tick and tock)
  await net.chain.seal();
  txBlock = net.chain.shardchain.find((b) => b.transactions.length > 0)!;
  txMc = mc(txBlock.mcSeqno);
});

afterAll(async () => {
  engine?.close();
  adnl?.close();
  await net?.close();
});

// ---------------------------------------------------------------------------------------------

describe("liteServer functions on localnet", () => {
  it("has a chain with traffic: 5 masterchain blocks, the transfers in shard blocks", () => {
    expect(last().id.seqno).toBe(5);
    expect(txBlock.transactions.length).toBeGreaterThanOrEqual(2);
    expect(mc(1).block.info.keyBlock).toBe(true);
    expect(mc(1).signatures).toHaveLength(1);
  });

  it("getTime, getVersion, getMasterchainInfo, getMasterchainInfoExt (ton-lite-client)", async () => {
    expect(Math.abs((await lc("liteServer_getTime")).now - Date.now() / 1000)).toBeLessThan(5);
    const v = await lc("liteServer_getVersion");
    expect(v).toMatchObject({ version: 0x101, capabilities: "7" });
    const info = await lc("liteServer_getMasterchainInfo");
    expectId(info.last, last());
    expect(Buffer.from(info.stateRootHash)).toEqual(last().stateRoot.hash());
    expect(Buffer.from(info.init.rootHash)).toEqual(net.chain.mcZero.rootHash);
    const ext = await lc("liteServer_getMasterchainInfoExt", { mode: 0 });
    expectId(ext.last, last());
    expect(ext.lastUtime).toBe(last().genUtime);
  });

  it("getBlock and getBlockHeader (ton-lite-client)", async () => {
    for (const r of [last(), txBlock]) {
      const b = await lc("liteServer_getBlock", { id: lcId(tl(r)) });
      expect(Cell.fromBoc(b.data)[0]!.hash()).toEqual(r.id.rootHash);
      expect(createHash("sha256").update(b.data).digest()).toEqual(r.id.fileHash);
      const h = await lc("liteServer_getBlockHeader", { id: lcId(tl(r)), mode: 0 });
      const { stateHash } = provenHeader(Cell.fromBoc(h.headerProof)[0]!, r);
      expect(stateHash).toEqual(r.stateRoot.hash());
    }
  });

  it("lookupBlock by seqno, lt and utime (ton-lite-client)", async () => {
    const id = { kind: "tonNode.blockId", workchain: 0, shard: signed(SHARD_FULL).toString(), seqno: txBlock.id.seqno };
    const bySeqno = await lc("liteServer_lookupBlock", { mode: 1, id, lt: null, utime: null });
    expectId(bySeqno.id, txBlock);
    provenHeader(Cell.fromBoc(bySeqno.headerProof)[0]!, txBlock);
    const byLt = await lc("liteServer_lookupBlock", { mode: 2, id, lt: txBlock.transactions[0]!.lt.toString(), utime: null });
    expectId(byLt.id, txBlock);
    const byUtime = await lc("liteServer_lookupBlock", { mode: 4, id: { ...id, workchain: -1 }, lt: null, utime: mc(2).genUtime });
    expect(byUtime.id.seqno).toBeLessThanOrEqual(2);
    await expect(lc("liteServer_lookupBlock", { mode: 1, id: { ...id, seqno: 999 }, lt: null, utime: null })).rejects.toThrow(/not in db/);
  });

  it("getState: the state BoC of blocks and of both zero states (ton-lite-client)", async () => {
    for (const r of [last(), txBlock]) {
      const s = await lc("liteServer_getState", { id: lcId(tl(r)) });
      expectId(s.id, r);
      const root = Cell.fromBoc(s.data)[0]!;
      expect(root.hash()).toEqual(r.stateRoot.hash());
      expect(Buffer.from(s.rootHash)).toEqual(r.stateRoot.hash());
      expect(Buffer.from(s.fileHash)).toEqual(createHash("sha256").update(s.data).digest());
      // the state hash the block's header proof pins
      const h = await ok({ kind: "liteServer.getBlockHeader", id: tl(r), mode: 1 });
      expect(provenHeader(Cell.fromBoc(h.header_proof)[0]!, r).stateHash).toEqual(root.hash());
    }
    for (const z of [net.chain.mcZero, net.chain.shardZero]) {
      const id = { kind: "tonNode.blockIdExt", workchain: z.workchain, shard: signed(SHARD_FULL), seqno: 0, root_hash: z.rootHash, file_hash: z.fileHash };
      const s = await ok({ kind: "liteServer.getState", id });
      expect(Cell.fromBoc(s.data)[0]!.hash()).toEqual(z.rootHash);
      expect(createHash("sha256").update(s.data).digest()).toEqual(z.fileHash);
      expect(s.root_hash).toEqual(z.rootHash);
    }
    expect(await err({ kind: "liteServer.getState", id: unknownId(0, 3) })).toMatchObject({ code: LiteErrorCode.notready, message: "block (0,8000000000000000,3): not in db" });
    expect(await err({ kind: "liteServer.getState", id: { ...unknownId(-1, 0) } })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("getAccountState: shard proof from the masterchain state, account proof from the shard state (ton-lite-client)", async () => {
    const ref = last();
    const a = await lc("liteServer_getAccountState", { id: lcId(tl(ref)), account: { kind: "liteServer.accountId", workchain: 0, id: fresh.hash } });
    expectId(a.id, ref);
    const shardblk = net.chain.shardchain.find((b) => b.id.rootHash.equals(Buffer.from(a.shardblk.rootHash)))!;
    expectId(a.shardblk, shardblk);
    // shard_proof: [masterchain block header, masterchain state with the ShardHashes path]
    const mcState = provenState(a.shardProof, ref);
    const shards = provenShards(mcStateExtra(mcState).shardHashes);
    expect(shards).toHaveLength(1);
    expect(shards[0]!.descr.rootHash).toEqual(shardblk.id.rootHash);
    expect(shards[0]!.descr.seqNo).toBe(shardblk.id.seqno);
    // proof: [shard block header, shard state with the account's path]
    const state = provenState(a.proof, shardblk);
    const accounts = loadShardStateUnsplitHeader(state.beginParse()).accounts.beginParse().loadMaybeRef()!;
    const leaf = provenLookup(accounts, 256, BigInt("0x" + fresh.hash.toString("hex")));
    expect(typeof leaf).toBe("object");
    const l = (leaf as { leaf: ReturnType<Cell["beginParse"]> }).leaf;
    l.skip(5); // DepthBalanceInfo: split_depth
    l.loadCoins();
    l.loadMaybeRef();
    const accountCell = l.loadRef();
    expect(accountCell.hash(0)).toEqual(Cell.fromBoc(a.state)[0]!.hash());
    const acc = loadAccount(Cell.fromBoc(a.state)[0]!.beginParse().skip(1));
    expect(acc.storage.balance.coins).toBeGreaterThan(toNano(7));
    // an account of the masterchain: no shard proof, the masterchain state proves it absent
    const m = await ok({ kind: "liteServer.getAccountState", id: tl(ref), account: { kind: "liteServer.accountId", workchain: -1, id: Buffer.alloc(32, 0x42) } });
    expect(m.shard_proof).toHaveLength(0);
    expect(m.state).toHaveLength(0);
    const ms = provenState(m.proof, ref);
    const mroot = loadShardStateUnsplitHeader(ms.beginParse()).accounts.beginParse().loadMaybeRef();
    if (mroot) expect(provenLookup(mroot, 256, BigInt("0x" + "42".repeat(32)))).toBe("absent");
    // a workchain that does not exist: no shard block, the ShardHashes proof shows it
    const x = await ok({ kind: "liteServer.getAccountState", id: tl(ref), account: { kind: "liteServer.accountId", workchain: 7, id: Buffer.alloc(32, 1) } });
    expect(x.shardblk.workchain).toBe(-0x80000000);
    expect(x.state).toHaveLength(0);
    provenState(x.shard_proof, ref);
    // relative to a shard block of the account's workchain: no shard proof
    const s = await ok({ kind: "liteServer.getAccountState", id: tl(txBlock), account: accountId(wallet) });
    expectId(s.id, txBlock);
    expect(s.shard_proof).toHaveLength(0);
    provenState(s.proof, txBlock);
    expect(await err({ kind: "liteServer.getAccountState", id: unknownId(-1, 4), account: accountId(wallet) })).toMatchObject({ code: LiteErrorCode.notready });
    expect(await err({ kind: "liteServer.getAccountState", id: tl(txBlock), account: { kind: "liteServer.accountId", workchain: -1, id: Buffer.alloc(32) } })).toMatchObject({
      code: FATAL,
      message: "reference block for a getAccountState() must belong to the masterchain",
    });
  });

  it("getAccountStatePrunned: the account as a Merkle proof with code and data pruned (ton-lite-client)", async () => {
    const ref = last();
    const full = await ok({ kind: "liteServer.getAccountState", id: tl(ref), account: accountId(wallet) });
    const a = await lc("liteServer_getAccountStatePrunned", { id: lcId(tl(ref)), account: { kind: "liteServer.accountId", workchain: 0, id: wallet.hash } });
    const account = Cell.fromBoc(full.state)[0]!;
    const pruned = proven(Cell.fromBoc(a.state)[0]!, account.hash());
    expect(a.state.length).toBeLessThan(full.state.length);
    const acc = loadAccount(pruned.beginParse().skip(1));
    expect(acc.addr.equals(wallet)).toBe(true);
    expect(acc.storage.balance.coins).toBe(loadAccount(account.beginParse().skip(1)).storage.balance.coins);
    expect(acc.storage.state.type).toBe("active");
    const init = acc.storage.state.type === "active" ? acc.storage.state.state : undefined;
    expect(isPruned(init!.code!)).toBe(true);
    expect(isPruned(init!.data!)).toBe(true);
    // the proof pins the same account hash, with the Account itself pruned
    const shardblk = net.chain.shardchain.find((b) => b.id.rootHash.equals(Buffer.from(a.shardblk.rootHash)))!;
    const state = provenState(a.proof, shardblk);
    const accounts = loadShardStateUnsplitHeader(state.beginParse()).accounts.beginParse().loadMaybeRef()!;
    const l = (provenLookup(accounts, 256, BigInt("0x" + wallet.hash.toString("hex"))) as { leaf: ReturnType<Cell["beginParse"]> }).leaf;
    l.skip(5);
    l.loadCoins();
    l.loadMaybeRef();
    const ref0 = l.loadRef();
    expect(isPruned(ref0)).toBe(true);
    expect(ref0.hash(0)).toEqual(account.hash());
    provenState(a.shardProof, ref);
  });

  it("runSmcMethod with all proofs (ton-lite-client)", async () => {
    const ref = last();
    const r = await lc("liteServer_runSmcMethod", {
      mode: 0x1f,
      id: lcId(tl(ref)),
      account: { kind: "liteServer.accountId", workchain: 0, id: wallet.hash },
      methodId: "85143", // seqno
      params: Buffer.alloc(0),
    });
    expect(r.exitCode).toBe(0);
    const shardblk = net.chain.shardchain.find((b) => b.id.rootHash.equals(Buffer.from(r.shardblk.rootHash)))!;
    provenState(r.shardProof, ref);
    provenState(r.proof, shardblk);
    const acc = await ok({ kind: "liteServer.getAccountState", id: tl(ref), account: accountId(wallet) });
    proven(Cell.fromBoc(r.stateProof)[0]!, Cell.fromBoc(acc.state)[0]!.hash());
    const { parseTuple } = await import("@ton/core");
    expect(parseTuple(Cell.fromBoc(r.result)[0]!)[0]).toMatchObject({ type: "int", value: 2n });
  });

  it("getShardInfo: one shard's descr with the proof from the masterchain state (ton-lite-client)", async () => {
    const ref = txMc;
    const s = await lc("liteServer_getShardInfo", { id: lcId(tl(ref)), workchain: 0, shard: signed(SHARD_FULL).toString(), exact: true });
    expectId(s.shardblk, txBlock);
    const leaf = Cell.fromBoc(s.shardDescr)[0]!.beginParse();
    expect(leaf.loadBit()).toBe(false); // bt_leaf
    const descr = loadShardDescr(leaf);
    expect(descr).toMatchObject({ seqNo: txBlock.id.seqno, regMcSeqno: ref.id.seqno, startLt: txBlock.startLt, endLt: txBlock.endLt });
    const state = provenState(s.shardProof, ref);
    const shards = provenShards(mcStateExtra(state).shardHashes);
    expect(shards[0]!.descr).toEqual(descr);
    // a child shard: not exact → the full shard's leaf; exact → no such shard
    const child = 0x4000000000000000n;
    const inexact = await ok({ kind: "liteServer.getShardInfo", id: tl(ref), workchain: 0, shard: child, exact: false });
    expectId(inexact.shardblk, txBlock);
    const exact = await ok({ kind: "liteServer.getShardInfo", id: tl(ref), workchain: 0, shard: child, exact: true });
    expect(exact.shardblk.workchain).toBe(-0x80000000);
    expect(exact.shard_descr).toHaveLength(0);
    provenState(exact.shard_proof, ref);
    expect(await err({ kind: "liteServer.getShardInfo", id: tl(ref), workchain: 0, shard: 0n, exact: true })).toMatchObject({ code: FATAL, message: "requested shard is invalid" });
    expect(await err({ kind: "liteServer.getShardInfo", id: tl(txBlock), workchain: 0, shard: signed(SHARD_FULL), exact: true })).toMatchObject({ code: FATAL });
  });

  it("getAllShardsInfo (ton-lite-client)", async () => {
    const r = await lc("liteServer_getAllShardsInfo", { id: lcId(tl(txMc)) });
    const data = Cell.fromBoc(r.data)[0]!.beginParse().loadMaybeRef();
    const shards = provenShards(data);
    expect(shards[0]!.descr.rootHash).toEqual(txBlock.id.rootHash);
    // the proof reaches McBlockExtra.shard_hashes, which is the data
    const proofShards = mcBlockExtra(provenBoc(r.proof, txMc.id.rootHash)).shardHashes!;
    expect(proofShards.hash(0)).toEqual(data!.hash());
  });

  it("getOneTransaction and getTransactions (ton-lite-client)", async () => {
    const tx = txBlock.transactions[0]!;
    const account = Address.parseRaw(`0:${tx.cell.beginParse().skip(4).loadBuffer(32).toString("hex")}`);
    const one = await lc("liteServer_getOneTransaction", { id: lcId(tl(txBlock)), account: { kind: "liteServer.accountId", workchain: 0, id: account.hash }, lt: tx.lt.toString() });
    expect(Cell.fromBoc(one.transaction)[0]!.hash()).toEqual(tx.hash);
    const block = provenBoc(one.proof, txBlock.id.rootHash);
    expect(provenTransactions(block)).toContainEqual({ account: account.hash.toString("hex"), lt: tx.lt, hash: tx.hash.toString("hex") });
    const list = await lc("liteServer_getTransactions", { count: 10, account: { kind: "liteServer.accountId", workchain: 0, id: account.hash }, lt: tx.lt.toString(), hash: tx.hash });
    expect(Cell.fromBoc(list.transactions)[0]!.hash()).toEqual(tx.hash);
    expectId(list.ids[0], txBlock);
    expect(await err({ kind: "liteServer.getOneTransaction", id: tl(txBlock), account: accountId(account), lt: tx.lt + 1n })).toMatchObject({ code: LiteErrorCode.notready });
    expect(await err({ kind: "liteServer.getTransactions", count: 3, account: accountId(account), lt: tx.lt, hash: Buffer.alloc(32) })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("listBlockTransactions: ids, paging both ways, and the proof of the account blocks (ton-lite-client)", async () => {
    const all = orderedTxs(txBlock);
    const r = await lc("liteServer_listBlockTransactions", { id: lcId(tl(txBlock)), mode: 7 | 32, count: 100, after: null, reverseOrder: null, wantProof: null });
    expect(r.incomplete).toBe(false);
    expect(r.ids.map((t: any) => ({ account: Buffer.from(t.account).toString("hex"), lt: BigInt(t.lt), hash: Buffer.from(t.hash).toString("hex") }))).toEqual(all);
    expect(r.ids[0].mode).toBe(7 | 32);
    const block = provenBoc(r.proof, txBlock.id.rootHash);
    expect(provenTransactions(block).sort((a, b) => a.account.localeCompare(b.account) || Number(a.lt - b.lt))).toEqual(all);
    // one at a time, forwards and backwards, with `after`
    for (const reverse of [false, true]) {
      const seen: typeof all = [];
      let after: TlObject | undefined;
      for (let i = 0; i < all.length + 1; i++) {
        const page = await ok({ kind: "liteServer.listBlockTransactions", id: tl(txBlock), mode: 7 | 32 | (reverse ? 64 : 0) | (after ? 128 : 0), count: 1, after, reverse_order: reverse || undefined, want_proof: true });
        for (const t of page.ids) seen.push({ account: t.account.toString("hex"), lt: t.lt, hash: t.hash.toString("hex") });
        const proofTxs = provenTransactions(provenBoc(page.proof, txBlock.id.rootHash));
        for (const t of page.ids) expect(proofTxs).toContainEqual({ account: t.account.toString("hex"), lt: t.lt, hash: t.hash.toString("hex") });
        if (page.ids.length === 0) {
          expect(page.incomplete).toBe(false);
          break;
        }
        expect(page.incomplete).toBe(true); // TON: incomplete = the walk did not run out of accounts
        after = { kind: "liteServer.transactionId3", account: page.ids[0].account, lt: page.ids[0].lt };
      }
      expect(seen).toEqual(reverse ? [...all].reverse() : all);
    }
    // without a proof, only some fields, and the metadata flag (localnet's envelopes carry none)
    const some = await ok({ kind: "liteServer.listBlockTransactions", id: tl(txBlock), mode: 2 | 256, count: 2 });
    expect(some.proof).toHaveLength(0);
    expect(some.ids[0]).toEqual({ kind: "liteServer.transactionId", mode: 2, lt: all[0]!.lt });
    expect(await err({ kind: "liteServer.listBlockTransactions", id: unknownId(0, 2), mode: 7, count: 1 })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("listBlockTransactionsExt: the transactions as one multi-root BoC, same paging", async () => {
    const all = orderedTxs(txBlock);
    const r = await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(txBlock), mode: 7 | 32, count: 100, want_proof: true });
    expect(r.incomplete).toBe(false);
    expect(r.req_count).toBe(100);
    const cells = Cell.fromBoc(r.transactions);
    expect(cells.map((c) => c.hash().toString("hex"))).toEqual(all.map((t) => t.hash));
    const proofTxs = provenTransactions(provenBoc(r.proof, txBlock.id.rootHash));
    for (const c of cells) expect(proofTxs.map((t) => t.hash)).toContain(c.hash().toString("hex"));
    const firstTwo = await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(txBlock), mode: 7 | 64, count: 2, reverse_order: true });
    expect(firstTwo.incomplete).toBe(true);
    expect(Cell.fromBoc(firstTwo.transactions).map((c) => c.hash().toString("hex"))).toEqual([...all].reverse().slice(0, 2).map((t) => t.hash));
    const after = { kind: "liteServer.transactionId3", account: Buffer.from(all[0]!.account, "hex"), lt: all[0]!.lt };
    const rest = await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(txBlock), mode: 128, count: 100, after });
    expect(Cell.fromBoc(rest.transactions).map((c) => c.hash().toString("hex"))).toEqual(all.slice(1).map((t) => t.hash));
    expect(rest.proof).toHaveLength(0);
    // metadata (mode 256) forces the proof; an empty block lists nothing
    expect((await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(txBlock), mode: 256, count: 1 })).proof.length).toBeGreaterThan(0);
    expect(emptyShard().transactions).toHaveLength(0);
    const empty = await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(emptyShard()), mode: 7 | 32, count: 10, want_proof: true });
    expect(empty).toMatchObject({ incomplete: false, transactions: Buffer.alloc(0) });
    provenBoc(empty.proof, emptyShard().id.rootHash);
  });

  it("getConfigAll: the whole config proven from the masterchain state (ton-lite-client)", async () => {
    const ref = last();
    const r = await lc("liteServer_getConfigAll", { mode: 0, id: lcId(tl(ref)) });
    expect(r.mode).toBe(0);
    const { stateHash } = provenHeader(Cell.fromBoc(r.stateProof)[0]!, ref);
    const state = provenBoc(r.configProof, stateHash);
    const { config } = mcStateExtra(state);
    expect(config.hash(0)).toEqual(net.genesis.config.hash());
    for (const node of walkHashmap(config, 32)) expect(node.type).not.toBe("pruned");
    const p34 = provenParam(config, 34) as Cell;
    expect(p34.hash()).toEqual(configParam(net.genesis.config, 34)!.hash());
  });

  it("getConfigParams: only the requested params, absent ones proven absent; mode 0x8000 from the key block (ton-lite-client)", async () => {
    const ref = last();
    const r = await lc("liteServer_getConfigParams", { mode: 0, id: lcId(tl(ref)), paramList: [34, 8, 77777] });
    const { stateHash } = provenHeader(Cell.fromBoc(r.stateProof)[0]!, ref);
    const { config } = mcStateExtra(provenBoc(r.configProof, stateHash));
    const vset = loadValidatorSet((provenParam(config, 34) as Cell).beginParse());
    expect([...vset.list.values()][0]!.publicKey).toEqual(net.genesis.validator.publicKey);
    expect((provenParam(config, 8) as Cell).hash()).toEqual(configParam(net.genesis.config, 8)!.hash());
    expect(provenParam(config, 77777)).toBe("absent");
    expect(provenParam(config, 1)).toBe("pruned"); // not requested
    // mode 0x8000: from the previous key block (block 1), no state proof
    const k = await ok({ kind: "liteServer.getConfigParams", mode: 0x8000, id: tl(ref), param_list: [34] });
    expectId(k.id, mc(1));
    expect(k.state_proof).toHaveLength(0);
    const key = provenBoc(k.config_proof, mc(1).id.rootHash);
    const kc = mcBlockExtra(key).config!;
    expect((provenParam(kc, 34) as Cell).hash()).toEqual(configParam(net.genesis.config, 34)!.hash());
    expect(await err({ kind: "liteServer.getConfigParams", mode: 0, id: tl(txBlock), param_list: [1] })).toMatchObject({
      code: FATAL,
      message: "configuration parameters can be loaded with respect to a masterchain block only",
    });
  });

  it("getLibraries and getLibrariesWithProof: localnet has no libraries (ton-lite-client / own client)", async () => {
    const hashes = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    expect((await lc("liteServer_getLibraries", { libraryList: hashes })).result).toEqual([]);
    const ref = last();
    const r = await ok({ kind: "liteServer.getLibrariesWithProof", id: tl(ref), mode: 1, library_list: hashes });
    expect(r).toMatchObject({ mode: 1, result: [] });
    expectId(r.id, ref);
    const { stateHash } = provenHeader(Cell.fromBoc(r.state_proof)[0]!, ref);
    const state = provenBoc(r.data_proof, stateHash);
    const other = loadShardStateUnsplitHeader(state.beginParse()).other!;
    expect(other.libraries).toBeNull();
  });

  it("getBlockProof from the zero state: forward links zero state → key block 1 → last, signatures verified (ton-lite-client)", async () => {
    const lcProof = await lc("liteServer_getBlockProof", { mode: 0, knownBlock: lcId(tlZero()), targetBlock: null });
    expect(lcProof.complete).toBe(true);
    expect(lcProof.steps.map((s: any) => s.kind)).toEqual(["liteServer.blockLinkForward", "liteServer.blockLinkForward"]);
    expect(lcProof.steps[0].signatures.kind).toBe("liteServer.signatureSet"); // ton-lite-client's name of #f644a6e6

    const p = await ok({ kind: "liteServer.getBlockProof", mode: 0, known_block: tlZero() });
    expect(p.complete).toBe(true);
    expectId(p.to, last());
    const [first, second] = p.steps;
    expect(first).toMatchObject({ kind: "liteServer.blockLinkForward", to_key_block: true });
    expectId(first.to, mc(1));
    expectId(second.from, mc(1));
    expectId(second.to, last());
    expect(second.to_key_block).toBe(false);
    for (const step of p.steps) {
      const to = mc(step.to.seqno);
      // config_proof: the zero state's config, or key block 1's McBlockExtra config
      const src = provenBoc(step.config_proof, step.from.root_hash);
      const config = step.from.seqno === 0 ? mcStateExtra(src).config : mcBlockExtra(src).config!;
      const vset = loadValidatorSet((provenParam(config, 34) as Cell).beginParse());
      expect(provenParam(config, 28)).toBeInstanceOf(Cell);
      // dest_proof: the destination's header
      const { header } = provenHeader(Cell.fromBoc(step.dest_proof)[0]!, to);
      expect(header.info.keyBlock).toBe(step.to_key_block);
      // signatures: liteServer.signatureSet.ordinary, by the validators of ConfigParam 34
      const set = step.signatures;
      expect(set.kind).toBe("liteServer.signatureSet.ordinary");
      expect(set.validator_set_hash >>> 0).toBe(header.info.genValidatorListHashShort);
      expect(set.catchain_seqno).toBe(header.info.genCatchainSeqno);
      const sigs = Dictionary.empty(KEY_U16, cryptoSignaturePairValue);
      set.signatures.forEach((s: any, i: number) => sigs.set(i, { nodeIdShort: s.node_id_short, sign: { type: "ed25519_signature", r: s.signature.subarray(0, 32), s: s.signature.subarray(32) } }));
      expect(set.signatures[0].node_id_short).toEqual(validatorNodeIdShort(net.genesis.validator.publicKey));
      const check = verifyBlockSignatures({ rootHash: to.id.rootHash, fileHash: to.id.fileHash }, sigs, vset);
      expect(check.errors).toEqual([]);
      expect(check.ok).toBe(true);
    }
  });

  it("getBlockProof between blocks: key block → target forward; backwards needs prev_blocks in the state", async () => {
    const fwd = await ok({ kind: "liteServer.getBlockProof", mode: 1, known_block: tl(mc(1)), target_block: tl(mc(3)) });
    expect(fwd).toMatchObject({ complete: true });
    expect(fwd.steps).toHaveLength(1);
    expectId(fwd.steps[0].to, mc(3));
    const same = await ok({ kind: "liteServer.getBlockProof", mode: 1, known_block: tl(mc(3)), target_block: tl(mc(3)) });
    expect(same).toMatchObject({ complete: true, steps: [] });
    // From a non-key block the chain goes back to the key block first (blockLinkBack): the newer block's
    // state must list the older one in McStateExtra.prev_blocks.
    const prevBlocks = mcStateExtra(last().stateRoot).other.beginParse().skip(16 + 65).loadMaybeRef();
    expect(prevBlocks).not.toBeNull();
    const back = await call({ kind: "liteServer.getBlockProof", mode: 1, known_block: tl(last()), target_block: tl(mc(2)) });
    expect(back.kind).toBe("liteServer.partialBlockProof");
    const link = back.steps[0];
    expect(link.kind).toBe("liteServer.blockLinkBack");
    const state = provenBoc(link.state_proof, provenHeader(Cell.fromBoc(link.proof)[0]!, last()).stateHash);
    expect(state).toBeInstanceOf(Cell);
    expect(await err({ kind: "liteServer.getBlockProof", mode: 0, known_block: unknownId(-1, 2) })).toMatchObject({ code: FATAL, message: expect.stringMatching(/^proof source masterchain block .* is unknown/) });
    expect(await err({ kind: "liteServer.getBlockProof", mode: 0, known_block: tl(txBlock) })).toMatchObject({ code: FATAL, message: expect.stringMatching(/is not a valid masterchain block id$/) });
    expect(await err({ kind: "liteServer.getBlockProof", mode: 1, known_block: tlZero(), target_block: unknownId(-1, 99) })).toMatchObject({ code: FATAL, message: expect.stringMatching(/newer than the reference masterchain block/) });
  });

  it("lookupBlockWithProof: the block's header, its shard link from the masterchain block, the previous header", async () => {
    const id = { kind: "tonNode.blockId", workchain: 0, shard: signed(SHARD_FULL), seqno: txBlock.id.seqno };
    const r = await ok({ kind: "liteServer.lookupBlockWithProof", mode: 1, id, mc_block_id: tl(txMc) });
    expectId(r.id, txBlock);
    expectId(r.mc_block_id, txMc);
    expect(r.client_mc_state_proof).toHaveLength(0);
    expect(r.mc_block_proof).toHaveLength(0);
    provenHeader(Cell.fromBoc(r.header)[0]!, txBlock);
    expect(r.prev_header).toHaveLength(0);
    expect(r.shard_links).toHaveLength(1);
    expectId(r.shard_links[0].id, txBlock);
    const mcProof = provenBoc(r.shard_links[0].proof, txMc.id.rootHash);
    expect(provenShards(mcBlockExtra(mcProof).shardHashes)[0]!.descr.rootHash).toEqual(txBlock.id.rootHash);
    // by lt: with the previous block's header
    const byLt = await ok({ kind: "liteServer.lookupBlockWithProof", mode: 2, id, mc_block_id: tl(txMc), lt: txBlock.transactions[0]!.lt });
    expectId(byLt.id, txBlock);
    const prev = net.chain.shardchain[txBlock.id.seqno - 2]!;
    provenBoc(byLt.prev_header, prev.id.rootHash);
    // a masterchain block with itself as the reference
    const m = await ok({ kind: "liteServer.lookupBlockWithProof", mode: 1, id: { ...id, workchain: -1, seqno: 3 }, mc_block_id: tl(mc(3)) });
    expect(m.shard_links).toEqual([]);
    expectId(m.mc_block_id, mc(3));
    // a newer reference block proves the older one through its prev_blocks
    const newer = await ok({ kind: "liteServer.lookupBlockWithProof", mode: 1, id, mc_block_id: tl(last()) });
    provenHeader(Cell.fromBoc(newer.client_mc_state_proof)[0]!, last());
    expect(await err({ kind: "liteServer.lookupBlockWithProof", mode: 3, id, mc_block_id: tl(txMc), lt: 1n })).toMatchObject({ code: FATAL, message: "exactly one of mode.0, mode.1 and mode.2 bits must be set" });
    expect(await err({ kind: "liteServer.lookupBlockWithProof", mode: 1, id, mc_block_id: tl(mc(1)) })).toMatchObject({ code: FATAL, message: "specified mc block is older than block's masterchain ref" });
    expect(await err({ kind: "liteServer.lookupBlockWithProof", mode: 1, id, mc_block_id: tl(txBlock) })).toMatchObject({ code: FATAL, message: "masterchain block id must be specified" });
    expect(await err({ kind: "liteServer.lookupBlockWithProof", mode: 1, id: { ...id, seqno: 99 }, mc_block_id: tl(last()) })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("getShardBlockProof: the masterchain block and the link from its shard_hashes (ton-lite-client)", async () => {
    const r = await lc("liteServer_getShardBlockProof", { id: lcId(tl(txBlock)) });
    expectId(r.masterchainId, txMc);
    expect(r.links).toHaveLength(1);
    expectId(r.links[0].id, txBlock);
    const mcProof = provenBoc(r.links[0].proof, txMc.id.rootHash);
    expect(provenShards(mcBlockExtra(mcProof).shardHashes)[0]!.descr.fileHash).toEqual(txBlock.id.fileHash);
    const m = await ok({ kind: "liteServer.getShardBlockProof", id: tl(mc(2)) });
    expect(m.links).toEqual([]);
    expectId(m.masterchain_id, mc(2));
    expect(await err({ kind: "liteServer.getShardBlockProof", id: unknownId(0, 2) })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("getOutMsgQueueSizes: every queue empty", async () => {
    const all = await ok({ kind: "liteServer.getOutMsgQueueSizes", mode: 0 });
    expect(all.ext_msg_queue_size_limit).toBe(8000);
    expect(all.shards).toHaveLength(2);
    expectId(all.shards[0].id, last());
    expectId(all.shards[1].id, net.chain.lastShard!);
    for (const s of all.shards) expect(s.size).toBe(0);
    const wc0 = await ok({ kind: "liteServer.getOutMsgQueueSizes", mode: 1, wc: 0, shard: signed(SHARD_FULL) });
    expect(wc0.shards).toHaveLength(1);
    expect((await ok({ kind: "liteServer.getOutMsgQueueSizes", mode: 1, wc: 5, shard: signed(SHARD_FULL) })).shards).toEqual([]);
  });

  it("getBlockOutMsgQueueSize: out_queue_size 0, proven from the state", async () => {
    for (const r of [txBlock, last()]) {
      const q = await ok({ kind: "liteServer.getBlockOutMsgQueueSize", mode: 1, id: tl(r), want_proof: true });
      expect(q.size).toBe(0n);
      expectId(q.id, r);
      const state = provenState(q.proof, r);
      const info = loadShardStateUnsplitHeader(state.beginParse()).outMsgQueueInfo;
      expect(isPruned(info)).toBe(false);
      expect(info.hash()).toEqual(r.stateRoot.refs[0]!.hash());
    }
    expect((await ok({ kind: "liteServer.getBlockOutMsgQueueSize", mode: 0, id: tl(txBlock) })).proof).toBeUndefined();
    expect(await err({ kind: "liteServer.getBlockOutMsgQueueSize", mode: 0, id: unknownId(0, 1) })).toMatchObject({ code: LiteErrorCode.notready });
  });

  it("getDispatchQueueInfo and getDispatchQueueMessages: empty, complete, proven", async () => {
    const i = await ok({ kind: "liteServer.getDispatchQueueInfo", mode: 1, id: tl(txBlock), max_accounts: 10, want_proof: true });
    expect(i).toMatchObject({ account_dispatch_queues: [], complete: true });
    provenState(i.proof, txBlock);
    const m = await ok({ kind: "liteServer.getDispatchQueueMessages", mode: 1 | 4, id: tl(txBlock), addr: wallet.hash, after_lt: 0n, max_messages: 5, want_proof: true, messages_boc: true });
    expect(m).toMatchObject({ messages: [], complete: true, messages_boc: Buffer.alloc(0) });
    provenState(m.proof, txBlock);
    expect(await err({ kind: "liteServer.getDispatchQueueInfo", mode: 0, id: tl(txBlock), max_accounts: 0 })).toMatchObject({ code: FATAL, message: "invalid max_accounts" });
    expect(await err({ kind: "liteServer.getDispatchQueueMessages", mode: 0, id: tl(txBlock), addr: wallet.hash, after_lt: 0n, max_messages: -1 })).toMatchObject({ code: FATAL, message: "invalid max_messages" });
  });

  it("getValidatorStats: localnet's states carry no block creation stats", async () => {
    const e = await err({ kind: "liteServer.getValidatorStats", mode: 0, id: tl(last()), limit: 10 });
    expect(e).toMatchObject({ code: FATAL, message: "cannot extract block create stats from mc state" });
    expect(await err({ kind: "liteServer.getValidatorStats", mode: 0, id: tl(last()), limit: 0 })).toMatchObject({ code: FATAL, message: "requested entry count limit must be positive" });
    // ton-lite-client's schema still has the older constructor id of getValidatorStats
    await expect(lc("liteServer_getValidatorStats", { mode: 0, id: lcId(tl(last())), limit: 10, startAfter: null, modifiedAfter: null })).rejects.toThrow();
  });

  it("nonfinal.getPendingShardBlocks: nothing is ever pending", async () => {
    expect(await ok({ kind: "liteServer.nonfinal.getPendingShardBlocks", mode: 0 })).toEqual({ kind: "liteServer.nonfinal.pendingShardBlocks", signed_blocks: [], candidates: [] });
  });

  it("waitMasterchainSeqno prefixes a query; queryPrefix alone is no query", async () => {
    const info: any = await engine.query(Functions.liteServer_getMasterchainInfo, { kind: "liteServer.getMasterchainInfo" }, { awaitSeqno: last().id.seqno });
    expectId(info.last, last());
    const waited = liteApi.decode(
      await adnl.query(
        liteApi.encode({
          kind: "liteServer.query",
          data: Buffer.concat([liteApi.encode({ kind: "liteServer.waitMasterchainSeqno", seqno: last().id.seqno, timeout_ms: 1000 }), liteApi.encode({ kind: "liteServer.getTime" })]),
        }),
      ),
    );
    expect(waited.kind).toBe("liteServer.currentTime");
    expect(await err({ kind: "liteServer.queryPrefix" })).toMatchObject({ code: LiteErrorCode.protoviolation });
  });
});

// ---------------------------------------------------------------------------------------------

describe("@tongate/proof verifies the answers", () => {
  const acc = () => ({ workchain: 0, id: wallet.hash });
  const accTl = () => ({ kind: "liteServer.accountId", ...acc() });

  it("block header and data, account states (also prunned, absent, unknown workchain), runSmcMethod", async () => {
    const ref = tl(last());
    verify.verifyBlockHeader(await ok({ kind: "liteServer.getBlockHeader", id: ref, mode: 0 }), ref);
    verify.verifyBlockData(await ok({ kind: "liteServer.getBlock", id: tl(txBlock) }), tl(txBlock));
    const a = verify.verifyAccountState(await ok({ kind: "liteServer.getAccountState", id: ref, account: accTl() }), ref, acc());
    expect(a.account!.hash()).toEqual(a.shardAccount!.accountHash);
    verify.verifyAccountState(await ok({ kind: "liteServer.getAccountStatePrunned", id: ref, account: accTl() }), ref, acc());
    verify.verifyAccountState(await ok({ kind: "liteServer.getAccountState", id: tl(txBlock), account: accTl() }), tl(txBlock), acc());
    for (const other of [{ workchain: -1, id: Buffer.alloc(32, 3) }, { workchain: 7, id: Buffer.alloc(32, 3) }]) {
      const r = verify.verifyAccountState(await ok({ kind: "liteServer.getAccountState", id: ref, account: { kind: "liteServer.accountId", ...other } }), ref, other);
      expect(r.account).toBeNull();
    }
    const run = verify.verifyRunMethodResult(await ok({ kind: "liteServer.runSmcMethod", mode: 0x1f, id: ref, account: accTl(), method_id: 85143n, params: Buffer.alloc(0) }), ref, acc());
    expect(run.exitCode).toBe(0);
  });

  it("the verifier rejects tampered answers", async () => {
    const ref = tl(last());
    const good = await ok({ kind: "liteServer.getAccountState", id: ref, account: accTl() });
    const flip = (b: Buffer, at: number) => {
      const c = Buffer.from(b);
      c[at] = c[at]! ^ 0x01;
      return c;
    };
    // A changed account (its balance bits), a changed proof byte, an answer for another block.
    const tampered: object[] = [
      { ...good, state: flip(good.state as Buffer, (good.state as Buffer).length - 8) },
      { ...good, proof: flip(good.proof as Buffer, (good.proof as Buffer).length - 40) },
      { ...good, shard_proof: flip(good.shard_proof as Buffer, (good.shard_proof as Buffer).length - 40) },
    ];
    for (const t of tampered) expect(() => verify.verifyAccountState(t, ref, acc())).toThrow();
    expect(() => verify.verifyAccountState(good, tl(mc(2)), acc())).toThrow();
    const header = await ok({ kind: "liteServer.getBlockHeader", id: ref, mode: 0 });
    expect(() => verify.verifyBlockHeader({ ...header, header_proof: flip(header.header_proof as Buffer, (header.header_proof as Buffer).length - 40) }, ref)).toThrow();
  });

  it("configs (all, some params, from the key block), shard info (exact, containing, absent), all shards", async () => {
    const ref = tl(last());
    const all = verify.verifyConfig(await ok({ kind: "liteServer.getConfigAll", mode: 0, id: ref }), ref, { all: true });
    expect(all.params.get(34)!.hash()).toEqual(configParam(net.genesis.config, 34)!.hash());
    const some = verify.verifyConfig(await ok({ kind: "liteServer.getConfigParams", mode: 0, id: ref, param_list: [34, 8, 77777] }), ref, { params: [34, 8, 77777] });
    expect(some.absent).toEqual([77777]);
    verify.verifyConfig(await ok({ kind: "liteServer.getConfigParams", mode: 0x8000, id: ref, param_list: [34] }), tl(mc(1)), { params: [34] });
    for (const [shard, exact] of [[SHARD_FULL, true], [0x4000000000000000n, true], [0x4000000000000000n, false]] as const) {
      const r = verify.verifyShardInfo(await ok({ kind: "liteServer.getShardInfo", id: ref, workchain: 0, shard: signed(shard), exact }), ref, { workchain: 0, shard, exact });
      expect(r.shardBlock === null).toBe(shard !== SHARD_FULL && exact);
    }
    verify.verifyAllShardsInfo(await ok({ kind: "liteServer.getAllShardsInfo", id: ref }), ref);
  });

  it("transactions: one with its block path, a list, block listings with and without `after`, both orders, Ext", async () => {
    const tx = txBlock.transactions[0]!;
    const account = { workchain: 0, id: tx.cell.beginParse().skip(4).loadBuffer(32) };
    const accountTl = { kind: "liteServer.accountId", ...account };
    verify.verifyTransactionInfo(await ok({ kind: "liteServer.getOneTransaction", id: tl(txBlock), account: accountTl, lt: tx.lt }), tl(txBlock), { account, lt: tx.lt });
    verify.verifyTransactionList(await ok({ kind: "liteServer.getTransactions", count: 5, account: accountTl, lt: tx.lt, hash: tx.hash }), { account, lt: tx.lt, hash: tx.hash });
    const first = (await ok({ kind: "liteServer.listBlockTransactions", id: tl(txBlock), mode: 7, count: 1 })).ids[0];
    const after = { account: first.account, lt: first.lt };
    for (const count of [1, 2, 3, 100]) {
      for (const reverse of [false, true]) {
        for (const from of [undefined, after]) {
          const mode = 7 | 32 | (reverse ? 64 : 0) | (from ? 128 : 0);
          const q = { id: tl(txBlock), mode, count, want_proof: true, reverse_order: reverse || undefined, after: from && { kind: "liteServer.transactionId3", ...from } };
          verify.verifyBlockTransactions(await ok({ kind: "liteServer.listBlockTransactions", ...q }), tl(txBlock), { reverse, after: from });
          verify.verifyBlockTransactionsExt(await ok({ kind: "liteServer.listBlockTransactionsExt", ...q }), tl(txBlock), { reverse, after: from });
        }
      }
    }
    verify.verifyBlockTransactionsExt(await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(emptyShard()), mode: 7 | 32, count: 5, want_proof: true }), tl(emptyShard()), {});
    // a masterchain block: its tick and tock transactions
    verify.verifyBlockTransactionsExt(await ok({ kind: "liteServer.listBlockTransactionsExt", id: tl(mc(5)), mode: 7 | 32, count: 5, want_proof: true }), tl(mc(5)), {});
  });

  it("block proofs: forward links verify (block headers name their validator set, signatures check)", async () => {
    const answer = await ok({ kind: "liteServer.getBlockProof", mode: 0, known_block: tlZero() });
    const p34 = loadValidatorSet(configParam(net.genesis.config, 34)!.beginParse());
    expect(mc(1).block.info.genValidatorListHashShort).toBe(computeValidatorSetHashShort(0, masterchainValidators(p34)));
    const r = verify.verifyPartialBlockProof(answer, tlZero());
    expect(r.complete).toBe(true);
    expect(r.steps.map((s) => s.type)).toEqual(["forward", "forward"]);
  });
});

// ---------------------------------------------------------------------------------------------

describe("proof building blocks (src/liteserver/cells.ts)", () => {
  /** The ordinary (not pruned) cells of a MERKLE_PROOF's tree. */
  const keptCells = (proof: Cell) => {
    let n = 0;
    const walk = (c: Cell) => {
      if (isPruned(c)) return;
      n++;
      c.refs.forEach(walk);
    };
    walk(proof.refs[0]!);
    return n;
  };

  it("dictGet / dictNearest / dictExtreme agree with a complete dictionary and read one path", () => {
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const n = 64;
    const dict = Dictionary.empty(Dictionary.Keys.BigUint(n), Dictionary.Values.Uint(16));
    const keys: bigint[] = [];
    for (let i = 0; i < 300; i++) {
      const k = (BigInt(rnd()) << 33n) ^ BigInt(rnd()) ^ (BigInt(rnd() % 4) << 62n);
      dict.set(k, i);
      keys.push(k);
    }
    const sorted = [...new Set(keys)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const root = beginCell().storeDictDirect(dict).endCell();
    const probes = [0n, (1n << 64n) - 1n, ...sorted.slice(0, 40), ...Array.from({ length: 40 }, () => (BigInt(rnd()) << 33n) ^ BigInt(rnd()))];
    for (const key of probes) {
      for (const next of [true, false]) {
        for (const allowEq of [true, false]) {
          const u = new Usage(root);
          const got = dictNearest(u, cellEdge(u, root), n, key, next, allowEq);
          const want = next ? sorted.find((k) => k > key || (allowEq && k === key)) : [...sorted].reverse().find((k) => k < key || (allowEq && k === key));
          expect(got?.key, `${key} next=${next} eq=${allowEq}`).toBe(want);
          if (got) expect(got.value.loadUint(16)).toBe(dict.get(got.key));
          const proof = u.proof();
          proven(proof, root.hash());
          expect(keptCells(proof)).toBeLessThanOrEqual(2 * 20); // two paths at most, ~log2(300) deep
        }
      }
      const u = new Usage(root);
      const leaf = dictGet(u, cellEdge(u, root), n, key);
      expect(leaf ? leaf.loadUint(16) : undefined).toBe(dict.get(key));
      const proof = u.proof();
      const seen = provenLookup(proof.refs[0]!, n, key);
      expect(seen === "absent" ? undefined : seen === "pruned" ? "pruned" : (seen as { leaf: ReturnType<Cell["beginParse"]> }).leaf.loadUint(16)).toBe(dict.get(key));
    }
    const u = new Usage(root);
    expect(dictExtreme(u, cellEdge(u, root), n, true).key).toBe(sorted[0]);
    expect(dictExtreme(u, cellEdge(u, root), n, false).key).toBe(sorted[sorted.length - 1]);
  });

  it("prev_blocks entries are read and proven as blockLinkBack and lookupBlockWithProof need them", () => {
    const prevBlocks = emptyOldMcBlocksInfo();
    for (let s = 0; s < 12; s++) {
      const key = s % 4 === 0;
      const blkRef = { endLt: BigInt(s * 1000 + 5), seqNo: s, rootHash: Buffer.alloc(32, s + 1), fileHash: Buffer.alloc(32, s + 101) };
      prevBlocks.set(s, { extra: { key, maxEndLt: blkRef.endLt }, value: { key, blkRef } });
    }
    const extra = beginCell()
      .store(
        storeMcStateExtra({
          shardHashes: emptyShardHashes(),
          config: { configAddr: Buffer.alloc(32, 0x55), config: configDict(net.genesis.config) },
          flags: 0,
          validatorInfo: { validatorListHashShort: 0, catchainSeqno: 0, nxCcUpdated: false },
          prevBlocks,
          afterKeyBlock: false,
          lastKeyBlock: null,
          globalBalance: { coins: 0n },
        }),
      )
      .endCell();
    const u = new Usage(extra);
    const other = readMcStateOther(u, unpackMcStateExtra(u, extra).other);
    expect(other.flags).toBe(0);
    expect(other.createStats).toBeNull();
    expect(prevBlock(u, other.prevBlocks, 8)).toEqual({ seqno: 8, key: true, endLt: 8005n, rootHash: Buffer.alloc(32, 9), fileHash: Buffer.alloc(32, 109) });
    expect(prevBlock(u, other.prevBlocks, 42)).toBeNull();
    const proof = u.proof();
    const root = proven(proof, extra.hash());
    const pb = root.refs[root.refs.length - 1]!.beginParse().skip(16 + 65).loadMaybeRef()!;
    expect(typeof provenLookup(pb, 32, 8n)).toBe("object");
    expect(provenLookup(pb, 32, 42n)).toBe("absent");
    expect(provenLookup(pb, 32, 3n)).toBe("pruned");
  });
});

// ---------------------------------------------------------------------------------------------

/** A well-formed query of every function in lite_api.tl. */
function samples(): Record<string, TlObject> {
  const id = tl(txBlock);
  const mcId = tl(last());
  const acc = accountId(wallet);
  const short = { kind: "tonNode.blockId", workchain: 0, shard: signed(SHARD_FULL), seqno: 1 };
  return {
    "liteServer.getMasterchainInfo": { kind: "liteServer.getMasterchainInfo" },
    "liteServer.getMasterchainInfoExt": { kind: "liteServer.getMasterchainInfoExt", mode: 0 },
    "liteServer.getTime": { kind: "liteServer.getTime" },
    "liteServer.getVersion": { kind: "liteServer.getVersion" },
    "liteServer.getBlock": { kind: "liteServer.getBlock", id },
    "liteServer.getState": { kind: "liteServer.getState", id },
    "liteServer.getBlockHeader": { kind: "liteServer.getBlockHeader", id, mode: 0 },
    "liteServer.sendMessage": { kind: "liteServer.sendMessage", body: Buffer.from("b5ee9c72", "hex") },
    "liteServer.getAccountState": { kind: "liteServer.getAccountState", id: mcId, account: acc },
    "liteServer.getAccountStatePrunned": { kind: "liteServer.getAccountStatePrunned", id: mcId, account: acc },
    "liteServer.runSmcMethod": { kind: "liteServer.runSmcMethod", mode: 4, id: mcId, account: acc, method_id: 85143n, params: Buffer.alloc(0) },
    "liteServer.getShardInfo": { kind: "liteServer.getShardInfo", id: mcId, workchain: 0, shard: signed(SHARD_FULL), exact: true },
    "liteServer.getAllShardsInfo": { kind: "liteServer.getAllShardsInfo", id: mcId },
    "liteServer.getOneTransaction": { kind: "liteServer.getOneTransaction", id, account: acc, lt: txBlock.transactions[0]!.lt },
    "liteServer.getTransactions": { kind: "liteServer.getTransactions", count: 2, account: acc, lt: 1n, hash: Buffer.alloc(32) },
    "liteServer.lookupBlock": { kind: "liteServer.lookupBlock", mode: 1, id: short },
    "liteServer.lookupBlockWithProof": { kind: "liteServer.lookupBlockWithProof", mode: 1, id: short, mc_block_id: mcId },
    "liteServer.listBlockTransactions": { kind: "liteServer.listBlockTransactions", id, mode: 7, count: 5 },
    "liteServer.listBlockTransactionsExt": { kind: "liteServer.listBlockTransactionsExt", id, mode: 7, count: 5 },
    "liteServer.getBlockProof": { kind: "liteServer.getBlockProof", mode: 1, known_block: tlZero(), target_block: mcId },
    "liteServer.getConfigAll": { kind: "liteServer.getConfigAll", mode: 0, id: mcId },
    "liteServer.getConfigParams": { kind: "liteServer.getConfigParams", mode: 0, id: mcId, param_list: [1, 2] },
    "liteServer.getValidatorStats": { kind: "liteServer.getValidatorStats", mode: 0, id: mcId, limit: 5 },
    "liteServer.getLibraries": { kind: "liteServer.getLibraries", library_list: [Buffer.alloc(32)] },
    "liteServer.getLibrariesWithProof": { kind: "liteServer.getLibrariesWithProof", id: mcId, mode: 0, library_list: [Buffer.alloc(32)] },
    "liteServer.getShardBlockProof": { kind: "liteServer.getShardBlockProof", id },
    "liteServer.getOutMsgQueueSizes": { kind: "liteServer.getOutMsgQueueSizes", mode: 0 },
    "liteServer.getBlockOutMsgQueueSize": { kind: "liteServer.getBlockOutMsgQueueSize", mode: 0, id },
    "liteServer.getDispatchQueueInfo": { kind: "liteServer.getDispatchQueueInfo", mode: 0, id, max_accounts: 5 },
    "liteServer.getDispatchQueueMessages": { kind: "liteServer.getDispatchQueueMessages", mode: 0, id, addr: wallet.hash, after_lt: 0n, max_messages: 5 },
    "liteServer.nonfinal.getPendingShardBlocks": { kind: "liteServer.nonfinal.getPendingShardBlocks", mode: 0 },
    "liteServer.queryPrefix": { kind: "liteServer.queryPrefix" },
    "liteServer.query": { kind: "liteServer.query", data: liteApi.encode({ kind: "liteServer.getTime" }) },
    "liteServer.waitMasterchainSeqno": { kind: "liteServer.waitMasterchainSeqno", seqno: 1, timeout_ms: 10 },
  };
}

/** Every function declared in lite_api.tl. */
const functionNames = () =>
  LITE_API_TL.split("---functions---")[1]!
    .split("\n")
    .map((l) => l.trim().split(/[\s#]/)[0]!)
    .filter((n) => n.startsWith("liteServer."));

/** Sends raw query bytes (the liteServer.query payload); the answer must decode. */
async function rawQuery(data: Buffer): Promise<TlObject> {
  return liteApi.decode(await adnl.query(liteApi.encode({ kind: "liteServer.query", data })));
}

describe("malformed and hostile queries", () => {
  it("a sample query exists for every function of lite_api.tl", () => {
    expect(Object.keys(samples()).sort()).toEqual(functionNames().sort());
  });

  it("truncated and garbage queries of every function answer liteServer.error, and the server keeps answering", async () => {
    const all = samples();
    for (const [name, q] of Object.entries(all)) {
      if (name === "liteServer.query" || name === "liteServer.waitMasterchainSeqno") continue;
      const bytes = liteApi.encode(q);
      const cuts = new Set([4, bytes.length - 1, bytes.length - 4, Math.floor(bytes.length / 2)].filter((n) => n >= 4 && n < bytes.length));
      for (const n of cuts) {
        const r = await rawQuery(bytes.subarray(0, n));
        expect(r, `${name} cut at ${n}`).toMatchObject({ kind: "liteServer.error", code: LiteErrorCode.protoviolation });
      }
      // the constructor id followed by garbage, and trailing garbage after a valid query
      expect((await rawQuery(Buffer.concat([bytes.subarray(0, 4), Buffer.alloc(40, 0xff)]))).kind, `${name} + garbage`).toBe("liteServer.error");
      expect((await rawQuery(Buffer.concat([bytes, Buffer.from([1, 2, 3, 4])]))).kind, `${name} + trailing`).toBe("liteServer.error");
    }
    for (const garbage of [Buffer.alloc(0), Buffer.from("not a query at all"), Buffer.alloc(100, 0x5a)]) expect((await rawQuery(garbage)).kind).toBe("liteServer.error");
    // the outer object itself malformed (no liteServer.query)
    expect(liteApi.decode(await adnl.query(Buffer.from("deadbeef", "hex"))).kind).toBe("liteServer.error");
    expect((await ok({ kind: "liteServer.getTime" })).now).toBeGreaterThan(0);
  });

  it("well-formed queries with hostile values answer a result or liteServer.error, never crash", async () => {
    const all = samples();
    const mutations: ((q: Record<string, unknown>) => Record<string, unknown>)[] = [
      (q) => ({ ...q, ...(q.id ? { id: { ...(q.id as object), seqno: -1 } } : {}) }),
      (q) => ({ ...q, ...(q.id ? { id: { ...(q.id as object), workchain: -0x80000000, shard: 0n } } : {}) }),
      (q) => ({ ...q, ...(q.id ? { id: { ...(q.id as object), root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) } } : {}) }),
      (q) => ({ ...q, ...(q.account ? { account: { kind: "liteServer.accountId", workchain: 0x7fffffff, id: Buffer.alloc(32, 0xff) } } : {}) }),
      (q) => ({ ...q, ...("count" in q ? { count: 0xffffffff } : {}), ...("limit" in q ? { limit: 0x7fffffff } : {}), ...("max_accounts" in q ? { max_accounts: 0x7fffffff } : {}) }),
      (q) => ({ ...q, ...("lt" in q ? { lt: -1n } : {}), ...("param_list" in q ? { param_list: [-0x80000000, 0x7fffffff, -1] } : {}) }),
      (q) => ({ ...q, ...("library_list" in q ? { library_list: Array.from({ length: 40 }, (_, i) => Buffer.alloc(32, i)) } : {}) }),
      (q) => ({ ...q, ...("known_block" in q ? { known_block: q.target_block, target_block: q.known_block } : {}) }),
      (q) => ({ ...q, ...("body" in q ? { body: Buffer.alloc(300, 0xab) } : {}), ...("params" in q ? { params: Buffer.from("b5ee9c72ffff", "hex") } : {}) }),
      (q) => ({ ...q, ...("mode" in q && typeof q.mode === "number" ? { mode: 0 } : {}) }),
    ];
    for (const [name, q] of Object.entries(all)) {
      if (name === "liteServer.query" || name === "liteServer.waitMasterchainSeqno" || name === "liteServer.queryPrefix") continue;
      for (const m of mutations) {
        let bytes: Buffer;
        try {
          bytes = liteApi.encode(m(q as Record<string, unknown>) as TlObject);
        } catch {
          continue; // not encodable after the mutation (e.g. a mode dropping a field the object still has)
        }
        const r = await rawQuery(bytes);
        expect(typeof r.kind, name).toBe("string");
        if (r.kind === "liteServer.error") expect(typeof r.code).toBe("number");
      }
    }
    expect((await ok({ kind: "liteServer.getTime" })).now).toBeGreaterThan(0);
    expect((await lc("liteServer_getMasterchainInfo")).last.seqno).toBe(last().id.seqno);
  });
});
