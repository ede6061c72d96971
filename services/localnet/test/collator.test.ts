// Executes real wallet transactions with TON's emulator through the collator.
import { Address, beginCell, Cell, external, internal, loadShardAccount, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { beforeAll, describe, expect, it } from "vitest";
import { collate, inMessageCell, outMessageCells, queuedFromMessage, type AccountStore } from "../src/collator.js";
import { configParam } from "../src/config.js";
import { TransactionExecutor } from "@tongate/emulator";
import { createGenesis, shardAccountCell, type Genesis } from "../src/genesis.js";
import { deriveKeyPair } from "../src/keys.js";

class MemoryAccounts implements AccountStore {
  readonly map = new Map<string, Cell>();
  get(wc: number, id: string) {
    return this.map.get(`${wc}:${id}`);
  }
  set(wc: number, id: string, sa: Cell) {
    this.map.set(`${wc}:${id}`, sa);
  }
  balance(a: Address): bigint {
    const c = this.get(a.workChain, a.hash.toString("hex"));
    const acc = c ? loadShardAccount(c.beginParse()).account : null;
    return acc ? acc.storage.balance.coins : 0n;
  }
}

let genesis: Genesis;
let executor: TransactionExecutor;
let accounts: MemoryAccounts;

beforeAll(async () => {
  genesis = createGenesis({ seed: "test", wallets: 1, now: 1_760_000_000 });
  executor = await TransactionExecutor.create(genesis.config);
  accounts = new MemoryAccounts();
  for (const [id, sa] of genesis.accounts) accounts.set(0, id, shardAccountCell(sa));
});

describe("genesis", () => {
  it("replaces config param 34 by a one-validator set holding localnet's key", () => {
    const p34 = configParam(genesis.config, 34)!.beginParse();
    expect(p34.loadUint(8)).toBe(0x12);
    p34.skip(64);
    expect(p34.loadUint(16)).toBe(1);
    expect(genesis.validator.publicKey).toHaveLength(32);
    expect(createGenesis({ seed: "test", wallets: 1, now: 1 }).wallets[0]!.address.equals(genesis.wallets[0]!.address)).toBe(true);
  });
});

describe("collate", () => {
  it("runs a signed transfer that deploys a wallet, and bounces a transfer to nowhere", async () => {
    const sender = genesis.wallets.find((w) => w.version === "v4r2")!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: sender.keyPair.publicKey });
    const newKey = deriveKeyPair("test", "new");
    const fresh = WalletContractV4.create({ workchain: 0, publicKey: newKey.publicKey });
    const nowhere = new Address(0, Buffer.alloc(32, 7));
    const body = wallet.createTransfer({
      seqno: 0,
      secretKey: sender.keyPair.secretKey,
      timeout: genesis.now + 60,
      messages: [
        internal({ to: fresh.address, value: toNano(5), init: fresh.init, bounce: false }),
        internal({ to: nowhere, value: toNano(1), bounce: true }),
      ],
    });
    const ext = external({ to: wallet.address, body });
    const before = accounts.balance(wallet.address);
    const c = await collate(executor, accounts, [queuedFromMessage(ext)], {
      workchain: 0,
      inShard: (a) => a.workChain === 0,
      now: genesis.now + 5,
      startLt: 1_000_000n,
      blockRandSeed: Buffer.alloc(32, 1),
    });
    expect(c.rejected).toEqual([]);
    // wallet (external) → fresh (deploy) and nowhere (bounced) → wallet (bounce back)
    expect(c.transactions.map((t) => t.account.toRawString())).toEqual([
      wallet.address.toRawString(),
      fresh.address.toRawString(),
      nowhere.toRawString(),
      wallet.address.toRawString(),
    ]);
    // Messages are delivered as the very cells their senders emitted (same message hashes).
    const emitted = new Set(c.transactions.flatMap((t) => outMessageCells(t.cell)).map((m) => m.hash().toString("hex")));
    for (const t of c.transactions.slice(1)) expect(emitted.has(inMessageCell(t.cell)!.hash().toString("hex"))).toBe(true);
    const lts = c.transactions.map((t) => t.transaction.lt);
    expect([...lts].sort((a, b) => (a < b ? -1 : 1))).toEqual(lts);
    expect(lts[0]).toBeGreaterThanOrEqual(1_000_000n);
    expect(accounts.balance(fresh.address)).toBeGreaterThan(toNano(4.9));
    expect(accounts.balance(nowhere)).toBe(0n);
    const spent = before - accounts.balance(wallet.address);
    expect(spent).toBeGreaterThan(toNano(5));
    expect(spent).toBeLessThan(toNano(5.1)); // the 1 TON to nowhere came back, less fees
    // Each transaction hash is the hash of its cell, and the account records it.
    const last = c.transactions[c.transactions.length - 1]!;
    expect(last.shardAccount.lastTransactionHash).toBe(BigInt("0x" + last.cell.hash().toString("hex")));
  });

  it("rejects an external message with a bad signature, changing nothing", async () => {
    const sender = genesis.wallets.find((w) => w.version === "v4r2")!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: sender.keyPair.publicKey });
    const body = wallet.createTransfer({ seqno: 1, secretKey: deriveKeyPair("test", "wrong").secretKey, messages: [] });
    const msg = external({ to: wallet.address, body });
    const before = accounts.get(0, wallet.address.hash.toString("hex"))!.hash();
    const c = await collate(executor, accounts, [queuedFromMessage(msg)], {
      workchain: 0,
      inShard: () => true,
      now: genesis.now + 10,
      startLt: 2_000_000n,
      blockRandSeed: Buffer.alloc(32, 2),
    });
    expect(c.transactions).toHaveLength(0);
    expect(c.rejected).toHaveLength(1);
    expect(accounts.get(0, wallet.address.hash.toString("hex"))!.hash().equals(before)).toBe(true);
    void beginCell().store(storeMessage(msg));
  });
});

describe("collate on worker emulators", () => {
  it("produces the block a one-at-a-time collation produces, mispredictions included", async () => {
    const g = createGenesis({ seed: "parallel", wallets: 3, now: 1_760_000_000 });
    const v4 = g.wallets.filter((w) => w.version === "v4r2");
    const contract = (i: number) => WalletContractV4.create({ workchain: 0, publicKey: v4[i]!.keyPair.publicKey });
    const nowhere = new Address(0, Buffer.alloc(32, 9));
    const transfer = (i: number, seqno: number, to: Address, bounce = false, key = v4[i]!.keyPair.secretKey) =>
      queuedFromMessage(external({ to: contract(i).address, body: contract(i).createTransfer({ seqno, timeout: g.now + 60, secretKey: key, messages: [internal({ to, value: toNano(1), bounce })] }) }));
    const queue = (() => {
      const q = [
        transfer(0, 0, v4[1]!.address), // A → B
        transfer(0, 1, v4[2]!.address), // A again: runs on A's state after the first
        transfer(1, 0, nowhere, true), // B → nowhere, bounced back: a misprediction in wave 2
        transfer(2, 0, v4[0]!.address), // C → A
        transfer(2, 0, v4[1]!.address, false, deriveKeyPair("parallel", "wrong").secretKey), // bad signature: rejected
      ];
      for (const m of q) m.expectedOutMessages = 1;
      q[4]!.expectedOutMessages = undefined; // the check would have refused it
      return () => q;
    })();
    const opts = { workchain: 0, inShard: (a: Address) => a.workChain === 0, now: g.now + 5, startLt: 3_000_000n, blockRandSeed: Buffer.alloc(32, 3) };
    const stores = [new MemoryAccounts(), new MemoryAccounts()];
    for (const s of stores) for (const [id, sa] of g.accounts) s.set(0, id, shardAccountCell(sa));
    const here = await TransactionExecutor.create(g.config);
    const workers = await TransactionExecutor.create(g.config, null, { emulator: { size: 2 } });
    try {
      expect(workers.parallel).toBe(true);
      const [a, b] = [await collate(here, stores[0]!, queue(), opts), await collate(workers, stores[1]!, queue(), opts)];
      const hashes = (c: typeof a) => c.transactions.map((t) => t.cell.hash().toString("hex"));
      expect(hashes(a)).toHaveLength(9); // 4 externals accepted; B, C, nowhere, A; the bounce back to B
      expect(hashes(b)).toEqual(hashes(a));
      expect(b.endLt).toBe(a.endLt);
      expect(b.rejected.map((r) => r.exitCode)).toEqual(a.rejected.map((r) => r.exitCode));
      expect(b.rejected).toHaveLength(1);
      for (const [k, cell] of stores[0]!.map) expect(stores[1]!.map.get(k)!.hash().equals(cell.hash())).toBe(true);
    } finally {
      await workers.close();
    }
  });
});
