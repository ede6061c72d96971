// With the indexer in the same process (as `tongate start` runs them), a pending trace leaves the
// pending store only once the indexer has the masterchain block that committed it (blocks.indexed),
// so a client polling the pending endpoints and then the indexed ones never misses it in between.
import { createClient, type Client } from "@connectrpc/connect";
import { Address, beginCell, external, internal, loadMessage, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { provisionsOf } from "@tongate/cli";
import { indexService } from "@tongate/indexer";
import type { Localnet } from "@tongate/localnet";
import { Finality, Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { createLogger, ServiceHost } from "@tongate/runtime";
import { normalizedHash } from "@tongate/ton";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendService } from "@tongate/send";
import { runGetMethod } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let host: ServiceHost;
let send: Client<typeof Send>;
let pending: Client<typeof Pending>;

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "send-finality-indexed", wallets: 2, pendingWindowMs: 300 });
  await net.chain.seal();
  const options = { globalConfig: net.globalConfig(), "emulator-processes": "1", "metadata-fetch": "off" };
  host = await ServiceHost.start([indexService, sendService], { log: createLogger({ level: "silent" }), options, provide: provisionsOf(options) });
  const transport = (typeName: string) => host.upstreams().find((u) => u.service.typeName === typeName)!.transport;
  send = createClient(Send, transport(Send.typeName));
  pending = createClient(Pending, transport(Pending.typeName));
});

afterAll(async () => {
  await host?.close();
  await net?.close();
});

const indexedSeqno = async () => Number(JSON.stringify((await host.health()()).detail).match(/"lastIndexedSeqno":(\d+)/)?.[1] ?? 0);

/** A signed transfer from genesis wallet `i`, sent through Send; resolves once it is a pending trace. */
async function sendTransfer(i: number): Promise<() => Promise<unknown>> {
  const g = net.genesis.wallets[i]!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
  const seqno = (await runGetMethod(net, wallet.address, "seqno")).readNumber();
  const body = wallet.createTransfer({ seqno, timeout: Math.floor(Date.now() / 1000) + 600, secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to: new Address(0, Buffer.alloc(32, 0x71)), value: toNano("0.1"), bounce: false })] });
  const root = beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  await send.sendBoc({ boc: root.toBoc().toString("base64") });
  const hashNorm = normalizedHash(loadMessage(root.beginParse()));
  const traceOf = async () => (await pending.getPendingTraces({ extMsgHashes: [hashNorm] })).traces[0];
  // the process's first emulation compiles the contract code: it may take longer than a client's wait
  await expect.poll(async () => (await traceOf())?.finality, { timeout: 10_000, interval: 50 }).toBe(Finality.PENDING);
  return traceOf;
}

describe("finality with the indexer in the process", () => {
  it("a trace leaves the pending store only once its masterchain block is indexed", async () => {
    // the indexer has caught up with the chain
    await expect.poll(indexedSeqno, { timeout: 20_000, interval: 50 }).toBe(net.chain.lastMasterchain!.id.seqno);
    const traceOf = await sendTransfer(2);
    await net.chain.seal();
    const committedBy = net.chain.lastMasterchain!.id.seqno;
    // every time the trace is still pending, the check is that the indexer may not have the block yet;
    // once it is gone, the indexer has it
    for (let i = 0; i < 400; i++) {
      const t = await traceOf();
      if (!t) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(await traceOf()).toBeUndefined();
    expect(await indexedSeqno()).toBeGreaterThanOrEqual(committedBy);
  });

  it("with no signed block to see (no pending window), a trace still leaves once the index has its message, not at its TTL", async () => {
    net.chain.pendingWindowMs = 0;
    const traceOf = await sendTransfer(0);
    await net.chain.seal();
    const committedBy = net.chain.lastMasterchain!.id.seqno;
    await expect.poll(traceOf, { timeout: 20_000, interval: 50 }).toBeUndefined();
    expect(await indexedSeqno()).toBeGreaterThanOrEqual(committedBy);
    // finalized, not forgotten as invalidated
    const metrics = (await Promise.all(host.metrics().map((r) => r.metrics()))).join("\n");
    expect(metrics).toMatch(/tongate_send_pending_transitions_total\{[^}]*reason="indexed"[^}]*\} 1/);
    expect(metrics).not.toMatch(/tongate_send_pending_transitions_total\{[^}]*to="invalidated"[^}]*\} [1-9]/);
  });
});
