// Synthetic chain (test/synth.ts): the answers no real fixture covers — backward links and proof chains,
// masterchain accounts (empty shard_proof), absent accounts and shards, split shards, runSmcMethod on a
// missing account, a complete config proof. Proofs are cut like the liteserver cuts them (test/cut.ts).
import type { Cell } from "@ton/core";
import { loadShardDescr } from "@tongate/block";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type LiteServerAccountState,
  type LiteServerConfigInfo,
  type LiteServerPartialBlockProof,
  type LiteServerRunMethodResult,
  type LiteServerShardInfo,
  type TonNodeBlockIdExt,
  WORKCHAIN_INVALID,
  blockIdToString,
  verifyAccountState,
  verifyBlockLinkBack,
  verifyBlockLinkForward,
  verifyConfig,
  verifyPartialBlockProof,
  verifyRunMethodResult,
  verifyShardInfo,
} from "../src/index.js";
import { headerProof, keepPaths } from "./cut.js";
import { key, merkleProof, multiRootBoc, viaTl } from "./helpers.js";
import { type SynthBlock, type SynthChain, buildChain, makeAccount, signatureSet } from "./synth.js";

const INVALID_ID: TonNodeBlockIdExt = { workchain: WORKCHAIN_INVALID, shard: 0n, seqno: 0, root_hash: Buffer.alloc(32), file_hash: Buffer.alloc(32) };

let ch: SynthChain;
beforeAll(() => {
  ch = buildChain();
});

// McStateExtra parts of a synthetic state: refs [out_msg_queue_info, accounts, other, custom]
const custom = (st: Cell) => st.refs[3];
const shardHashesRoot = (st: Cell) => custom(st).refs[0];
const configRoot = (st: Cell) => custom(st).refs[1];
const inner = (st: Cell) => custom(st).refs[2];
const accounts = (st: Cell) => st.refs[1];

const leafOf = (b: SynthBlock) => (c: Cell) => {
  if (c.isExotic || c.bits.length < 100) return false;
  const s = c.beginParse();
  if (s.loadBit()) return false;
  try {
    return loadShardDescr(s).rootHash.equals(b.id.root_hash);
  } catch {
    return false;
  }
};

/** [mc block header with state_update, mc state with the path to `targets`] as a 2-root BoC. */
function mcStateProof(mc: SynthBlock, targets: Cell[]): Buffer {
  return multiRootBoc([headerProof(mc.root), merkleProof(mc.state, keepPaths(mc.state, targets))]);
}

function accountProof(b: SynthBlock, targets: Cell[], whole = false): Buffer {
  return multiRootBoc([headerProof(b.root), merkleProof(b.state, keepPaths(b.state, targets, whole))]);
}

function backLink(from: SynthBlock, to: SynthBlock, patch: Record<string, unknown> = {}) {
  return {
    kind: "liteServer.blockLinkBack",
    to_key_block: to.info.keyBlock,
    from: from.id,
    to: to.id,
    dest_proof: headerProof(to.root, false).toBoc(),
    proof: headerProof(from.root).toBoc(),
    state_proof: merkleProof(from.state, keepPaths(from.state, [inner(from.state)])).toBoc(),
    ...patch,
  };
}

function configProof(key: SynthBlock, params: number[], c: SynthChain = ch): Buffer {
  const cells = params.map((p) => c.config.get(p)!);
  const k = keepPaths(key.root, [...cells, key.root.refs[0]]);
  return merkleProof(key.root, k).toBoc();
}

function fwdLink(from: SynthBlock, to: SynthBlock, signers: number[], patch: Record<string, unknown> = {}, c: SynthChain = ch) {
  return {
    kind: "liteServer.blockLinkForward",
    to_key_block: to.info.keyBlock,
    from: from.id,
    to: to.id,
    dest_proof: headerProof(to.root, false).toBoc(),
    config_proof: configProof(from, [28, 34], c),
    signatures: signatureSet(to, signers),
    ...patch,
  };
}

const proofChain = (from: TonNodeBlockIdExt, to: TonNodeBlockIdExt, steps: Record<string, unknown>[], complete = true) =>
  viaTl<LiteServerPartialBlockProof>({ kind: "liteServer.partialBlockProof", complete, from, to, steps });

describe("synthetic: liteServer.partialBlockProof (backward links, forward links, chains)", () => {
  it("back 11 → 10 (key block) then forward 10 → 12: the chain from trusted 11 reaches 12", () => {
    const r = verifyPartialBlockProof(proofChain(ch.mc11.id, ch.mc12.id, [backLink(ch.mc11, ch.mc10), fwdLink(ch.mc10, ch.mc12, [0, 1, 2])]), ch.mc11.id, ch.mc12.id);
    expect(r.steps.map((s) => s.type)).toEqual(["back", "forward"]);
    expect(blockIdToString(r.lastKeyBlock!)).toBe(blockIdToString(ch.mc10.id));
    expect(r.steps[1].signedWeight).toBe(60n);
  });

  it("back links 12 → 11 and 12 → 10 (prev_blocks of state 12); forward with 5/6 of the weight", () => {
    expect(verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc11))).toKeyBlock).toBe(false);
    expect(verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc10))).toKeyBlock).toBe(true);
    expect(verifyBlockLinkForward(viaTl(fwdLink(ch.mc10, ch.mc11, [1, 2]))).signedWeight).toBe(50n);
    // an incomplete proof: the chain stops at 10 on the way to 12
    const partial = verifyPartialBlockProof(proofChain(ch.mc11.id, ch.mc10.id, [backLink(ch.mc11, ch.mc10)], false), ch.mc11.id, ch.mc12.id);
    expect(partial.complete).toBe(false);
  });

  it("backward links rejected: unknown or forged destination, foreign state, wrong key flag, missing state_update", () => {
    const fake = { ...ch.mc10.id, root_hash: Buffer.alloc(32, 3) };
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc10, { to: fake })))).toThrow(/prev_blocks of .*12.* has seqno 10 root c4|prev_blocks of .* has seqno 10/);
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc11, ch.mc10, { to: { ...ch.mc11.id, seqno: 9 } })))).toThrow(/is not a previous masterchain block .*absent from prev_blocks/);
    const other = buildChain({ main: 4 });
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc12, other.mc11)))).toThrow(/prev_blocks of .* has seqno 11/);
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc10, { dest_proof: headerProof(ch.mc11.root, false).toBoc() })))).toThrow(/dest_proof/);
    const to11From11 = backLink(ch.mc11, ch.mc10);
    expect(() => verifyBlockLinkBack(viaTl({ ...backLink(ch.mc12, ch.mc11), state_proof: to11From11.state_proof }))).toThrow(/state_proof .*Merkle proof is for hash/);
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc10, { to_key_block: false })))).toThrow(/prev_blocks marks .* key=true, the link says to_key_block=false/);
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc12, ch.mc10, { proof: headerProof(ch.mc12.root, false).toBoc() })))).toThrow(/state_update is pruned/);
    expect(() => verifyBlockLinkBack(viaTl(backLink(ch.mc11, ch.mc12)))).toThrow(/does not go back/);
  });

  it("forward links rejected: a signer outside the mc subset, too little weight, p28 pruned, a header naming another validator list", () => {
    expect(() => verifyBlockLinkForward(viaTl(fwdLink(ch.mc10, ch.mc12, [0, 1, 2, 3])))).toThrow(/unknown signer/);
    expect(() => verifyBlockLinkForward(viaTl(fwdLink(ch.mc10, ch.mc12, [0, 1])))).toThrow(/signed weight 30 is not above 2\/3 of 60/);
    expect(() => verifyBlockLinkForward(viaTl(fwdLink(ch.mc10, ch.mc12, [0, 1, 2], { config_proof: configProof(ch.mc10, [34]) })))).toThrow(/config param 28 is pruned/);
    expect(() => verifyBlockLinkForward(viaTl(fwdLink(ch.mc11, ch.mc12, [0, 1, 2], { config_proof: configProof(ch.mc10, [28, 34]) })))).toThrow(/config_proof.*Merkle proof is for hash/);
    const other = buildChain({ shuffle: true, headerShuffle: false });
    expect(() => verifyBlockLinkForward(viaTl(fwdLink(other.mc10, other.mc12, [0, 1, 2], {}, other)))).toThrow(/different from .* stated in block header/);
    const plain = buildChain({ shuffle: false });
    expect(verifyBlockLinkForward(viaTl(fwdLink(plain.mc10, plain.mc12, [0, 1, 2], {}, plain))).type).toBe("forward");
  });

  it("chains rejected: steps that do not connect, a wrong end", () => {
    expect(() => verifyPartialBlockProof(proofChain(ch.mc11.id, ch.mc12.id, [backLink(ch.mc12, ch.mc10)]), ch.mc11.id)).toThrow(/step #1 begins with block/);
    expect(() => verifyPartialBlockProof(proofChain(ch.mc11.id, ch.mc12.id, [backLink(ch.mc11, ch.mc10)]), ch.mc11.id)).toThrow(/last step ends at/);
  });
});

describe("synthetic: liteServer.accountState for masterchain and split-basechain accounts", () => {
  const answer = (patch: Partial<LiteServerAccountState>) =>
    viaTl<LiteServerAccountState>({ kind: "liteServer.accountState", id: ch.mc12.id, shardblk: ch.mc12.id, shard_proof: Buffer.alloc(0), proof: Buffer.alloc(0), state: Buffer.alloc(0), ...patch });

  it("masterchain account: shardblk = the mc block, empty shard_proof; present and proven absent", () => {
    const a = ch.mcAccount;
    const r = verifyAccountState(answer({ proof: accountProof(ch.mc12, [a.cell]), state: a.cell.toBoc() }), ch.mc12.id, { workchain: -1, id: a.id });
    expect(r.shardAccount!.lastTransLt).toBe(a.lastTransLt);
    expect(r.shardAccount!.lastTransHash).toEqual(a.lastTransHash);
    const missing = makeAccount("nobody");
    const whole = accountProof(ch.mc12, [accounts(ch.mc12.state)], true);
    const r2 = verifyAccountState(answer({ proof: whole }), ch.mc12.id, { workchain: -1, id: missing.id });
    expect(r2.shardAccount).toBeNull();
    expect(r2.account).toBeNull();
    expect(() => verifyAccountState(answer({ proof: whole, state: a.cell.toBoc() }), ch.mc12.id, { workchain: -1, id: missing.id })).toThrow(/must be empty/);
    expect(() => verifyAccountState(answer({ proof: accountProof(ch.mc12, [a.cell]), state: a.cell.toBoc(), shard_proof: whole }), ch.mc12.id, { workchain: -1, id: a.id })).toThrow(
      /shard_proof must be empty/,
    );
  });

  it("basechain account: mc state's ShardHashes → left shard block 0:4000… → its state's account", () => {
    const a = ch.wcAccount;
    const r = verifyAccountState(
      answer({ shardblk: ch.left.id, shard_proof: mcStateProof(ch.mc12, findLeaf(ch.left)), proof: accountProof(ch.left, [a.cell]), state: a.cell.toBoc() }),
      ch.mc12.id,
      { workchain: 0, id: a.id },
    );
    expect(blockIdToString(r.shardBlock!)).toBe(blockIdToString(ch.left.id));
    // the right shard cannot hold it; a shardblk the mc state does not list is refused
    expect(() =>
      verifyAccountState(answer({ shardblk: ch.right.id, shard_proof: mcStateProof(ch.mc12, findLeaf(ch.right)), proof: accountProof(ch.right, []), state: a.cell.toBoc() }), ch.mc12.id, {
        workchain: 0,
        id: a.id,
      }),
    ).toThrow(/cannot contain account/);
    const forgedLeft = { ...ch.left.id, root_hash: ch.right.id.root_hash };
    expect(() =>
      verifyAccountState(answer({ shardblk: forgedLeft, shard_proof: mcStateProof(ch.mc12, findLeaf(ch.left)), proof: accountProof(ch.left, [a.cell]), state: a.cell.toBoc() }), ch.mc12.id, {
        workchain: 0,
        id: a.id,
      }),
    ).toThrow(/lists top block .* not/);
  });

  it("an account of a workchain the masterchain does not know: empty shardblk, shard_proof proves the absence", () => {
    const a = { workchain: 7, id: ch.wcAccount.id };
    const proof = mcStateProof(ch.mc12, [shardHashesRoot(ch.mc12.state)]);
    const r = verifyAccountState(answer({ shardblk: INVALID_ID, shard_proof: proof }), ch.mc12.id, a);
    expect(r.shardBlock).toBeNull();
    expect(() => verifyAccountState(answer({ shardblk: INVALID_ID, shard_proof: proof }), ch.mc12.id, { workchain: 0, id: a.id })).toThrow(/has shard block/);
    // the masterchain is never in ShardHashes: hiding a masterchain account this way is refused
    expect(() => verifyAccountState(answer({ shardblk: INVALID_ID, shard_proof: proof }), ch.mc12.id, { workchain: -1, id: ch.mcAccount.id })).toThrow(
      /empty for a masterchain account/,
    );
  });

  it("malformed shard ids are refused before any lookup (shard 0 would never end a prefix walk)", () => {
    const a = ch.wcAccount;
    const zeroShard = { ...ch.left.id, shard: 0n };
    expect(() => verifyAccountState(answer({ shardblk: zeroShard, shard_proof: mcStateProof(ch.mc12, findLeaf(ch.left)) }), ch.mc12.id, { workchain: 0, id: a.id })).toThrow(
      /invalid shard id/,
    );
    const info = viaTl<LiteServerShardInfo>({ kind: "liteServer.shardInfo", id: ch.mc12.id, shardblk: zeroShard, shard_proof: mcStateProof(ch.mc12, findLeaf(ch.left)), shard_descr: Buffer.alloc(0) });
    expect(() => verifyShardInfo(info, ch.mc12.id)).toThrow(/invalid shard id 0/);
  });
});

function findLeaf(b: SynthBlock): Cell[] {
  const out: Cell[] = [];
  const seen = new Set<string>();
  const walk = (c: Cell) => {
    if (seen.has(key(c))) return;
    seen.add(key(c));
    if (leafOf(b)(c)) out.push(c);
    c.refs.forEach(walk);
  };
  walk(shardHashesRoot(ch.mc12.state));
  return out;
}

describe("synthetic: liteServer.shardInfo on a split workchain", () => {
  const answer = (shardblk: TonNodeBlockIdExt, leafOfBlock: SynthBlock | null, targets: Cell[]) =>
    viaTl<LiteServerShardInfo>({
      kind: "liteServer.shardInfo",
      id: ch.mc12.id,
      shardblk,
      shard_proof: mcStateProof(ch.mc12, targets),
      shard_descr: leafOfBlock ? findLeaf(leafOfBlock)[0].toBoc() : Buffer.alloc(0),
    });

  it("exact and containing-shard lookups; proven absences (split shard, unknown workchain)", () => {
    const left = answer(ch.left.id, ch.left, findLeaf(ch.left));
    expect(verifyShardInfo(left, ch.mc12.id, { workchain: 0, shard: 0x4000000000000000n, exact: true }).shardBlock!.seqno).toBe(5);
    expect(verifyShardInfo(left, ch.mc12.id, { workchain: 0, shard: 0x2000000000000000n, exact: false }).shardBlock!.seqno).toBe(5);
    const whole = [shardHashesRoot(ch.mc12.state)];
    expect(verifyShardInfo(answer(INVALID_ID, null, whole), ch.mc12.id, { workchain: 0, shard: 0x8000000000000000n, exact: true }).shardBlock).toBeNull();
    expect(verifyShardInfo(answer(INVALID_ID, null, whole), ch.mc12.id, { workchain: 7, shard: 0x8000000000000000n, exact: false }).shardBlock).toBeNull();
  });

  it("rejects: a hidden shard, the other shard's descr, absence without the request", () => {
    const whole = [shardHashesRoot(ch.mc12.state)];
    expect(() => verifyShardInfo(answer(INVALID_ID, null, whole), ch.mc12.id, { workchain: 0, shard: 0x4000000000000000n, exact: true })).toThrow(/has \(0,4000000000000000,5\)/);
    const wrongDescr = viaTl<LiteServerShardInfo>({ ...answer(ch.left.id, ch.left, findLeaf(ch.left)), kind: "liteServer.shardInfo", shard_descr: findLeaf(ch.right)[0].toBoc() });
    expect(() => verifyShardInfo(wrongDescr, ch.mc12.id)).toThrow(/shard_descr hashes to/);
    expect(() => verifyShardInfo(answer(INVALID_ID, null, whole), ch.mc12.id)).toThrow(/absence can only be checked against the request/);
  });
});

describe("synthetic: liteServer.runMethodResult on a missing account, liteServer.configInfo with the whole config", () => {
  it("runSmcMethod: absent account ⇒ exit_code -256 and no state_proof", () => {
    const missing = makeAccount("nobody");
    const base = {
      kind: "liteServer.runMethodResult",
      mode: 3,
      id: ch.mc12.id,
      shardblk: ch.mc12.id,
      shard_proof: Buffer.alloc(0),
      proof: accountProof(ch.mc12, [accounts(ch.mc12.state)], true),
      state_proof: Buffer.alloc(0),
      exit_code: -256,
    };
    const r = verifyRunMethodResult(viaTl<LiteServerRunMethodResult>(base), ch.mc12.id, { workchain: -1, id: missing.id });
    expect(r.shardAccount).toBeNull();
    expect(() => verifyRunMethodResult(viaTl({ ...base, exit_code: 0 }), ch.mc12.id, { workchain: -1, id: missing.id })).toThrow(/exit_code is 0, not -256/);
    const a = ch.mcAccount;
    expect(() => verifyRunMethodResult(viaTl(base), ch.mc12.id, { workchain: -1, id: a.id })).toThrow(/state_proof is empty but the account exists/);
  });

  it("getConfigAll from the state: the whole dictionary; getConfigParams with an absent param", () => {
    const cfg = configRoot(ch.mc12.state);
    const answer = viaTl<LiteServerConfigInfo>({
      kind: "liteServer.configInfo",
      mode: 0,
      id: ch.mc12.id,
      state_proof: headerProof(ch.mc12.root).toBoc(),
      config_proof: merkleProof(ch.mc12.state, keepPaths(ch.mc12.state, [cfg])).toBoc(),
    });
    const all = verifyConfig(answer, ch.mc12.id, { all: true });
    expect([...all.params.keys()].sort((a, b) => a - b)).toEqual([0, 1, 28, 34]);
    expect(verifyConfig(answer, ch.mc12.id, { params: [34, 99] }).absent).toEqual([99]);
    const only34 = viaTl<LiteServerConfigInfo>({ ...answer, kind: "liteServer.configInfo", config_proof: merkleProof(ch.mc12.state, keepPaths(ch.mc12.state, [ch.config.get(34)!])).toBoc() });
    expect(() => verifyConfig(only34, ch.mc12.id, { all: true })).toThrow(/pruned/);
    expect(verifyConfig(only34, ch.mc12.id, { params: [99] }).absent).toEqual([99]); // the path to 34 proves 99 absent
    expect(() => verifyConfig(only34, ch.mc12.id, { params: [1] })).toThrow(/config param 1 is pruned/);
  });
});
