// The short form of bench:localnet-soak: a chain's memory and the cost of a seal do not grow with its
// age. 2,000 empty blocks sealed back to back; the live heap after a full GC and the CPU time per
// seal are compared between blocks 500–1,000 and the last 500. CPU time, not wall time, and the
// cheapest 100-block run of each window: the suite runs other files on the same cores, and a
// garbage collection or a neighbour's burst lands on some runs, not on the slope.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { buildShardState } from "../src/chain/state.js";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";

setFlagsFromString("--expose_gc");
const gc = runInNewContext("gc") as () => void;

let net: Localnet | undefined;
afterAll(() => net?.close());

const liveHeap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

describe("a long-running localnet", () => {
  it("keeps its live heap and its cost per seal flat over 2,000 blocks", { timeout: 240_000 }, async () => {
    net = await Localnet.start({ seed: "soak", wallets: 1, listen: [], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 1 } });
    const BLOCKS = 2000;
    let heapAt1000 = 0;
    const early: number[] = [];
    const late: number[] = [];
    let runStart = cpuMs();
    for (let i = 1; i <= BLOCKS; i++) {
      await net.chain.seal();
      if (i % 100 === 0) {
        const perSeal = (cpuMs() - runStart) / 100;
        if (i > 500 && i <= 1000) early.push(perSeal);
        if (i > BLOCKS - 500) late.push(perSeal);
        if (i === 1000) heapAt1000 = liveHeap();
        runStart = cpuMs();
      }
    }
    const cpuEarly = Math.min(...early);
    const cpuLate = Math.min(...late);
    const heapEnd = liveHeap();
    const report = `live heap ${(heapAt1000 / 2 ** 20).toFixed(1)} → ${(heapEnd / 2 ** 20).toFixed(1)} MB, CPU per seal ${cpuEarly.toFixed(2)} → ${cpuLate.toFixed(2)} ms`;
    console.log(report);
    expect(heapEnd, report).toBeLessThanOrEqual(heapAt1000 * 1.2);
    expect(cpuLate, report).toBeLessThanOrEqual(cpuEarly / 0.9);
    // the window: only recent states in memory; an old one answers as a non-archival node does
    expect(() => net!.chain.mcBlock(10)!.stateRoot).toThrow("state already gc'd");
  });
});
