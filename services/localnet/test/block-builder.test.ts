// A block built from a real collation parses back with the shared block parser,
// re-serializes to the same root hash, and carries every transaction and message.
import { createHash } from "node:crypto";
import { Address, beginCell, Cell, external, internal, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { blockTransactions, parseBlock, blockCell, loadMerkleUpdate } from "@tongate/block";
import { describe, expect, it } from "vitest";
import { buildBlock } from "../src/chain/block-builder.js";
import { collate, queuedFromMessage, type AccountStore } from "../src/collator.js";
import { TransactionExecutor } from "@tongate/emulator";
import { createGenesis, shardAccountCell } from "../src/genesis.js";
import { deriveKeyPair } from "../src/keys.js";

describe("buildBlock", () => {
  it("builds a real block from a collation", async () => {
    const genesis = createGenesis({ seed: "blocks", wallets: 1, now: 1_760_000_000 });
    const executor = await TransactionExecutor.create(genesis.config);
    const map = new Map<string, Cell>();
    const accounts: AccountStore = { get: (_wc, id) => map.get(id), set: (_wc, id, c) => void map.set(id, c) };
    for (const [id, sa] of genesis.accounts) map.set(id, shardAccountCell(sa));
    const stateOf = () => {
      const b = beginCell();
      for (const c of [...map.values()].slice(0, 4)) b.storeRef(c);
      return b.endCell();
    };
    const oldState = stateOf();
    const sender = genesis.wallets.find((w) => w.version === "v4r2")!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: sender.keyPair.publicKey });
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: deriveKeyPair("blocks", "x").publicKey });
    const body = wallet.createTransfer({
      seqno: 0,
      secretKey: sender.keyPair.secretKey,
      messages: [internal({ to: fresh.address, value: toNano(2), init: fresh.init, bounce: false }), internal({ to: new Address(0, Buffer.alloc(32, 9)), value: toNano(1), bounce: true })],
    });
    const c = await collate(executor, accounts, [queuedFromMessage(external({ to: wallet.address, body }))], {
      workchain: 0,
      inShard: () => true,
      now: genesis.now + 1,
      startLt: 2_000_000n,
      blockRandSeed: Buffer.alloc(32, 3),
    });
    expect(c.transactions).toHaveLength(4);
    const newState = stateOf();
    const ref = { endLt: 1_000_000n, seqNo: 1, rootHash: Buffer.alloc(32, 1), fileHash: Buffer.alloc(32, 2) };
    const built = buildBlock({
      globalId: genesis.globalId,
      workchain: 0,
      shard: 0x8000000000000000n,
      seqno: 2,
      genUtime: genesis.now + 1,
      startLt: 2_000_000n,
      endLt: c.endLt,
      prev: ref,
      masterRef: ref,
      genSoftware: { version: 13, capabilities: 0n },
      minRefMcSeqno: 1,
      prevKeyBlockSeqno: 0,
      keyBlock: false,
      validatorListHashShort: 0,
      catchainSeqno: 0,
      oldState,
      newState,
      balanceBefore: 0n,
      balanceAfter: 0n,
      transactions: c.transactions,
      randSeed: Buffer.alloc(32, 3),
      createdBy: Buffer.alloc(32),
    });
    expect(built.id.fileHash).toEqual(createHash("sha256").update(built.boc).digest());
    const root = Cell.fromBoc(built.boc)[0]!;
    expect(root.hash()).toEqual(built.id.rootHash);
    const parsed = parseBlock(root);
    expect(blockCell(parsed).hash()).toEqual(root.hash());
    expect(parsed.info.seqNo).toBe(2);
    const txs = blockTransactions(parsed.extra.accountBlocks);
    expect(new Set(txs.map((t) => t.hash().toString("hex")))).toEqual(new Set(c.transactions.map((t) => t.cell.hash().toString("hex"))));
    const inTypes = [...parsed.extra.inMsgDescr.values()].map((e) => e.value.type).sort();
    expect(inTypes).toEqual(["msg_import_ext", "msg_import_imm", "msg_import_imm", "msg_import_imm"]);
    const outTypes = [...parsed.extra.outMsgDescr.values()].map((e) => e.value.type).sort();
    expect(outTypes).toEqual(["msg_export_imm", "msg_export_imm", "msg_export_imm"]);
    const su = loadMerkleUpdate(root.refs[2]!);
    expect(su.oldHash).toEqual(oldState.hash());
    expect(su.newHash).toEqual(newState.hash());
  });
});
