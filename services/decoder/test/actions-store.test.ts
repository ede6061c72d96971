// A trace classified again (a wallet its actions touch confirmed later) replaces its actions in
// ClickHouse and in the key index — the actions it no longer has are gone, nothing is listed twice —
// and writing the same classification again (a block decoded again after a crash) changes nothing
// a reader sees. A reader bounded by an earlier checkpoint still sees the classification of then,
// and a rebuild of the key index from ClickHouse gives the entries the blocks wrote (real chDB, LMDB).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ActionRow } from "@tongate/actions";
import { actionRow, classificationRow, DECODED_KEYS, DecodedKeys, DECODER_CHECKPOINT, DECODER_OWNER, emptyKeyRows, type KeyIndexEnv, openKeyIndexEnv, openStore, select, setCheckpoint, type Store } from "@tongate/store";
import { afterAll, beforeAll, expect, it } from "vitest";
import { actionsBefore } from "../src/actions/classify-block.js";
import { classificationRows, type TraceBounds } from "../src/actions/rows.js";
import { currentClassifications, DECODER_KEY_INDEX, rebuildDecodedKeys } from "../src/keys.js";
import { DECODER_MIGRATIONS } from "../src/service.js";
import { insertActionsRows } from "../src/write.js";

let store: Store;
let keys: DecodedKeys;
const dirs: string[] = [];
beforeAll(async () => {
  store = await openStore({ keyIndex: true });
  const reg = await store.register({ owner: "decoder", migrations: DECODER_MIGRATIONS, keyIndex: DECODER_KEY_INDEX });
  keys = DecodedKeys.of(reg.keys!);
  await keys.tables.markComplete();
});
afterAll(async () => {
  await store?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const h = (n: number) => Buffer.alloc(32, n).toString("base64");
const acct = (n: number) => `0:${n.toString(16).padStart(2, "0").repeat(32).toUpperCase()}`;
const TRACE = h(1);
const [X, Y, Z] = [acct(0xa1), acct(0xa2), acct(0xa3)];
const bounds: TraceBounds = { traceId: TRACE, endLt: 500n, endUtime: 1_700_000_500, mcSeqnoEnd: 5 };

function action(id: number, type: string, accounts: string[], endLt: bigint): ActionRow {
  return {
    trace_id: TRACE, action_id: h(id), type, tx_hashes: [h(id + 100)], accounts, success: true,
    start_lt: endLt - 1n, end_lt: endLt, start_utime: 1_700_000_000, end_utime: 1_700_000_001, mc_seqno_end: 5,
    trace_end_lt: 500n, trace_end_utime: 1_700_000_500, trace_external_hash: h(9), trace_external_hash_norm: null, trace_mc_seqno_end: 5,
    source: accounts[0] ?? null, source_secondary: null, destination: accounts[1] ?? null, destination_secondary: null,
    asset: null, asset_secondary: null, asset2: null, asset2_secondary: null, amount: null, value: 10n ** 20n, opcode: null,
    value_extra_currencies: null, parent_action_id: null, ancestor_type: [], extra: null,
  };
}

/** What the decoder's block step does with one trace's classification at `version`. */
async function classifyAt(version: number, actions: ActionRow[]): Promise<void> {
  const previous = (await actionsBefore(store, [TRACE], version)).get(TRACE) ?? [];
  const rows = classificationRows(bounds, "ok", actions, version, previous);
  await insertActionsRows(store, rows);
  await keys.stage(version, { ...emptyKeyRows(), traces: [{ classification: classificationRow(rows.trace_classifications[0]!), actions: rows.actions.filter((a) => !a.deleted).map((a) => actionRow(a)) }] });
  await setCheckpoint(store, DECODER_CHECKPOINT, version);
  await keys.apply(version);
}

/** The current action_accounts rows at checkpoint `upTo` (the version rule of 0004_actions.sql). */
const accountRows = (upTo: number) =>
  select<{ account: string; action_id: string; type: string }>(
    store,
    `SELECT account, action_id, type FROM (
       SELECT account, action_id, type, deleted FROM action_accounts WHERE version <= {upTo:UInt32}
       ORDER BY account, trace_end_lt, trace_id, end_lt, action_id, version DESC LIMIT 1 BY account, trace_end_lt, trace_id, end_lt, action_id)
     WHERE NOT deleted ORDER BY account, action_id`,
    { upTo },
  );
const current = async (upTo: number) => (await currentClassifications(store, upTo, "", 10)).map((t) => [t.classification.version, t.actions.map((a) => [a.action_id, a.type]).sort()]);
const keyed = () => ({
  trace: keys.actionsOfTraces([TRACE]).get(TRACE)?.map((a) => [a.action_id, a.type]),
  byAccount: [X, Y, Z].map((a) => [...keys.actionsOfAccount(a, { reverse: false })].map((e) => e.actionId)),
  byId: keys.actionsById([h(11), h(12), h(13)]).map((a) => a.action_id),
  byTransaction: keys.actionsOfTransactions([h(111), h(112), h(113)]).map((a) => a.action_id),
});

it("a re-classification replaces the trace's actions; the same one written again changes nothing", async () => {
  await classifyAt(5, [action(11, "unknown", [X, Y], 100n), action(12, "ton_transfer", [Y], 200n)]);
  expect(await current(5)).toEqual([[5, [[h(11), "unknown"], [h(12), "ton_transfer"]]]]);
  expect(await accountRows(5)).toEqual([
    { account: X, action_id: h(11), type: "unknown" },
    { account: Y, action_id: h(11), type: "unknown" },
    { account: Y, action_id: h(12), type: "ton_transfer" },
  ]);

  // block 7 confirms a wallet: action 11 becomes a jetton transfer of X alone, 12 goes, 13 comes
  const again = [action(11, "jetton_transfer", [X], 100n), action(13, "ton_transfer", [Z], 300n)];
  await classifyAt(7, again);
  const after = { classifications: await current(7), accounts: await accountRows(7), keys: keyed() };
  expect(after.classifications).toEqual([[7, [[h(11), "jetton_transfer"], [h(13), "ton_transfer"]]]]);
  expect(after.accounts).toEqual([
    { account: X, action_id: h(11), type: "jetton_transfer" },
    { account: Z, action_id: h(13), type: "ton_transfer" },
  ]);
  expect(after.keys).toEqual({
    trace: [[h(11), "jetton_transfer"], [h(13), "ton_transfer"]],
    byAccount: [[h(11)], [], [h(13)]],
    byId: [h(11), h(13)],
    byTransaction: [h(11), h(13)],
  });
  // a reader at the checkpoint before block 7 sees block 5's classification, whole
  expect(await current(6)).toEqual([[5, [[h(11), "unknown"], [h(12), "ton_transfer"]]]]);

  // block 7 decoded again after a crash: the same rows, nothing visible changes
  const distinct = async () => (await select<{ n: string }>(store, "SELECT count() AS n FROM (SELECT DISTINCT * FROM actions)", {}))[0]!.n;
  const before = await distinct();
  await classifyAt(7, again);
  expect({ classifications: await current(7), accounts: await accountRows(7), keys: keyed() }).toEqual(after);
  expect(await distinct()).toBe(before);
  const [{ n }] = await select<{ n: string }>(store, "SELECT count() AS n FROM trace_classifications FINAL", {});
  expect(n).toBe("1");
});

it("a rebuild of the key index from ClickHouse gives the entries the blocks wrote", async () => {
  const dir = mkdtempSync(join(tmpdir(), "tongate-actions-keys-"));
  dirs.push(dir);
  const env: KeyIndexEnv = openKeyIndexEnv(dir);
  try {
    const rebuilt = await env.open(DECODER_OWNER, DECODED_KEYS);
    expect(await rebuildDecodedKeys({ store, keys: rebuilt, progress: () => undefined })).toBe(true);
    const actionTables = (c: Iterable<{ table: string; key: string; value: string }>) => [...c].filter((e) => /actions|trace_classifications/.test(e.table));
    const written = actionTables(keys.contents());
    expect(written.length).toBeGreaterThan(0);
    expect(actionTables(DecodedKeys.of(rebuilt).contents())).toEqual(written);
  } finally {
    await env.close();
  }
});
