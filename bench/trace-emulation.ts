// Benchmark: emulated traces per second on one emulator process, for a jetton transfer on the real
// contracts of the fixtures (wallet v4r2 → its TEP-74 reference jetton wallet → the receiver's
// jetton wallet, deployed by the transfer → transfer_notification to the receiver's wallet v5r1 and
// the excess back to the sender: 5 transactions, the external's signature checked), with the
// baseline of the same run: single runTransaction calls (the root's external message alone) per
// second on the same pool. The ratio is what a trace costs in single transactions.
// One trace at a time (the pool has one process): what one core of emulator does. The main
// thread's CPU per trace (parsing the emulator's answers, the queue) is printed apart: it runs on
// another core beside the emulator process.
//   npm run bench:trace-emulation   (BENCH_SECONDS=5)
import { emulateTrace, EmulatorPool, runTransaction } from "@tongate/emulator";
import { inputOf, internal, jettonTransferBody, jettonWallet, toNano, walletV4, walletV5 } from "../tests/support/trace-accounts.js";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);

const sender = walletV4(1);
const receiver = walletV5(2);
const from = jettonWallet(sender.address, 1_000_000n);
const body = jettonTransferBody({ amount: 1_000n, destination: receiver.address, responseDestination: sender.address, forwardTonAmount: toNano("0.01") });
const message = sender.transfer([internal({ to: from.address, value: toNano("0.2"), bounce: true, body })]);
const { input } = inputOf(message, [sender, receiver, from]);

/** Runs `once` back to back for `seconds` (after a warm-up): runs per second and main-thread CPU ms per run. */
async function measure(once: () => Promise<unknown>, seconds: number): Promise<{ perSecond: number; cpuMs: number; runs: number }> {
  for (let i = 0; i < 30; i++) await once();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let runs = 0;
  while (performance.now() - t0 < seconds * 1000) {
    await once();
    runs++;
  }
  const elapsed = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: runs / elapsed, cpuMs: (cpu.user + cpu.system) / 1000 / runs, runs };
}

const pool = new EmulatorPool({ size: 1 });
await pool.warm();
try {
  const check = await emulateTrace(pool, input);
  if (check.transactions.length !== 5) throw new Error(`the jetton transfer emulated to ${check.transactions.length} transactions, not 5`);

  const single = await measure(async () => {
    const r = await runTransaction(pool, { config: input.config, libs: null, shardAccount: sender.state.shardAccount, message, now: input.now, lt: input.lt + 1n, randomSeed: input.randomSeed!, ignoreChksig: false });
    if ("rejected" in r) throw new Error(r.rejected.error);
  }, SECONDS);
  const trace = await measure(() => emulateTrace(pool, input), SECONDS);

  const f = (n: number, d = 1) => n.toFixed(d);
  console.log(`trace emulation, one emulator process, ${SECONDS} s each (node ${process.version}, ${process.arch})`);
  console.log(`  single runTransaction (the external on the wallet): ${f(single.perSecond)}/s, ${f(1000 / single.perSecond, 2)} ms each, main-thread CPU ${f(single.cpuMs, 2)} ms (${single.runs} runs)`);
  console.log(`  jetton transfer trace (5 transactions):              ${f(trace.perSecond)}/s, ${f(1000 / trace.perSecond, 2)} ms each, main-thread CPU ${f(trace.cpuMs, 2)} ms (${trace.runs} runs)`);
  console.log(`  transactions per second within traces: ${f(trace.perSecond * 5)}/s`);
  console.log(`  ratio: a trace costs ${f(single.perSecond / trace.perSecond, 2)} single transactions (5 run)`);
} finally {
  await pool.close();
}
