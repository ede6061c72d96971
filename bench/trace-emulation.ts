// Benchmark: emulated traces per second on one emulator process, for a jetton transfer on the real
// contracts of the fixtures (wallet v4r2 → its TEP-74 reference jetton wallet → the receiver's
// jetton wallet, deployed by the transfer → transfer_notification to the receiver's wallet v5r1 and
// the excess back to the sender: 5 transactions, the external's signature checked), with the
// baseline of the same run: single runTransaction calls (the root's external message alone) per
// second on the same pool. The ratio is what a trace costs in single transactions.
// One trace at a time (the pool has one process): what one core of emulator does. The main
// thread's CPU per trace (parsing the emulator's answers, the queue) is printed apart: it runs on
// another core beside the emulator process.
//   npm run bench:trace-emulation   (BENCH_SECONDS=3 BENCH_ROUNDS=3)
import os from "node:os";
import { emulateTrace, EmulatorPool, runTransaction } from "@tongate/emulator";
import { installSpeedShims } from "@tongate/ton";
import { inputOf, internal, jettonTransferBody, jettonWallet, toNano, walletV4, walletV5 } from "../tests/support/trace-accounts.js";

installSpeedShims(); // as `tongate` does at startup

const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const sender = walletV4(1);
const receiver = walletV5(2);
const from = jettonWallet(sender.address, 1_000_000n);
const body = jettonTransferBody({ amount: 1_000n, destination: receiver.address, responseDestination: sender.address, forwardTonAmount: toNano("0.01") });
const message = sender.transfer([internal({ to: from.address, value: toNano("0.2"), bounce: true, body })]);
const { input } = inputOf(message, [sender, receiver, from]);

interface Measured {
  perSecond: number;
  cpuMs: number;
  runs: number;
}

const median = (ms: Measured[]): Measured => [...ms].sort((a, b) => a.perSecond - b.perSecond)[ms.length >> 1]!;

/** Runs `once` back to back for `seconds` (after a warm-up): runs per second and main-thread CPU ms per run. */
async function measure(once: () => Promise<unknown>, seconds: number): Promise<Measured> {
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

  const runSingle = async () => {
    const r = await runTransaction(pool, { config: input.config, libs: null, shardAccount: sender.state.shardAccount, message, now: input.now, lt: input.lt + 1n, randomSeed: input.randomSeed!, ignoreChksig: false });
    if ("rejected" in r) throw new Error(r.rejected.error);
  };
  // Warm-up: V8 tiers the emulator's WebAssembly up while it runs (the first seconds are slower).
  await measure(runSingle, 2);
  await measure(() => emulateTrace(pool, input), 2);
  // Rounds alternate the two, so that other load on the machine weighs on both alike; medians are printed.
  const singles: Measured[] = [];
  const traces: Measured[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    singles.push(await measure(runSingle, SECONDS));
    traces.push(await measure(() => emulateTrace(pool, input), SECONDS));
  }
  const single = median(singles);
  const trace = median(traces);

  const f = (n: number, d = 1) => n.toFixed(d);
  console.log(`trace emulation, one emulator process, ${ROUNDS} rounds of ${SECONDS} s each (node ${process.version}, ${process.arch}, load average ${os.loadavg()[0]!.toFixed(2)} at the start on ${os.availableParallelism()} cores)`);
  console.log(`  single runTransaction (the external on the wallet): ${f(single.perSecond)}/s, ${f(1000 / single.perSecond, 2)} ms each, main-thread CPU ${f(single.cpuMs, 2)} ms  [rounds: ${singles.map((m) => f(m.perSecond)).join(", ")}]`);
  console.log(`  jetton transfer trace (5 transactions):              ${f(trace.perSecond)}/s, ${f(1000 / trace.perSecond, 2)} ms each, main-thread CPU ${f(trace.cpuMs, 2)} ms  [rounds: ${traces.map((m) => f(m.perSecond)).join(", ")}]`);
  console.log(`  transactions per second within traces: ${f(trace.perSecond * 5)}/s`);
  console.log(`  ratio: a trace costs ${f(single.perSecond / trace.perSecond, 2)} single transactions (5 run)`);
} finally {
  await pool.close();
}
