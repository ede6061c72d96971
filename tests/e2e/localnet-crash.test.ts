// `tongate localnet --data-dir`: killed with SIGKILL while it seals blocks back to back, ten times,
// the directory always reopens, the chain goes on from where the last commit left it, and every
// stored block is whole: it parses, its hashes are its own, and it links to the block before it.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Cell } from "@ton/core";
import { parseBlock } from "@tongate/block";
import { buildShardState, Localnet, localnetProofs } from "@tongate/localnet";
import { afterAll, describe, expect, it } from "vitest";
import { rng } from "../support/rng.js";

const BIN = fileURLToPath(new URL("../../cli/bin/tongate.js", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "tongate-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `tongate localnet` on the directory until it has sealed for `ms`, then kills it (SIGKILL). */
function runAndKill(ms: number): Promise<{ started: boolean; output: string }> {
  const child = spawn(process.execPath, [BIN, "localnet", "--data-dir", dir, "--seed", "crash", "--wallets", "1", "--block-interval", "5", "--pending-window", "0", "--listen", "127.0.0.1:0", "--control", "127.0.0.1:0", "--log-level", "info"], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  return new Promise((resolve) => {
    let started = false;
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (!started && /localnet running/.test(output)) {
        started = true;
        setTimeout(() => child.kill("SIGKILL"), ms);
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve({ started, output });
    });
  });
}

describe("tongate localnet --data-dir under kill -9", () => {
  it("reopens after every kill with every stored block whole", { timeout: 240_000 }, async () => {
    const random = rng(13);
    for (let i = 0; i < 10; i++) {
      const r = await runAndKill(300 + Math.floor(random() * 900));
      expect(r.started, `run ${i + 1} did not start:\n${r.output.slice(-2000)}`).toBe(true);
    }
    const net = await Localnet.start({ seed: "crash", wallets: 1, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: dir, emulator: { size: 1 } });
    try {
      const head = net.chain.lastMasterchain!.id.seqno;
      expect(head).toBeGreaterThan(10);
      let prevMc = net.chain.mcZero.rootHash;
      for (let s = 1; s <= head; s++) {
        const mc = net.chain.mcBlock(s)!;
        const root = Cell.fromBoc(mc.boc)[0]!;
        expect(root.hash()).toEqual(mc.id.rootHash);
        expect(createHash("sha256").update(mc.boc).digest()).toEqual(mc.id.fileHash);
        const info = parseBlock(root).info;
        expect(info.seqNo).toBe(s);
        if (info.prevRef.type !== "prev_blk_info") throw new Error("a masterchain block has two previous blocks");
        expect(info.prevRef.prev.rootHash).toEqual(prevMc);
        prevMc = mc.id.rootHash;
        for (const k of mc.meta.shards) {
          const sh = net.chain.block(k)!;
          expect(Cell.fromBoc(sh.boc)[0]!.hash()).toEqual(sh.id.rootHash);
        }
      }
      // and the chain goes on
      const next = await net.chain.seal();
      expect(next.id.seqno).toBe(head + 1);
    } finally {
      await net.close();
    }
  });
});
