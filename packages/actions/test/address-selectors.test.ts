// Every contract toncenter's classifier had facts of (a fixture trace's `interfaces`) is one tongate's
// decoder asks its store for: the trace's accounts and messages, the addresses their bodies name
// (address selectors), the data toncenter requests (a JVault stake wallet, then its pool) and what
// facts name outside the trace (a sale's item, a pool's lock wallet), gathered round by round as
// @tongate/store's factsForTraces does.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addressesToLookUp, dataToLookUp, deriveDataFacts, relatedAddresses, relatedDataRequests, type ContractFacts, type DataRequest } from "@tongate/actions";
import { loadTraceFile, toncenterActionsDir } from "../../../tests/support/toncenter-actions.js";

const dir = join(toncenterActionsDir(), "traces");
const files = (() => {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(".json"));
  } catch {
    return [];
  }
})();

describe.skipIf(files.length === 0)("the addresses the decoder gathers facts of", () => {
  it("cover every address of every fixture trace's interfaces", () => {
    const missing: string[] = [];
    let dataDerived = 0;
    for (const f of files) {
      const file = loadTraceFile(join(dir, f));
      const known = (a: string): ContractFacts | undefined => file.lookup.facts(a);
      const asked = new Set(addressesToLookUp(file.trace));
      let requests: DataRequest[] = dataToLookUp(file.trace);
      const facts = new Map<string, ContractFacts>();
      for (const a of asked) if (known(a)) facts.set(a, { ...known(a), dataBoc: undefined });
      for (let round = 0; round < 4; round++) {
        for (const r of requests) {
          asked.add(r.account);
          const data = known(r.account)?.dataBoc;
          if (!data) continue;
          facts.set(r.account, { ...facts.get(r.account), dataBoc: deriveDataFacts(r, data.dataBoc) });
          dataDerived++;
        }
        const named = [...facts.values()];
        requests = named.flatMap((x) => (x.dataBoc ? relatedDataRequests(x.dataBoc) : [])).filter((r) => !facts.get(r.account)?.dataBoc);
        for (const a of named.flatMap(relatedAddresses)) {
          asked.add(a);
          if (known(a) && !facts.has(a)) facts.set(a, { ...known(a), dataBoc: undefined });
        }
      }
      const raw = file.raw.interfaces;
      for (const a of raw && typeof raw === "object" && !Array.isArray(raw) ? Object.keys(raw) : []) if (!asked.has(a)) missing.push(`${f}: ${a} ${Object.keys(known(a) ?? {}).join(",")}`);
    }
    expect(missing).toEqual([]);
    // the JVault traces' stake wallets and pools
    expect(dataDerived).toBeGreaterThanOrEqual(10);
  });
});

describe("data requests", () => {
  it("data that does not read as a stake wallet's or a pool's derives nothing, and asks for nothing more", () => {
    const garbage = "te6cckEBAQEAAwAAAcCO6ba2"; // one cell of 1 bit
    const wallet = deriveDataFacts({ account: "0:AA", role: "jvault_stake_wallet" }, garbage);
    expect(wallet).toEqual({ account: "0:AA", dataBoc: garbage });
    expect(relatedDataRequests(wallet)).toEqual([]);
    expect(deriveDataFacts({ account: "0:BB", role: "jvault_pool" }, "not a boc")).toEqual({ account: "0:BB", dataBoc: "not a boc" });
  });
});
