// The contracts' data the classifier reads beyond the trace's interfaces (toncenter's
// address_selectors: its ExtraAccountRequest of `data_boc`): a JVault unstake names a stake wallet,
// whose data names its pool, whose data names the pool's lock wallet (a jetton wallet). The caller
// gathers the latest data of dataToLookUp(trace), derives each with deriveDataFacts, then follows
// relatedDataRequests / relatedAddresses (interfaces.ts) in further rounds.
import { Cell, type Slice } from "@ton/core";
import type { DataBocFacts } from "./interfaces.js";
import type { TraceInput } from "./trace.js";

/** JVault's unstake messages (toncenter's JVaultUnstakeJettons and JVaultUnstakeRequest): their destination is a stake wallet. */
const JVAULT_UNSTAKE_OPCODES = new Set([0x499a9262, 0x0168d4b7]);

/** What an account's data is read as: toncenter's callback of the request. */
export type DataRole = "jvault_stake_wallet" | "jvault_pool";

export interface DataRequest {
  account: string;
  role: DataRole;
}

/** The accounts of a trace whose latest data the classifier reads, and as what. */
export function dataToLookUp(trace: TraceInput): DataRequest[] {
  const out = new Map<string, DataRequest>();
  for (const t of trace.transactions) {
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (m?.opcode === null || m?.opcode === undefined || !m.destination) continue;
      if (JVAULT_UNSTAKE_OPCODES.has(m.opcode >>> 0)) out.set(m.destination, { account: m.destination, role: "jvault_stake_wallet" });
    }
  }
  return [...out.values()];
}

const rawOf = (s: Slice): string | null => {
  const a = s.loadAddressAny();
  return a && "workChain" in a ? `${a.workChain}:${a.hash.toString("hex").toUpperCase()}` : null;
};

/**
 * An account's data as the classifier takes it, with what toncenter derives from it: a stake
 * wallet's pool (its first field), a pool's lock wallet (after a flag, 32 bits and two addresses).
 * Data that does not read so derives nothing (as toncenter's callback swallows the error).
 */
export function deriveDataFacts(request: DataRequest, dataBoc: string): DataBocFacts {
  const facts: DataBocFacts = { account: request.account, dataBoc };
  try {
    const s = Cell.fromBase64(dataBoc).beginParse();
    if (request.role === "jvault_stake_wallet") {
      facts.pool = rawOf(s);
    } else {
      s.skip(1 + 32);
      rawOf(s); // admin
      rawOf(s); // creator
      facts.lockWalletAddress = rawOf(s);
    }
  } catch {
    // not a layout toncenter's callback reads: the data alone
  }
  return facts;
}

/** The data a derived fact asks for next: a stake wallet's pool. */
export function relatedDataRequests(f: DataBocFacts): DataRequest[] {
  return f.pool ? [{ account: f.pool, role: "jvault_pool" }] : [];
}
