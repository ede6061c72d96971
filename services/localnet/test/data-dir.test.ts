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
