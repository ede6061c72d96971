// closedLoop in a process of its own, so that a background load does not share the event loop of
// the measurement beside it: LOAD_BASE, LOAD_ACCOUNTS (a file of accounts, one a line),
// LOAD_CONCURRENCY, LOAD_SECONDS, LOAD_SEED, LOAD_INTERVAL_MS (each loop paced: a
// request no sooner than this after its previous one; default at once); prints `loading` as it starts, then the figures as one
// JSON line.
import { readFileSync } from "node:fs";
import { closedLoop, v3Page } from "./load.js";

const accounts = readFileSync(process.env.LOAD_ACCOUNTS!, "utf8").split("\n").filter(Boolean);
process.stdout.write("loading\n");
const figures = await closedLoop({
  base: process.env.LOAD_BASE!,
  path: v3Page(accounts, Number(process.env.LOAD_SEED ?? 1)),
  concurrency: Number(process.env.LOAD_CONCURRENCY),
  seconds: Number(process.env.LOAD_SECONDS),
  intervalMs: process.env.LOAD_INTERVAL_MS ? Number(process.env.LOAD_INTERVAL_MS) : undefined,
});
process.stdout.write(`${JSON.stringify(figures)}\n`);
