// A trace emulated on the proven state of a real localnet (accounts, config and libraries read over
// ADNL with their proofs checked, as the send service reads them) equals the real trace once the
// message lands: the same accounts in the same order, each transaction's description the same
// apart from what depends on time (storage fees, hence the total fees).
import { beginCell, loadTransaction, toNano, type Address, type Cell, type Transaction } from "@ton/core";
import { emptyLibraries, emulateTrace, EmulatorPool, librariesCell, libraryRefs, type EmulatedTrace } from "@tongate/emulator";
import type { Localnet } from "@tongate/localnet";
import { blockConfig, fetchLibraries, LiteserverPool, readAccount } from "@tongate/liteclient";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { contractCode, jettonMinterData, jettonTransferBody, mintBody, onchainContent } from "../support/contracts/index.js";
import { LocalnetSender, runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let pool: LiteserverPool;
let emulator: EmulatorPool;
let alice: LocalnetSender;
let bob: LocalnetSender;
let master: Address;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "trace-emulation", wallets: 3 });
  alice = new LocalnetSender(net, net.genesis.wallets[1]!);
  bob = new LocalnetSender(net, net.genesis.wallets[2]!);
  const walletCode = await contractCode("jetton-wallet");
  master = await alice.deploy({ code: await contractCode("jetton-minter"), data: jettonMinterData({ totalSupply: 0n, admin: alice.address, content: onchainContent({ name: "T" }), walletCode }) }, toNano("0.5"));
  await alice.send({ to: master, value: toNano("0.5"), body: mintBody({ to: alice.address, ton: toNano("0.1"), amount: 1_000_000n }) });
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig());
  await pool.ready(5000);
  emulator = new EmulatorPool({ size: 1 });
}, 60_000);

afterAll(async () => {
  await emulator?.close();
  await pool?.close();
  await net?.close();
});

/** Emulates `message` on the latest masterchain block's proven state, as the send service does. */
async function emulate(message: Cell): Promise<EmulatedTrace> {
  const s = pool.session();
  const block = (await s.query({ kind: "liteServer.getMasterchainInfo" })).last;
  return emulateTrace(emulator, {
    message,
    config: await blockConfig(s, block),
    account: async (address) => {
      const a = await readAccount(s, address, block);
      return { shardAccount: a.shardAccount, lastTransLt: a.lastTransLt };
    },
    libraries: async (codes) => {
      const libs = emptyLibraries();
      await fetchLibraries(s, libraryRefs(codes), libs);
      return librariesCell(libs) ?? null;
    },
    now: net.now(),
    lt: 0n,
  });
}

/** A transaction's description without what depends on the time it ran (storage fees) or its lt. */
function timeless(tx: Transaction) {
  const d = tx.description;
  if (d.type !== "generic") return d;
  return { ...d, storagePhase: undefined };
}

const raw = (hash: bigint) => hash.toString(16).padStart(64, "0");

describe("emulateTrace on a localnet's proven state", () => {
  it("a jetton transfer equals the real trace once it lands", async () => {
    const aliceWallet = (await runGetMethod(net, master, "get_wallet_address", [{ type: "slice", cell: beginCell().storeAddress(alice.address).endCell() }])).readAddress();
    const message = await alice.externalMessage({ to: aliceWallet, value: toNano("0.3"), body: jettonTransferBody({ amount: 300n, to: bob.address, responseTo: alice.address, forwardTon: toNano("0.01") }) });
    const emulated = await emulate(message);
    expect(emulated.transactions).toHaveLength(5);
    await expectLanded(message, emulated);
  });

  it("a message the contract refuses bounces back: the emulated bounce equals the real one", async () => {
    const message = await alice.externalMessage({ to: master, value: toNano("0.2"), body: beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell() });
    const emulated = await emulate(message);
    expect(emulated.transactions.map((e) => e.depth)).toEqual([0, 1, 2]);
    const bounce = emulated.transactions[2]!.transaction.inMessage!.info;
    expect(bounce.type === "internal" && bounce.bounced).toBe(true);
    await expectLanded(message, emulated);
  });
});

/** Sends `message`, lets its trace land, and compares it with the emulated one. */
async function expectLanded(message: Cell, emulated: EmulatedTrace): Promise<void> {
  await net.chain.sendExternal(message.toBoc());
  for (let i = 0; i < 3; i++) await net.chain.seal();
  const real: Transaction[] = [];
  for (const e of emulated.transactions) {
    const history = net.chain.transactionsFrom(e.address.workChain, e.address.hash, 2n ** 63n, 10).map((t) => loadTransaction(t.cell.beginParse()));
    const same = history.find((t) => t.inMessage && t.inMessage.body.hash().equals(e.transaction.inMessage!.body.hash()));
    expect(same, `the real transaction on ${e.address.toString()}`).toBeDefined();
    real.push(same!);
  }
  // the same accounts in the same order, each with the description of its real transaction
  const order = (txs: Transaction[]) => [...txs].sort((a, b) => (a.lt < b.lt ? -1 : 1)).map((t) => raw(t.address));
  expect(order(real)).toEqual(emulated.transactions.map((e) => raw(e.transaction.address)));
  for (const [i, e] of emulated.transactions.entries()) {
    expect(timeless(e.transaction), `transaction ${i} on ${e.address.toString()}`).toEqual(timeless(real[i]!));
    expect([...e.transaction.outMessages.values()].map((m) => m.body.hash().toString("hex"))).toEqual([...real[i]!.outMessages.values()].map((m) => m.body.hash().toString("hex")));
  }
}
