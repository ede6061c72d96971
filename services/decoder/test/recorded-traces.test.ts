// Recorded mainnet traces (toncenter's classifier fixtures) through the decoder's actions step, not
// the replay harness: each trace's transactions, messages and bodies written as the indexer stores
// them, its contracts' facts as the decoder derives them (tests/support/trace-rows.ts), then the
// block that completed the trace classified by classifyBlock, its rows written, and the actions read
// back from ClickHouse — the same actions toncenter's case expects (checkCase). And the facts the
// decoder gathers for a trace (factsForTraces: DeDust pools from dedust_pools, the data toncenter
// requests for JVault's stake wallets and pools, and what those name) are the trace file's own.
import { actionFromJson, MapInterfaceLookup, type ContractFacts, type TraceFile } from "@tongate/actions";
import { createLogger } from "@tongate/runtime";
import { factsForTraces, openStore, select, type Store } from "@tongate/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadFamilies, loadTraceFile, checkCase, toncenterActionsDir, traceFilePath, type FixtureCase } from "../../../tests/support/toncenter-actions.js";
import { applySchemas, insertTableRows, traceRows } from "../../../tests/support/trace-rows.js";
import { classifyBlock } from "../src/actions/classify-block.js";
import { readTraceInputs, type TraceRecordRow } from "../src/actions/trace-input.js";
import { insertActionsRows } from "../src/write.js";

const dir = toncenterActionsDir();
const families = loadFamilies(dir);
/** Every case of every family runs through the pipeline, as through the replay harness. */
const cases: FixtureCase[] = [...families.values()].flat();
/** Every trace with a fact the decoder derives beyond wallets and items (a DeDust pool, a contract's data). */
const derivedFactTraces = [...new Set([...families.values()].flat().map((c) => c.traceId))]
  .map((id) => loadTraceFile(traceFilePath(dir, id)))
  .map((file) => ({ id: file.trace.traceId, file }))
  .filter(({ file }) => [...traceAddresses(file)].some((a) => file.lookup.facts(a)?.dedustPool || file.lookup.facts(a)?.dataBoc));

function traceAddresses(file: TraceFile): string[] {
  const raw = file.raw.interfaces;
  return raw && typeof raw === "object" && !Array.isArray(raw) ? Object.keys(raw) : [];
}

const silent = createLogger({ level: "silent" });

/**
 * Every trace, in the chain's order: the decoder's tables keep a contract's newest facts (another
 * trace's later version of a router's wallet replaces an earlier one), so each trace is written and
 * classified before a later one is written, as the decoder meets them.
 */
const traces = [...new Map([...cases.map((c) => loadTraceFile(traceFilePath(dir, c.traceId))), ...derivedFactTraces.map((t) => t.file)].map((f) => [f.trace.traceId, f])).values()].sort((a, b) =>
  a.trace.mcSeqnoStart !== b.trace.mcSeqnoStart ? a.trace.mcSeqnoStart - b.trace.mcSeqnoStart : a.trace.startLt < b.trace.startLt ? -1 : 1,
);
const derived = new Set(derivedFactTraces.map((t) => t.id));

let store: Store;
beforeAll(async () => {
  store = await openStore();
  await applySchemas(store);
}, 120_000);
afterAll(async () => {
  await store?.close();
});

async function actionsThroughThePipeline(file: TraceFile) {
  const { trace } = file;
  const block = await classifyBlock(store, trace.mcSeqnoEnd, { jettonWallets: [], nftItems: [] }, silent);
  await insertActionsRows(store, block.rows);
  const stored = await select<{ row: string }>(
    store,
    `SELECT row FROM (SELECT row, deleted FROM actions WHERE trace_id = {id:String} ORDER BY action_id, version DESC LIMIT 1 BY action_id) WHERE NOT deleted`,
    { id: trace.traceId },
  );
  const [record] = await select<{ classification_state: string }>(store, "SELECT classification_state FROM trace_classifications FINAL WHERE trace_id = {id:String}", { id: trace.traceId });
  expect(record?.classification_state).toBe("ok");
  return stored.map((r) => ({ ...actionFromJson(JSON.parse(r.row)) }));
}

/** The facts the decoder gathers for the trace (DeDust pools, the data toncenter reads of JVault's contracts and what it names) are the trace file's own. */
async function expectGatheredFacts(file: TraceFile) {
  const id = file.trace.traceId;
  const [record] = await select<TraceRecordRow>(store, "SELECT * FROM traces WHERE trace_id = {id:String} LIMIT 1", { id });
  const input = (await readTraceInputs(store, [record!], 4_000, file.trace.mcSeqnoEnd)).get(id)!;
  const gathered = new MapInterfaceLookup(await factsForTraces(store, [input], file.trace.mcSeqnoEnd));
  for (const address of traceAddresses(file)) {
    const want: ContractFacts = file.lookup.facts(address)!;
    const got = gathered.facts(address);
    if (want.dedustPool) expect(got?.dedustPool, `${address}: DeDust pool`).toEqual(want.dedustPool);
    // the data of every account toncenter read it of, found by following its requests (a JVault stake wallet → its pool)
    if (want.dataBoc) expect({ account: got?.dataBoc?.account, dataBoc: got?.dataBoc?.dataBoc }, `${address}: data`).toEqual({ account: want.dataBoc.account, dataBoc: want.dataBoc.dataBoc });
  }
  // what the data names is gathered too: a pool's lock wallet, as a jetton wallet
  for (const f of [...traceAddresses(file)].map((a) => gathered.facts(a))) {
    if (f?.dataBoc?.lockWalletAddress) expect(gathered.facts(f.dataBoc.lockWalletAddress)?.jettonWallet).toBeDefined();
  }
}

describe.skipIf(families.size === 0)("recorded traces through the decoder's actions step", () => {
  const title = (file: TraceFile) => {
    const names = cases.filter((c) => c.traceId === file.trace.traceId).map((c) => `${c.family}: ${c.name}`);
    return [...names, ...(derived.has(file.trace.traceId) ? [`the facts gathered for ${file.trace.traceId}`] : [])].join("; ");
  };
  it.each(traces.map((f) => [title(f), f] as const))("%s", async (_name, file) => {
    await insertTableRows(store, traceRows(file));
    if (derived.has(file.trace.traceId)) await expectGatheredFacts(file);
    const mine = cases.filter((c) => c.traceId === file.trace.traceId);
    if (mine.length === 0) return;
    const actions = await actionsThroughThePipeline(file);
    for (const c of mine) expect(checkCase(c, actions).problems, c.name).toEqual([]);
  });
});
