// Benchmark: the send service's pending traces on a localnet (one liteserver on loopback, the
// emulator in its own process). For each of BENCH_MESSAGES wallet transfers (distinct destinations,
// all valid on the same state, nothing sealed), the time from sendBocReturnHash returning to
// GetPendingTraces answering the trace (its emulation started with the broadcast); then EmulateTrace
// of the same kind of transfer back to back: emulated traces per second on one emulator process.
//   npm run bench:pending   (BENCH_MESSAGES=200)
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { createClient } from "@connectrpc/connect";
import { provisionsOf } from "@tongate/cli";
import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { createLogger, ServiceHost } from "@tongate/runtime";
import { sendService } from "@tongate/send";
import { installSpeedShims } from "@tongate/ton";

installSpeedShims(); // as `tongate` does at startup

const n = Number(process.env.BENCH_MESSAGES ?? 200);
const net = await Localnet.start({ seed: "bench-pending", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 } });
await net.chain.seal();
const options = { globalConfig: net.globalConfig(), "emulator-processes": "1" };
const host = await ServiceHost.start([sendService], { log: createLogger({ level: "warn" }), options, provide: provisionsOf(options) });
const transport = (typeName: string) => host.upstreams().find((u) => u.service.typeName === typeName)!.transport;
const send = createClient(Send, transport(Send.typeName));
const pending = createClient(Pending, transport(Pending.typeName));

const g = net.genesis.wallets[0]!;
const wallet = WalletContractV4.create({ workchain: 0, publicKey: g.keyPair.publicKey });
const validUntil = Math.floor(Date.now() / 1000) + 3600;
const transfer = (i: number) => {
  const to = new Address(0, Buffer.from(i.toString(16).padStart(64, "0"), "hex"));
  const body = wallet.createTransfer({ seqno: 0, timeout: validUntil, secretKey: g.keyPair.secretKey, sendMode: SendMode.PAY_GAS_SEPARATELY, messages: [internal({ to, value: toNano("0.01"), bounce: false })] });
  return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc().toString("base64");
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

// warm-up: the first emulations compile the emulator and read the config
for (let i = 0; i < 5; i++) await pending.emulateTrace({ boc: transfer(1_000_000 + i) });

const latencies: number[] = [];
for (let i = 0; i < n; i++) {
  const r = await send.sendBocReturnHash({ boc: transfer(i + 1) });
  const t0 = performance.now();
  const { traces } = await pending.getPendingTraces({ extMsgHashes: [r.hash] });
  if (traces.length !== 1) throw new Error(`transfer ${i}: no pending trace`);
  latencies.push(performance.now() - t0);
}
console.log(`sendBocReturnHash returned → pending trace readable (${n} transfers): p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`);

const t0 = performance.now();
for (let i = 0; i < n; i++) await pending.emulateTrace({ boc: transfer(2_000_000 + i), withActions: true });
const s = (performance.now() - t0) / 1000;
console.log(`EmulateTrace of a TON transfer (2 transactions, classified), back to back on one emulator process: ${(n / s).toFixed(1)} traces/s`);

await host.close();
await net.close();
