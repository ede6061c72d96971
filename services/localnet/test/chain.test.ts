// Sealed blocks are real and chain correctly: they parse and re-serialize to the
// same root hash, link to their predecessors, keep lt monotonic, commit the
// shard block in the masterchain block, and their state_update matches states.
import { createHash } from "node:crypto";
import { external, internal, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { applyMerkleUpdate, blockCell, loadMerkleUpdate, parseBlock, shardHashesList, verifyBlockSignatures, configValidatorSet, emptyCryptoSignatures } from "@tongate/block";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Chain, type BlockRecord } from "../src/chain/chain.js";
import { buildShardState } from "../src/chain/state.js";
import { ChainStore } from "../src/chain/store.js";
import { TransactionExecutor } from "@tongate/emulator";
import { createGenesis } from "../src/genesis.js";
import { deriveKeyPair } from "../src/keys.js";

let chain: Chain;
let now = 1_760_000_000;
afterAll(() => chain?.close());

beforeAll(async () => {
  const genesis = createGenesis({ seed: "chain", wallets: 1, now });
  chain = Chain.open({ genesis, executor: await TransactionExecutor.create(genesis.config), buildState: buildShardState, clock: () => now, store: ChainStore.temporary() });
  for (let i = 0; i < 3; i++) {
    now += 1;
    await chain.seal();
  }
  const sender = genesis.wallets.find((w) => w.version === "v4r2")!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: sender.keyPair.publicKey });
  const fresh = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair("chain", "fresh").publicKey });
  const body = wallet.createTransfer({ seqno: 0, secretKey: sender.keyPair.secretKey, messages: [internal({ to: fresh.address, value: toNano(3), init: fresh.init, bounce: false })] });
  const boc = external({ to: wallet.address, body });
  const { beginCell, storeMessage } = await import("@ton/core");
  await chain.sendExternal(beginCell().store(storeMessage(boc)).endCell().toBoc());
  now += 1;
  await chain.seal();
  now += 1;
  await chain.seal();
});

const check = (list: BlockRecord[], zero: { rootHash: Buffer; fileHash: Buffer; root: { hash(): Buffer } }) => {
  list.forEach((b, i) => {
    expect(b.id.fileHash).toEqual(createHash("sha256").update(b.boc).digest());
    const parsed = parseBlock(b.root);
    expect(blockCell(parsed).hash()).toEqual(b.id.rootHash);
    expect(parsed.info.seqNo).toBe(i + 1);
    const prev = parsed.info.prevRef;
    expect(prev.type).toBe("prev_blk_info");
    if (prev.type !== "prev_blk_info") return;
    const before = list[i - 1];
    expect(prev.prev.rootHash).toEqual(before ? before.id.rootHash : zero.rootHash);
    expect(prev.prev.fileHash).toEqual(before ? before.id.fileHash : zero.fileHash);
    if (before) expect(parsed.info.startLt).toBeGreaterThan(before.endLt);
    expect(parsed.info.endLt).toBeGreaterThanOrEqual(parsed.info.startLt);
    const su = loadMerkleUpdate(b.root.refs[2]!);
    expect(su.oldHash).toEqual(before ? before.stateRoot.hash() : zero.root.hash());
    expect(su.newHash).toEqual(b.stateRoot.hash());
    // Applying the block's state_update to the previous state gives this block's state.
    expect(applyMerkleUpdate(before ? before.stateRoot : (zero.root as never), su).hash()).toEqual(b.stateRoot.hash());
  });
};

describe("chain", () => {
  it("builds real, correctly linked shard blocks", () => {
    expect(chain.shardchain).toHaveLength(5);
    check(chain.shardchain, chain.shardZero);
    expect(chain.shardchain[3]!.transactions.length).toBe(2); // wallet + deploy of the fresh wallet
  });

  it("builds real, correctly linked masterchain blocks that commit each shard block", () => {
    expect(chain.masterchain).toHaveLength(5);
    check(chain.masterchain, chain.mcZero);
    chain.masterchain.forEach((mc, i) => {
      const extra = parseBlock(mc.root).extra.custom!;
      const shards = shardHashesList(extra.shardHashes);
      expect(shards).toHaveLength(1);
      expect(shards[0]!.descr.rootHash).toEqual(chain.shardchain[i]!.id.rootHash);
      expect(shards[0]!.descr.fileHash).toEqual(chain.shardchain[i]!.id.fileHash);
      expect(extra.keyBlock).toBe(i === 0);
      const sh = parseBlock(chain.shardchain[i]!.root);
      expect(sh.info.masterRef!.master.rootHash).toEqual(i === 0 ? chain.mcZero.rootHash : chain.masterchain[i - 1]!.id.rootHash);
    });
  });

  it("signs masterchain blocks with the validator of config param 34", () => {
    const key = parseBlock(chain.masterchain[0]!.root).extra.custom!;
    const vset = configValidatorSet(key.config!.config, 34)!;
    for (const mc of chain.masterchain) {
      const sigs = emptyCryptoSignatures();
      mc.signatures.forEach((s, i) => sigs.set(i, { nodeIdShort: s.nodeIdShort, sign: { type: "ed25519_signature", r: s.signature.subarray(0, 32), s: s.signature.subarray(32) } }));
      const r = verifyBlockSignatures({ rootHash: mc.id.rootHash, fileHash: mc.id.fileHash }, sigs, vset);
      expect(r.errors).toEqual([]);
      expect(r.validSignatures).toBe(1);
    }
  });
});
