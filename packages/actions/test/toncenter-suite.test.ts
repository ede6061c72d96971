// toncenter's own regression suite for its classifier, replayed against ours: every case of every
// family in TONCENTER_ACTIONS_DIR (default ../shared/fixtures/toncenter_actions) by the README's
// rules, each trace's `interfaces` the only contract facts. Families in ACCEPTED_FAMILIES must
// pass whole; every trace file must classify without failing.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { beginCell, Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import { classifyTrace, renderAction, type ActionRow } from "@tongate/actions";
import { DETAIL_FIELDS } from "../src/render-fields.js";
import {
  apiProblems,
  checkCase,
  loadFamilies,
  loadTraceFile,
  readJsonFile,
  toncenterActionsDir,
  traceFilePath,
  traceFromJson,
  type FixtureCase,
} from "../../../tests/support/toncenter-actions.js";

/** The families whose every case must pass (each matcher family adds its own). */
export const ACCEPTED_FAMILIES: readonly string[] = ["ton-transfers", "jetton-transfer", "jetton-mints", "nft", "ethena", "tonstakers", "vesting", "layerzero", "cocoon", "stonfi-swaps", "stonfi-v2-swaps", "coffee", "evaa", "jvault", "tgbtc", "dedust-liquidities", "tonco"];

const dir = toncenterActionsDir();
const families = loadFamilies(dir);
const verbose = process.env.TONCENTER_ACTIONS_VERBOSE === "1";

function rows(actions: readonly ActionRow[]): Record<string, unknown>[] {
  return actions.map((a) => ({ ...a }));
}

interface Outcome {
  c: FixtureCase;
  problems: string[];
}

function replay(c: FixtureCase): Outcome {
  const { trace, lookup } = loadTraceFile(traceFilePath(dir, c.traceId));
  const result = classifyTrace(trace, lookup);
  const r = checkCase(c, rows(result.actions));
  const problems = [...r.problems];
  if (result.state === "failed") problems.push(`classification failed: ${result.error ?? ""}`);
  if (r.ok) {
    // the same values must come out of API v3's details
    c.expected.forEach((exp) => {
      const picked = result.actions.filter((a) => a.type.toLowerCase() === exp.type.toLowerCase());
      const action = picked.length === 1 ? picked[0] : undefined;
      if (action && exp.selector === undefined) problems.push(...apiProblems(exp, renderAction(action), DETAIL_FIELDS[action.type]));
    });
  }
  return { c, problems };
}

describe("toncenter's classifier suite", () => {
  it.skipIf(families.size === 0)("replays every case; the accepted families pass whole", () => {
    const byFamily = new Map<string, Outcome[]>();
    for (const [family, cases] of families) byFamily.set(family, cases.map(replay));
    let passed = 0;
    let failed = 0;
    const lines: string[] = [];
    for (const [family, outcomes] of byFamily) {
      const p = outcomes.filter((o) => o.problems.length === 0).length;
      const f = outcomes.length - p;
      passed += p;
      failed += f;
      lines.push(`${family}: ${p} passed, ${f} failed`);
      if (verbose || ACCEPTED_FAMILIES.includes(family)) {
        for (const o of outcomes) if (o.problems.length > 0) lines.push(`  FAIL ${o.c.name} (${o.c.traceId}): ${o.problems.join("; ")}`);
      }
    }
    lines.push(`${passed} passed, ${failed} failed`);
    console.log(lines.join("\n"));
    for (const family of ACCEPTED_FAMILIES) {
      const outcomes = byFamily.get(family) ?? [];
      expect(outcomes.length, `${family} has cases`).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o.problems.length > 0).map((o) => `${o.c.name}: ${o.problems.join("; ")}`)).toEqual([]);
    }
  });

  it.skipIf(families.size === 0)("classifies every trace file without failing, fast", () => {
    const files = readdirSync(join(dir, "traces")).filter((f) => f.endsWith(".json"));
    const loaded = files.map((f) => loadTraceFile(join(dir, "traces", f)));
    const failures: string[] = [];
    for (const { trace, lookup } of loaded) {
      const r = classifyTrace(trace, lookup);
      if (r.state === "failed" || r.actions.length === 0) failures.push(`${trace.traceId}: ${r.state} ${r.error ?? ""}`);
      for (const a of r.actions) renderAction(a);
    }
    expect(failures).toEqual([]);
    // classification rate over the fixture traces
    const rounds = 20;
    const t0 = performance.now();
    for (let i = 0; i < rounds; i++) for (const { trace, lookup } of loaded) classifyTrace(trace, lookup);
    const secs = (performance.now() - t0) / 1000;
    const txs = loaded.reduce((n, l) => n + l.trace.transactions.length, 0);
    console.log(`classified ${loaded.length * rounds} traces (${txs * rounds} transactions) in ${secs.toFixed(2)} s: ${Math.round((loaded.length * rounds) / secs)} traces/s`);
  });

  it.skipIf(families.size === 0)("bodies that are empty, cut short or garbage never make it throw", () => {
    const files = readdirSync(join(dir, "traces")).filter((f) => f.endsWith(".json"));
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const garble = (body: string): string => {
      const r = rand();
      if (r < 0.25) return "";
      if (r < 0.5) return Buffer.from(Array.from({ length: 1 + Math.floor(rand() * 40) }, () => Math.floor(rand() * 256))).toString("base64");
      const c = Cell.fromBase64(body).beginParse();
      // the same cell cut to fewer bits and no refs
      return beginCell().storeBits(c.loadBits(Math.floor(c.remainingBits * rand()))).endCell().toBoc().toString("base64");
    };
    for (const f of files) {
      const { trace, lookup } = loadTraceFile(join(dir, "traces", f));
      for (const tx of trace.transactions) {
        for (const m of [tx.inMsg, ...tx.outMsgs]) if (m && rand() < 0.5) m.body = garble(m.body);
      }
      const r = classifyTrace(trace, lookup);
      expect(r.actions.length, trace.traceId).toBeGreaterThan(0);
      for (const a of r.actions) renderAction(a);
    }
  });

  it.skipIf(families.size === 0)("a trace whose external has an empty body is one unknown action over the wallet", () => {
    const raw = readJsonFile(traceFilePath(dir, "Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ--D-3E="));
    const txs = raw.transactions;
    if (!Array.isArray(txs)) throw new Error("no transactions");
    const first = txs[0];
    if (first === null || typeof first !== "object" || Array.isArray(first) || !Array.isArray(first.messages)) throw new Error("no messages");
    const msg = first.messages[0];
    if (msg === null || typeof msg !== "object" || Array.isArray(msg)) throw new Error("no message");
    const content = msg.message_content;
    if (content === null || typeof content !== "object" || Array.isArray(content)) throw new Error("no content");
    content.body = "";
    const { trace, lookup } = traceFromJson(raw);
    const r = classifyTrace(trace, lookup);
    expect(r.actions).toHaveLength(1);
    expect(r.actions[0].type).toBe("unknown");
    expect(new Set(r.actions[0].accounts)).toEqual(new Set(["0:9E53B9A59CC76005E9B00D571D4933D8548361F87608D58BC1A0029FACCEF345"]));
    expect(new Set(r.actions[0].tx_hashes)).toEqual(new Set(["Ugmymow0mpGDSuNUKC1YHkd28o7qceVvYtokZ++D+3E="]));
  });
});
