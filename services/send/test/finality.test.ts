// Finality of a pending trace whose real transactions differ from the emulated ones, on a localnet
// with a pending window and the real PendingBlocks watcher: a transfer to an address that is empty
// when it is emulated, but that a contract is deployed at before the transfer lands. The emulated
// receiver skipped its compute phase (no code); the real one runs the deployed wallet's code: the
// trace is invalidated as soon as the signed shard block shows it, not kept until its TTL.
import { beginCell, Cell, external, internal, loadMessage, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { EmulatorPool } from "@tongate/emulator";
import type { Localnet } from "@tongate/localnet";
import { LiteserverPool, PendingBlocks } from "@tongate/liteclient";
import { Finality } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { createLogger } from "@tongate/runtime";
import { normalizedHash } from "@tongate/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalnetSender, runGetMethod } from "../../../tests/support/localnet-deploy.js";
import { startTestLocalnet } from "../../../tests/support/localnet.js";
import { emulatePending } from "../src/pending/emulate.js";
import { FinalityTracker } from "../src/pending/finality.js";
import { PendingMetrics } from "../src/pending/metrics.js";
import { MemoryPendingStore } from "../src/pending/pending-store.js";

let net: Localnet;
let pool: LiteserverPool;
let emulator: EmulatorPool;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "send-finality", wallets: 2, pendingWindowMs: 300 });
  await net.chain.seal();
  pool = LiteserverPool.fromGlobalConfig(net.globalConfig());
  await pool.ready(5000);
  emulator = new EmulatorPool({ size: 1 });
});

afterAll(async () => {
  await emulator?.close();
  await pool?.close();
  await net?.close();
});

describe("a trace the chain runs differently", () => {
  it("is invalidated when its shard block shows the difference", async () => {
    const g = net.genesis.wallets[2]!;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
    const target = WalletContractV4.create({ workchain: 0, publicKey: Buffer.alloc(32, 0x44) });
    const seqno = (await runGetMethod(net, wallet.address, "seqno")).readNumber();
    const body = wallet.createTransfer({ seqno, timeout: Math.floor(Date.now() / 1000) + 600, secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: target.address, value: toNano("0.2"), bounce: false })] });
    const root = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
    const emulatedOn = net.chain.lastMasterchain!.id.seqno;
    // meanwhile another wallet deploys a contract at the target
    await new LocalnetSender(net, net.genesis.wallets[1]!).deploy(target.init, toNano(1));

    // emulated on the block before the deploy, as a send service that had not seen it yet would
    const { trace, accounts } = await emulatePending({ pool, emulator, store: async () => undefined }, { root, hashNorm: normalizedHash(loadMessage(root.beginParse())), withActions: false, mcSeqno: emulatedOn });
    expect(trace.transactions).toHaveLength(2);
    const store = new MemoryPendingStore(100);
    const metrics = new PendingMetrics(() => store.count());
    const tracker = new FinalityTracker(store, metrics, createLogger({ level: "silent" }));
    await store.put({ trace, accounts, expiresAt: Date.now() + 60_000 });
    const watcher = new PendingBlocks(pool, { intervalMs: 50 });
    tracker.attach(watcher);
    try {
      await new Promise((resolve) => watcher.once("supported", resolve));
      await net.chain.sendExternal(root.toBoc());
      await net.chain.seal();
      await expect.poll(() => store.count(), { timeout: 5000, interval: 20 }).toBe(0);
      await tracker.settled();
      const text = await metrics.registry.metrics();
      expect(text).toMatch(/tongate_send_pending_transitions_total\{to="invalidated",reason="differs"\} 1/);
      expect(text).not.toMatch(/to="finalized"/);
    } finally {
      await watcher.close();
    }
    // the root landed as emulated (the very transaction): only the receiver's differed
    expect(trace.finality).toBe(Finality.PENDING);
    expect(net.chain.lastShard!.transactions.some((r) => Cell.fromBase64(trace.transactions[0]!.boc).hash().equals(r.cell.hash()))).toBe(true);
  });
});
