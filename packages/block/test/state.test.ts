import { readdirSync } from "node:fs";
import { gunzipSync } from "node:zlib";
import { type Account, Address, Cell, CellType, Dictionary, type Slice, beginCell, storeAccountStorage, storeStorageInfo } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  type ConfigParams,
  type McStateExtra,
  type ShardAccount,
  type ShardAccounts,
  type ShardStateUnsplit,
  KEY_WORKCHAIN,
  accountDepthBalance,
  applyMerkleUpdate,
  blockStateHashes,
  checkMerkleUpdate,
  depthBalanceInfoAug,
  diffMerkleUpdate,
  emptyLibraries,
  emptyOldMcBlocksInfo,
  emptyOutMsgQueueInfo,
  emptyShardAccounts,
  emptyShardHashes,
  hashmapAugExtra,
  libDescr,
  loadBlockHeader,
  loadBlockProof,
  loadDepthBalanceInfo,
  loadMerkleProof,
  loadMerkleUpdate,
  loadOutMsgQueueInfo,
  loadShardAccount,
  loadShardAccountsPartial,
  loadShardState,
  loadShardStateUnsplit,
  makeMerkleProof,
  merkleUpdateCell,
  parseShardState,
  proveBlockHeader,
  proveShardAccount,
  prunedBranchCell,
  shardAccountEntry,
  shardAccountFromCore,
  shardAccountFromProof,
  shardAccountToCore,
  shardIdentOf,
  shardStateCell,
  stateAccounts,
  storeOutMsgQueueInfo,
  storeShardAccount,
  storeShardAccounts,
  storeShardState,
  walkHashmap,
} from "../src/index.js";
import { FIXTURES, fixtureBytes, fixtureCells, fixtureRoot } from "./fixtures.js";

/** Deterministic PRNG (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomBytes(r: () => number, n: number): Buffer {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(r() * 256);
  return b;
}

const hex = (b: Buffer | bigint) => (typeof b === "bigint" ? b.toString(16).padStart(64, "0") : b.toString("hex"));

function coreAccount(id: Buffer, balance: bigint, lt: bigint, other?: Dictionary<number, bigint>): Account {
  return {
    addr: new Address(0, id),
    storageStats: { used: { cells: 1n, bits: 103n }, storageExtra: null, lastPaid: 1700000000, duePayment: null },
    storage: { lastTransLt: lt, balance: other ? { coins: balance, other } : { coins: balance }, state: { type: "uninit" } },
  };
}

function syntheticShardAccount(r: () => number, id: Buffer, i: number): ShardAccount {
  const lt = 1000n + BigInt(i);
  return shardAccountFromCore({ account: coreAccount(id, BigInt(Math.floor(r() * 1e12)), lt), lastTransactionHash: BigInt("0x" + hex(randomBytes(r, 32))), lastTransactionLt: lt });
}

/** An account whose address is anycast (addr_std with anycast_info depth `depth`). */
function anycastAccountCell(depth: number, id: Buffer, balance: bigint): Cell {
  const b = beginCell().storeBit(1).storeUint(0b10, 2).storeBit(1).storeUint(depth, 5).storeUint(0, depth).storeInt(0, 8).storeBuffer(id);
  b.store(storeStorageInfo({ used: { cells: 1n, bits: 100n }, storageExtra: null, lastPaid: 0, duePayment: null }));
  b.store(storeAccountStorage({ lastTransLt: 5n, balance: { coins: balance }, state: { type: "uninit" } }));
  return b.endCell();
}

function shardAccountsOf(list: ShardAccount[], ids: Buffer[]): ShardAccounts {
  const d = emptyShardAccounts();
  list.forEach((sa, i) => d.set(BigInt("0x" + hex(ids[i])), shardAccountEntry(sa)));
  return d;
}

function syntheticState(accounts: ShardAccounts, opts: { seqNo?: number; workchain?: number; custom?: McStateExtra } = {}): ShardStateUnsplit {
  const total = hashmapAugExtra(accounts, depthBalanceInfoAug).balance;
  const libs = emptyLibraries();
  const lib = beginCell().storeUint(0xdeadbeef, 32).endCell();
  libs.set(BigInt("0x" + lib.hash().toString("hex")), libDescr(lib, [Buffer.alloc(32, 7)]));
  return {
    globalId: -239,
    shardId: shardIdentOf(opts.workchain ?? 0, 0x8000000000000000n),
    seqNo: opts.seqNo ?? 10,
    vertSeqNo: 0,
    genUtime: 1700000000,
    genLt: 2000000n,
    minRefMcSeqno: 5,
    outMsgQueueInfo: emptyOutMsgQueueInfo(),
    beforeSplit: false,
    accounts,
    other: {
      overloadHistory: 0n,
      underloadHistory: 0xffffffffffffffffn,
      totalBalance: total,
      totalValidatorFees: { coins: 0n },
      libraries: libs,
      masterRef: opts.custom ? null : { master: { endLt: 1999999n, seqNo: 5, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) } },
    },
    custom: opts.custom ?? null,
  };
}

function syntheticAccounts(seed: number, n: number): { ids: Buffer[]; list: ShardAccount[]; dict: ShardAccounts } {
  const r = rng(seed);
  const ids = Array.from({ length: n }, () => randomBytes(r, 32));
  const list = ids.map((id, i) => syntheticShardAccount(r, id, i));
  return { ids, list, dict: shardAccountsOf(list, ids) };
}

function cellsOf(root: Cell): Cell[] {
  const seen = new Set<string>();
  const out: Cell[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const h = c.hash().toString("hex");
    if (seen.has(h)) continue;
    seen.add(h);
    out.push(c);
    for (const x of c.refs) stack.push(x);
  }
  return out;
}

/** Every pruned ShardStateUnsplit tree of the fixtures: block state_update sides and liteserver proofs. */
function fixtureStateTrees(): { name: string; root: Cell }[] {
  const files = [...readdirSync(new URL("blocks/", FIXTURES)).map((f) => `blocks/${f}`), "proofs/mainnet_mc_3082181_keyblock.boc", "proofs/mainnet_mc_3082182.boc"];
  const out: { name: string; root: Cell }[] = [];
  for (const f of files) {
    const u = loadMerkleUpdate(fixtureRoot(f).refs[2]);
    out.push({ name: `${f} old`, root: u.old }, { name: `${f} new`, root: u.new });
  }
  out.push({ name: "account proof", root: fixtureCells("proofs/mainnet_account_proof_wc0_31618192.boc")[1].refs[0] });
  out.push({ name: "config proof", root: fixtureRoot("proofs/mainnet_config_proof_mc65466080.boc").refs[0] });
  out.push({ name: "replay previous state proof", root: replay().prevStateProof.refs[0] });
  return out;
}

interface ReplayFixture {
  prevStateProof: Cell;
  prevStateHash: string;
  accounts: { id: string; shardAccount: Cell; shardAccountHash: string; accountHash: string }[];
}

let replayCache: ReplayFixture | undefined;
function replay(): ReplayFixture {
  if (replayCache) return replayCache;
  const j = JSON.parse(gunzipSync(fixtureBytes("replay/tvm_replay_fat_block_66519406.json.gz")).toString());
  const p = j.previous_state_proofs[0];
  replayCache = {
    prevStateProof: Cell.fromBoc(Buffer.from(p.proof_boc_base64, "base64"))[0],
    prevStateHash: p.root_hash,
    accounts: j.previous_accounts.map((a: any) => ({
      id: String(a.account).split(":")[1],
      shardAccount: Cell.fromBoc(Buffer.from(a.shard_account_boc_base64, "base64"))[0],
      shardAccountHash: a.shard_account_root_hash,
      accountHash: a.account_root_hash,
    })),
  };
  return replayCache;
}

/** The extra of a node (fork: after its refs; leaf: before the value) if it has no pruned cells. */
function completeExtraSlice(rest: Slice): Slice | null {
  const probe = rest.clone();
  loadDepthBalanceInfo(probe);
  const used = rest.remainingRefs - probe.remainingRefs;
  const r = rest.clone();
  for (let i = 0; i < used; i++) if (r.loadRef().level() > 0) return null;
  return rest.clone();
}

describe("DepthBalanceInfo: the ShardAccounts augmentation", () => {
  it("leaf extra of the fixture accounts: split_depth 0 and the account balance", () => {
    const files = readdirSync(new URL("accounts/", FIXTURES));
    expect(files.length).toBe(7);
    for (const f of files) {
      const sa = loadShardAccount(fixtureRoot(`accounts/${f}`).beginParse());
      const e = accountDepthBalance(sa.account);
      expect(e.splitDepth).toBe(0);
      expect(e.balance.coins).toBe(shardAccountToCore(sa).account!.storage.balance.coins);
      // ShardAccount is re-stored byte-exactly (the Account is kept as its cell)
      expect(beginCell().store(storeShardAccount(sa)).endCell().hash().equals(fixtureRoot(`accounts/${f}`).hash())).toBe(true);
    }
  });

  it("account_none gives the null value; anycast accounts give their depth; forks take max depth and sum balances", () => {
    expect(accountDepthBalance(beginCell().storeBit(0).endCell())).toEqual({ splitDepth: 0, balance: { coins: 0n } });
    const a = anycastAccountCell(4, Buffer.alloc(32, 1), 100n);
    expect(accountDepthBalance(a)).toEqual({ splitDepth: 4, balance: { coins: 100n } });
    const d = emptyShardAccounts();
    d.set(1n, shardAccountEntry({ account: a, lastTransHash: Buffer.alloc(32), lastTransLt: 5n }));
    d.set(2n, shardAccountEntry({ account: anycastAccountCell(2, Buffer.alloc(32, 2), 50n), lastTransHash: Buffer.alloc(32), lastTransLt: 5n }));
    const cell = beginCell().store(storeShardAccounts(d)).endCell();
    const r = loadShardAccountsPartial(cell.beginParse());
    expect(r.pruned).toBeUndefined();
    expect(r.extra).toEqual({ splitDepth: 4, balance: { coins: 150n } });
    // the root fork node carries the same extra
    const fork = [...walkHashmap(cell.refs[0], 256)].find((n) => n.type === "fork")!;
    expect(loadDepthBalanceInfo(fork.rest!)).toEqual({ splitDepth: 4, balance: { coins: 150n } });
  });

  it("extra currencies are summed at forks", () => {
    const ec = (id: number, v: bigint) => {
      const o = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.BigVarUint(5));
      o.set(id, v);
      return o;
    };
    const mk = (id: number, cur: number, v: bigint) =>
      shardAccountFromCore({ account: coreAccount(Buffer.alloc(32, id), 10n, 1n, ec(cur, v)), lastTransactionHash: 0n, lastTransactionLt: 1n });
    const d = emptyShardAccounts();
    d.set(1n, shardAccountEntry(mk(1, 7, 5n)));
    d.set(2n, shardAccountEntry(mk(2, 7, 6n)));
    d.set(3n, shardAccountEntry(mk(3, 9, 1n)));
    const r = loadShardAccountsPartial(beginCell().store(storeShardAccounts(d)).endCell().beginParse());
    expect(r.extra!.balance.coins).toBe(30n);
    expect(r.extra!.balance.other!.get(7)).toBe(11n);
    expect(r.extra!.balance.other!.get(9)).toBe(1n);
  });

  it("agrees with every checkable ShardAccounts node of the real (pruned) states", () => {
    // A fork is checkable when both children are present and none of the three extras has a pruned
    // extra-currency dictionary; a leaf when its Account cell is present.
    let forks = 0;
    let leaves = 0;
    let allForks = 0;
    for (const { name, root } of fixtureStateTrees()) {
      const accountsCell = root.refs[1];
      if (accountsCell.isExotic) continue;
      const dictRoot = accountsCell.beginParse().loadMaybeRef();
      if (!dictRoot) continue;
      const extraOf = (cell: Cell, n: number) => walkHashmap(cell, n).next().value!.rest!;
      for (const node of walkHashmap(dictRoot, 256)) {
        if (node.type === "fork") {
          allForks++;
          if (node.left!.isExotic || node.right!.isExotic) continue;
          const below = 256 - node.pathLen - 1;
          const l = completeExtraSlice(extraOf(node.left!, below));
          const r = completeExtraSlice(extraOf(node.right!, below));
          const stored = beginCell().storeSlice(node.rest!).endCell();
          if (!l || !r || stored.level() > 0) continue;
          const computed = beginCell().store(depthBalanceInfoAug.store(depthBalanceInfoAug.fork(loadDepthBalanceInfo(l), loadDepthBalanceInfo(r)))).endCell();
          expect(computed.hash().equals(stored.hash()), `${name}: fork at ${node.pathLen} bits`).toBe(true);
          forks++;
        } else if (node.type === "leaf") {
          const rest = node.rest!.clone();
          const stored = loadDepthBalanceInfo(rest);
          const sa = loadShardAccount(rest);
          if (sa.account.isExotic) continue;
          const a = beginCell().store(depthBalanceInfoAug.store(accountDepthBalance(sa.account))).endCell();
          const b = beginCell().store(depthBalanceInfoAug.store(stored)).endCell();
          expect(a.hash().equals(b.hash()), `${name}: leaf ${hex(node.path)}`).toBe(true);
          leaves++;
        }
      }
    }
    expect(allForks).toBe(14987);
    expect(forks).toBe(665);
    expect(leaves).toBe(313);
  });
});

describe("ShardStateUnsplit", () => {
  it("every pruned state of the fixtures re-serializes to the same cells (unpruned parts rebuilt, pruned kept)", () => {
    const trees = fixtureStateTrees();
    expect(trees.length).toBe(23);
    let partialDicts = 0;
    for (const { name, root } of trees) {
      const st = loadShardStateUnsplit(root.beginParse());
      if (st.accountsPruned) partialDicts++;
      const again = shardStateCell(st);
      expect(again.hash().equals(root.hash()), name).toBe(true); // representation hash: the same pruned tree
      expect(again.hash(0).equals(root.hash(0)), name).toBe(true); // and the same state hash
    }
    expect(partialDicts).toBe(22); // the config proof prunes the whole accounts dictionary
  });

  it("the account proof state: header fields, one account on the path, the rest pruned", () => {
    const proof = fixtureCells("proofs/mainnet_account_proof_wc0_31618192.boc")[1];
    const st = parseShardState(proof);
    expect(st.seqNo).toBe(31618192);
    expect(st.shardId.workchainId).toBe(0);
    expect(st.outMsgQueueInfo).toBeInstanceOf(Cell);
    expect(st.other).toBeInstanceOf(Cell); // total_balance's extra currencies are pruned
    expect(st.custom).toBeNull();
    const accounts = st.accounts as ShardAccounts;
    expect(accounts.size).toBe(1);
    expect(st.accountsPruned!.subtrees.length).toBe(21);
    expect(st.accountsPruned!.rootExtra).toBeDefined();
    const [[, leaf]] = [...accounts];
    expect(leaf.value.account.type).toBe(CellType.PrunedBranch);
  });

  it("real OutMsgQueueInfo cells (with and without out_msg_queue_extra) round-trip", () => {
    let withExtra = 0;
    let nonEmpty = 0;
    let n = 0;
    for (const { name, root } of fixtureStateTrees()) {
      const q = root.refs[0];
      if (q.isExotic || q.level() > 0) continue;
      const info = loadOutMsgQueueInfo(q.beginParse());
      expect(beginCell().store(storeOutMsgQueueInfo(info)).endCell().hash().equals(q.hash()), name).toBe(true);
      if (info.extra) withExtra++;
      if (info.outQueue.size > 0) nonEmpty++;
      n++;
    }
    expect(n).toBe(8);
    expect(withExtra).toBe(3);
    expect(nonEmpty).toBe(1);
    // the bare empty queue: ahme_empty + extra 0, hme_empty, nothing
    const bare = beginCell().store(storeOutMsgQueueInfo(emptyOutMsgQueueInfo(false))).endCell();
    expect(bare.bits.length).toBe(1 + 64 + 1 + 1);
    // the default one is what a 2025 mainnet state has (with its proc_info)
    const mainnet = fixtureStateTrees().find((t) => t.name === "blocks/mainnet_mc_47129122.boc new")!.root.refs[0];
    const mq = loadOutMsgQueueInfo(mainnet.beginParse());
    expect(mq.outQueue.size).toBe(0);
    const ours = beginCell().store(storeOutMsgQueueInfo({ ...emptyOutMsgQueueInfo(), procInfo: mq.procInfo })).endCell();
    expect(ours.hash().equals(mainnet.hash())).toBe(true);
  });

  it("a synthetic basechain state: storer → loader → storer gives the same hash", () => {
    const { ids, list, dict } = syntheticAccounts(1, 300);
    // real account cells too (byte-exact)
    for (const f of readdirSync(new URL("accounts/", FIXTURES))) {
      const sa = loadShardAccount(fixtureRoot(`accounts/${f}`).beginParse());
      const id = f.split("_").slice(-1)[0].split(".")[0];
      const real = shardAccountToCore(sa).account!.addr.hash;
      expect(real.toString("hex").startsWith(id)).toBe(true);
      dict.set(BigInt("0x" + real.toString("hex")), shardAccountEntry(sa));
    }
    const state = syntheticState(dict);
    const cell = shardStateCell(state);
    const back = loadShardStateUnsplit(cell.beginParse());
    expect(back.accountsPruned).toBeUndefined();
    expect(stateAccounts(back).size).toBe(307);
    expect(shardStateCell(back).hash().equals(cell.hash())).toBe(true);
    // the accounts root extra is the total balance
    const acc = loadShardAccountsPartial(cell.refs[1].beginParse());
    expect(acc.extra!.balance.coins).toBe((state.other as { totalBalance: { coins: bigint } }).totalBalance.coins);
    const got = stateAccounts(back).get(BigInt("0x" + hex(ids[17])))!;
    expect(got.value.account.hash().equals(list[17].account.hash())).toBe(true);
    expect(got.value.lastTransLt).toBe(list[17].lastTransLt);
    // libraries and master_ref survive
    const other = back.other as Exclude<ShardStateUnsplit["other"], Cell>;
    expect(other.libraries.size).toBe(1);
    expect(other.masterRef!.master.seqNo).toBe(5);
  });

  it("a masterchain state with McStateExtra, an empty one, and split_state round-trip", () => {
    const config = Dictionary.empty(KEY_WORKCHAIN, Dictionary.Values.Cell());
    config.set(0, beginCell().storeBuffer(Buffer.alloc(32, 5)).endCell());
    const cp: ConfigParams = { configAddr: Buffer.alloc(32, 5), config };
    const custom: McStateExtra = {
      shardHashes: emptyShardHashes(),
      config: cp,
      flags: 0,
      validatorInfo: { validatorListHashShort: 1, catchainSeqno: 2, nxCcUpdated: false },
      prevBlocks: emptyOldMcBlocksInfo(),
      afterKeyBlock: true,
      lastKeyBlock: null,
      globalBalance: { coins: 5000000000n },
    };
    const mc = syntheticState(syntheticAccounts(2, 5).dict, { workchain: -1, custom });
    const cell = shardStateCell(mc);
    const back = loadShardStateUnsplit(cell.beginParse());
    expect(back.custom).not.toBeInstanceOf(Cell);
    expect(shardStateCell(back).hash().equals(cell.hash())).toBe(true);

    const empty = syntheticState(emptyShardAccounts());
    const ec = shardStateCell(empty);
    expect(ec.refs[1].bits.length).toBe(1 + 5 + 4 + 1); // ahme_empty + zero DepthBalanceInfo
    expect(shardStateCell(loadShardStateUnsplit(ec.beginParse())).hash().equals(ec.hash())).toBe(true);

    const split = beginCell().store(storeShardState({ type: "split_state", left: empty, right: mc })).endCell();
    const sb = loadShardState(split.beginParse());
    expect(sb.type).toBe("split_state");
    expect(beginCell().store(storeShardState(sb)).endCell().hash().equals(split.hash())).toBe(true);
  });
});

describe("Merkle proofs of states and block headers", () => {
  it("proveShardAccount reproduces a mainnet liteserver's state proof exactly", () => {
    const [, stateProof] = fixtureCells("proofs/mainnet_account_proof_wc0_31618192.boc");
    const accounts = parseShardState(stateProof).accounts as ShardAccounts;
    const [[id]] = [...accounts];
    const mine = proveShardAccount(stateProof, id);
    expect(mine.hash().equals(stateProof.hash())).toBe(true);
    const found = shardAccountFromProof(mine, id);
    expect(found.account!.lastTransLt).toBe(33893781000001n);
    expect(found.extra!.splitDepth).toBe(0);
  });

  it("proveBlockHeader reproduces the liteserver header proof and validators' BlockProof", () => {
    const [headerProof] = fixtureCells("proofs/mainnet_account_proof_wc0_31618192.boc");
    expect(proveBlockHeader(headerProof).hash().equals(headerProof.hash())).toBe(true);
    const block = fixtureRoot("proofs/mainnet_mc_3082182.boc");
    const bp = loadBlockProof(fixtureRoot("proofs/mainnet_mc_3082182.proof.boc").beginParse());
    expect(proveBlockHeader(block, { withValueFlow: true, withExtraRoot: true }).hash().equals(bp.root.hash())).toBe(true);
  });

  it("proveBlockHeader on every fixture block: the block hash, the header, the state hashes; the rest pruned", () => {
    const files = [...readdirSync(new URL("blocks/", FIXTURES)).map((f) => `blocks/${f}`), "proofs/mainnet_mc_3082182.boc"];
    for (const f of files) {
      const block = fixtureRoot(f);
      const proof = proveBlockHeader(block);
      expect(proof.type).toBe(CellType.MerkleProof);
      expect(loadMerkleProof(proof).virtualHash.equals(block.hash())).toBe(true);
      const vroot = proof.refs[0];
      expect(vroot.hash(0).equals(block.hash())).toBe(true);
      expect(loadBlockHeader(vroot.beginParse()).info.seqNo).toBe(loadBlockHeader(block.beginParse()).info.seqNo);
      expect(vroot.refs[1].type).toBe(CellType.PrunedBranch);
      expect(vroot.refs[3].type).toBe(CellType.PrunedBranch);
      const upd = vroot.refs[2];
      expect(upd.type).toBe(CellType.MerkleUpdate);
      // the states under the MERKLE_UPDATE are pruned one Merkle level deeper: mask 0b11
      for (const s of upd.refs) expect([s.type, s.mask.value]).toEqual([CellType.PrunedBranch, 3]);
      expect(blockStateHashes(proof)).toEqual(blockStateHashes(block));
      expect(cellsOf(proof).length).toBeLessThan(12);
    }
  });

  it("proveShardAccount on a synthetic state: virtual hash = state hash, the account readable, absence provable", () => {
    const { ids, list, dict } = syntheticAccounts(3, 500);
    const state = shardStateCell(syntheticState(dict));
    for (const i of [0, 1, 99, 250, 499]) {
      const proof = proveShardAccount(state, ids[i]);
      expect(proof.refs[0].hash(0).equals(state.hash())).toBe(true);
      expect(loadMerkleProof(proof).virtualHash.equals(state.hash())).toBe(true);
      expect(cellsOf(proof).length).toBeLessThan(60);
      const found = shardAccountFromProof(proof, ids[i]);
      // like a liteserver's: the Account is pruned, the proof pins its hash
      expect(found.account!.account.type).toBe(CellType.PrunedBranch);
      expect(found.account!.account.hash(0).equals(list[i].account.hash())).toBe(true);
      expect(found.account!.lastTransHash.equals(list[i].lastTransHash)).toBe(true);
      expect(found.extra).toEqual(accountDepthBalance(list[i].account));
      // with the account itself
      const full = shardAccountFromProof(proveShardAccount(state, ids[i], { withAccount: true }), ids[i]);
      expect(full.account!.account.hash().equals(list[i].account.hash())).toBe(true);
      expect(shardAccountToCore(full.account!).account!.storage.balance.coins).toBe(accountDepthBalance(list[i].account).balance.coins);
      // the proof is a pruned state that parses and re-serializes
      const ps = parseShardState(proof);
      expect((ps.accounts as ShardAccounts).size).toBe(1);
      expect(shardStateCell(ps).hash().equals(proof.refs[0].hash())).toBe(true);
    }
    const missing = Buffer.from(ids[5]);
    missing[31] ^= 1;
    const absent = proveShardAccount(state, missing);
    expect(absent.refs[0].hash(0).equals(state.hash())).toBe(true);
    expect(shardAccountFromProof(absent, missing).account).toBeNull();
  });

  it("proveShardAccount on the replay's previous-state proof: 233 accounts with their on-chain ShardAccount hashes, 1 absent", () => {
    const rp = replay();
    expect(rp.prevStateProof.refs[0].hash(0).toString("hex")).toBe(rp.prevStateHash);
    expect(rp.accounts.length).toBe(234);
    let absent = 0;
    for (const a of rp.accounts) {
      const proof = proveShardAccount(rp.prevStateProof, Buffer.from(a.id, "hex"));
      expect(proof.refs[0].hash(0).toString("hex")).toBe(rp.prevStateHash);
      const found = shardAccountFromProof(proof, Buffer.from(a.id, "hex")).account;
      if (!found) {
        // created by the block: before it, account_none (not in the dictionary)
        expect(loadShardAccount(a.shardAccount.beginParse()).account.bits.length).toBe(1);
        absent++;
        continue;
      }
      expect(found.account.hash(0).toString("hex")).toBe(a.accountHash);
      // the ShardAccount cell rebuilt over the pruned Account has the on-chain ShardAccount hash
      expect(beginCell().store(storeShardAccount(found)).endCell().hash(0).toString("hex")).toBe(a.shardAccountHash);
      expect(a.shardAccount.hash().toString("hex")).toBe(a.shardAccountHash);
    }
    expect(absent).toBe(1);
  });

  it("makeMerkleProof / prunedBranchCell: levels follow the node's create_pruned_branch", () => {
    const leaf = beginCell().storeUint(42, 32).endCell();
    const p0 = prunedBranchCell(leaf);
    expect([p0.mask.value, p0.bits.length]).toEqual([1, 8 + 8 + 256 + 16]);
    expect(p0.hash(0).equals(leaf.hash())).toBe(true);
    // a level-1 cell pruned one Merkle level deeper keeps its level-0 and level-1 hashes
    const partial = beginCell().storeUint(1, 8).storeRef(p0).endCell();
    expect(partial.level()).toBe(1);
    const p1 = prunedBranchCell(partial, 1);
    expect([p1.mask.value, p1.bits.length]).toEqual([3, 8 + 8 + 2 * (256 + 16)]);
    expect(p1.hash(0).equals(partial.hash(0))).toBe(true);
    expect(p1.hash(1).equals(partial.hash(1))).toBe(true);
    // at depth 0 a partial cell is pruned as the original cell it stands for
    const pv = prunedBranchCell(partial, 0);
    expect([pv.mask.value, pv.hash(0).equals(partial.hash(0)), pv.depth(0)]).toEqual([1, true, partial.depth(0)]);
    // keep by predicate / by hash set
    const root = beginCell().storeUint(7, 8).storeRef(leaf).storeRef(beginCell().storeUint(8, 8).endCell()).endCell();
    const proof = makeMerkleProof(root, new Set([leaf.hash().toString("hex")]));
    expect(proof.refs[0].refs[0].hash().equals(leaf.hash())).toBe(true);
    expect(proof.refs[0].refs[1].type).toBe(CellType.PrunedBranch);
    expect(proof.refs[0].hash(0).equals(root.hash())).toBe(true);
    expect(makeMerkleProof(root, () => true).refs[0].hash().equals(root.hash())).toBe(true);
  });
});

describe("state_update: diffMerkleUpdate / applyMerkleUpdate / checkMerkleUpdate", () => {
  it("a synthetic block's state transition: small update, valid, applies to the new state", () => {
    const r = rng(9);
    const { ids, list, dict } = syntheticAccounts(4, 400);
    const oldState = syntheticState(dict, { seqNo: 10 });
    const oldCell = shardStateCell(oldState);
    const next = emptyShardAccounts();
    for (const [k, v] of dict) next.set(k, v);
    for (const i of [3, 50, 51, 200, 399]) {
      const sa = syntheticShardAccount(r, ids[i], 10_000 + i);
      next.set(BigInt("0x" + hex(ids[i])), shardAccountEntry(sa));
    }
    next.delete(BigInt("0x" + hex(ids[7])));
    for (let i = 0; i < 2; i++) {
      const id = randomBytes(r, 32);
      next.set(BigInt("0x" + hex(id)), shardAccountEntry(syntheticShardAccount(r, id, 20_000 + i)));
    }
    const newCell = shardStateCell({ ...syntheticState(next, { seqNo: 11 }) });
    const upd = diffMerkleUpdate(oldCell, newCell);
    checkMerkleUpdate(upd);
    const updCell = merkleUpdateCell(upd); // @ton/core checks hashes and depths
    expect(updCell.level()).toBe(0);
    expect(upd.oldHash.equals(oldCell.hash())).toBe(true);
    expect(upd.newHash.equals(newCell.hash())).toBe(true);
    expect(applyMerkleUpdate(oldCell, upd).hash().equals(newCell.hash())).toBe(true);
    expect(cellsOf(updCell).length).toBeLessThan(cellsOf(newCell).length / 4);
    // the new side parses as a pruned state with the changed accounts present
    // (5 changed + 2 new, and the neighbours whose edge labels changed with the insertions/deletion)
    const ns = parseShardState(upd.new);
    const present = ns.accounts as ShardAccounts;
    expect(present.size).toBe(9);
    for (const i of [3, 50, 51, 200, 399]) expect(present.get(BigInt("0x" + hex(ids[i])))!.value.lastTransLt).toBe(10_000n + BigInt(i) + 1000n);
    expect(present.has(BigInt("0x" + hex(ids[7])))).toBe(false);
    expect(list.length).toBe(400);
  });

  it("a sub-tree that moves under a new parent is carried in full (pruning it would make the update invalid)", () => {
    const c = beginCell().storeUint(0xc, 8).storeRef(beginCell().storeUint(0xcc, 8)).endCell();
    const a = beginCell().storeUint(0xa, 8).storeRef(c).endCell();
    const oldRoot = beginCell().storeUint(1, 8).storeRef(a).endCell();
    const b = beginCell().storeUint(0xb, 8).storeRef(c).endCell();
    const newRoot = beginCell().storeUint(2, 8).storeRef(a).storeRef(b).endCell();
    const upd = diffMerkleUpdate(oldRoot, newRoot);
    checkMerkleUpdate(upd);
    expect(upd.new.refs[0].type).toBe(CellType.PrunedBranch); // a: known in old
    expect(upd.new.refs[1].refs[0].hash().equals(c.hash())).toBe(true); // c: hidden in old under pruned a
    expect(applyMerkleUpdate(oldRoot, upd).hash().equals(newRoot.hash())).toBe(true);
    // the naive "prune every shared cell" update fails the node's check
    const naive = { ...upd, new: makeMerkleProof(newRoot, (x) => x.hash().equals(b.hash())).refs[0] };
    expect(() => checkMerkleUpdate(naive)).toThrow(/not in the old state/);
  });

  it("the real blocks' state updates pass checkMerkleUpdate", () => {
    const files = [...readdirSync(new URL("blocks/", FIXTURES)).map((f) => `blocks/${f}`), "proofs/mainnet_mc_3082182.boc"];
    for (const f of files) checkMerkleUpdate(loadMerkleUpdate(fixtureRoot(f).refs[2]));
  });
});
