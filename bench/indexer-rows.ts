// Benchmark (issue 6): parse-only speed of the indexer's block → rows step (the ceiling of the
// ingest rate): the real fixture blocks through `blockRows`, split into BoC deserialisation
// (@ton/core Cell.fromBoc, which hashes every cell) and the rest, on one core. blockRows is given the
// block id as the follower does (root hash from it, file hash checked); "root rehashed" without it.
//   node --import tsx bench/indexer-rows.ts   (BENCH_SECONDS=5)
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { Cell } from "@ton/core";
import { blockRows, cellsFromBoc } from "@tongate/indexer";
import { installSpeedShims } from "@tongate/ton";

installSpeedShims(); // as `tongate` does at startup

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const dir = new URL("../../shared/fixtures/blocks/", import.meta.url);
const blocks = readdirSync(dir)
  .filter((f) => f.endsWith(".boc"))
  .map((f) => readFileSync(new URL(f, dir)));

function cellCount(root: Cell): number {
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const c = stack.pop()!;
    const k = c.hash().toString("hex");
    if (seen.has(k)) continue;
    seen.add(k);
    stack.push(...c.refs);
  }
  return seen.size;
}

// the follower's case: the block id (from the masterchain) gives the root hash once the file hash matches
const ids = new Map<Buffer, { root_hash: Buffer; file_hash: Buffer }>(blocks.map((b) => [b, { root_hash: Cell.fromBoc(b)[0].hash(), file_hash: createHash("sha256").update(b).digest() }]));
const txPerRound = blocks.reduce((n, b) => n + blockRows(b, { mcSeqno: 1 }).transactions.length, 0);
const cellsPerRound = blocks.reduce((n, b) => n + cellCount(Cell.fromBoc(b)[0]), 0);

function run(f: (b: Buffer) => unknown): number {
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let rounds = 0;
  while (performance.now() < until) {
    for (const b of blocks) f(b);
    rounds++;
  }
  return rounds / ((performance.now() - t0) / 1000);
}

const rowsRate = run((b) => blockRows(b, { mcSeqno: 1, id: ids.get(b) }));
const rootRate = run((b) => blockRows(b, { mcSeqno: 1 }));
const bocRate = run((b) => Cell.fromBoc(b));
const fastRate = run((b) => cellsFromBoc(b));
const slowRowsRate = run((b) => blockRows(b, { mcSeqno: 1, parseBoc: (x) => Cell.fromBoc(x) }));
const line = (name: string, r: number) =>
  `${name.padEnd(26)} ${(r * blocks.length).toFixed(1).padStart(8)} blocks/s ${(r * txPerRound).toFixed(0).padStart(7)} tx/s ${(r * cellsPerRound).toFixed(0).padStart(8)} cells/s`;
console.log(`${blocks.length} fixture blocks, ${txPerRound} transactions, ${cellsPerRound} cells per round; ${seconds} s each`);
console.log(line("blockRows (BoC → rows)", rowsRate));
console.log(line("blockRows, root rehashed", rootRate));
console.log(line("blockRows, Cell.fromBoc", slowRowsRate));
console.log(line("cellsFromBoc alone", fastRate));
console.log(line("Cell.fromBoc alone", bocRate));
