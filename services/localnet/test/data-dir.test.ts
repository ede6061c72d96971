// --data-dir: a restarted localnet continues from the same head, with the same
// block hashes and account states, and keeps sealing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, beginCell, loadShardAccount, loadTransaction } from "@ton/core";
import { lookupShardAccount, storeShardAccount } from "@tongate/block";
import { afterAll, describe, expect, it } from "vitest";
import { AccountHistory } from "../src/chain/account-history.js";
import { buildShardState } from "../src/chain/state.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

const dir = mkdtempSync(join(tmpdir(), "localnet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => Localnet.start({ seed: "persist", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, dataDir: dir, emulator: { size: 1 } });
const balance = (net: Localnet, a: Address) => {
  const c = net.chain.history.latest(AccountHistory.key(0, a.hash));
  return c ? (loadShardAccount(c.beginParse()).account?.storage.balance.coins ?? 0n) : 0n;
};

describe("--data-dir", () => {
  it("restarts from the same head, nothing lost", async () => {
    const to = new Address(0, Buffer.alloc(32, 0x77));
    const first = await start();
    await first.faucet(to, 3_000_000_000n);
    await first.chain.seal();
    const head = first.chain.lastMasterchain!;
    const funded = balance(first, to);
    expect(funded).toBeGreaterThan(2_900_000_000n);
    await first.close();

    const second = await start();
    const again = second.chain.lastMasterchain!;
    expect(again.id.seqno).toBe(head.id.seqno);
    expect(again.id.rootHash).toEqual(head.id.rootHash);
    expect(again.id.fileHash).toEqual(head.id.fileHash);
    expect(second.chain.mcZero.rootHash).toEqual(first.chain.mcZero.rootHash);
    expect(balance(second, to)).toBe(funded);
    const next = await second.chain.seal();
    expect(next.id.seqno).toBe(head.id.seqno + 1);
    await second.faucet(to, 1_000_000_000n);
    expect(balance(second, to)).toBeGreaterThan(funded);
    await second.close();
  });
});

describe("the state window", () => {
  const startWith = (o: { archival: boolean; dir: string }) =>
    Localnet.start({ seed: "window", wallets: 1, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: o.dir, emulator: { size: 1 }, stateWindow: 16, archival: o.archival });

  it("answers for a state older than the window as a non-archival node, and an archival one reads it back", async () => {
    const wdir = mkdtempSync(join(tmpdir(), "localnet-window-"));
    try {
      const net = await startWith({ archival: false, dir: wdir });
      for (let i = 0; i < 40; i++) await net.chain.seal();
      const old = net.chain.mcBlock(3)!;
      expect(() => old.stateRoot).toThrow("state already gc'd");
      // recent ones are there, and blocks themselves are kept
      expect(net.chain.mcBlock(30)!.stateRoot.hash()).toEqual(net.chain.mcBlock(30)!.meta.stateHash);
      expect(old.root.hash()).toEqual(old.id.rootHash);
      await net.close();

      const archival = await startWith({ archival: true, dir: wdir });
      const again = archival.chain.mcBlock(3)!;
      expect(again.stateRoot.hash()).toEqual(again.meta.stateHash);
      expect(archival.chain.lastMasterchain!.id.seqno).toBe(41);
      await archival.close();
    } finally {
      rmSync(wdir, { recursive: true, force: true });
    }
  });
});

describe("a seal that fails while it is stored", () => {
  it("leaves nothing of it behind: the next seal and a restart see the chain as it was", async () => {
    const fdir = mkdtempSync(join(tmpdir(), "localnet-fail-"));
    const open = () => Localnet.start({ seed: "fail", wallets: 1, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: fdir, emulator: { size: 1 } });
    try {
      const net = await open();
      const to = new Address(0, Buffer.alloc(32, 0x31));
      await net.faucet(to, 1_000_000_000n);
      const head = net.chain.lastMasterchain!;
      const store = net.chain.store;
      const putBlock = store.putBlock.bind(store);
      let calls = 0;
      // the second block of the next seal fails to be written (as a full disk would)
      store.putBlock = (m, boc) => {
        if (++calls === 2) throw new Error("disk full");
        putBlock(m, boc);
      };
      await expect(net.chain.seal()).rejects.toThrow("disk full");
      store.putBlock = putBlock;
      expect(net.chain.lastMasterchain).toBe(head);
      const next = await net.chain.seal();
      expect(next.id.seqno).toBe(head.id.seqno + 1);
      // what the failed seal ran (the elector's tick, the config's tock) left no trace in the accounts
      for (const special of ["3333333333333333333333333333333333333333333333333333333333333333", "5555555555555555555555555555555555555555555555555555555555555555"]) {
        const inState = lookupShardAccount(next.stateRoot.refs[1]!.beginParse().loadRef(), Buffer.from(special, "hex")).account!;
        const held = net.chain.history.latest(AccountHistory.key(-1, special))!;
        expect(held.hash()).toEqual(beginCell().store(storeShardAccount(inState)).endCell().hash());
        expect(inState.lastTransLt).toBeLessThan(next.endLt);
        expect(inState.lastTransLt).toBeGreaterThan(head.endLt);
        // its transaction in the next block follows its transaction in the head, not one of the failed seal
        const ofAccount = (b: typeof head) => b.transactions.map((t) => loadTransaction(t.cell.beginParse())).find((t) => t.address === BigInt("0x" + special))!;
        const prev = ofAccount(head);
        expect(ofAccount(next).prevTransactionHash).toBe(BigInt("0x" + prev.hash().toString("hex")));
      }
      await net.close();
      const again = await open();
      expect(again.chain.lastMasterchain!.id.rootHash).toEqual(next.id.rootHash);
      expect(again.chain.transactionsFrom(0, to.hash, 2n ** 63n, 10)).toHaveLength(1);
      await again.close();
    } finally {
      rmSync(fdir, { recursive: true, force: true });
    }
  });
});
