// --data-dir: a restarted localnet continues from the same head, with the same
// block hashes and account states, and keeps sealing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Address, loadShardAccount } from "@ton/core";
import { afterAll, describe, expect, it } from "vitest";
import { AccountHistory } from "../src/chain/account-history.js";
import { buildShardState } from "../src/chain/state.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

const dir = mkdtempSync(join(tmpdir(), "localnet-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const start = () => Localnet.start({ seed: "persist", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, dataDir: dir, checkWorkers: 0 });
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
    Localnet.start({ seed: "window", wallets: 1, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: o.dir, checkWorkers: 0, stateWindow: 16, archival: o.archival });

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
