// Every message body of toncenter's recorded traces whose opcode names a constructor of
// message-schemes.tlb is decoded; where the recording carries toncenter's `decoded`, ours equals it.
import { readFileSync, readdirSync } from "node:fs";
import { Cell } from "@ton/core";
import { describe, expect, it } from "vitest";
import { messageDecoded, messageDecoder } from "../src/index.js";

const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);
const decoder = messageDecoder();

/** Bodies whose layout differs from the one constructor message-schemes.tlb has for their opcode (toncenter's own scheme refuses them too). */
const SCHEME_MISMATCH: Record<string, string> = {
  jetton_burn_notification: "tgBTC's burn notification ends before response_destination",
  jetton_mint: "a minter whose mint carries an amount before to_address",
  coffee_staking_deposit: "sender is addr_none where the scheme wants MsgAddressInt",
  coffee_swap: "a notification's receiver is addr_none where the scheme wants MsgAddressInt",
  coffee_swap_internal: "a notification's receiver is addr_none where the scheme wants MsgAddressInt",
  coffee_payout_internal: "a notification's receiver is addr_none where the scheme wants MsgAddressInt",
  evaa_withdraw_master: "an older layout without forward_ton_amount",
};

function opcodeOf(cell: Cell): number | null {
  const s = cell.beginParse(true);
  return s.remainingBits >= 32 ? s.preloadUint(32) : null;
}

describe("toncenter_v3 fixtures", () => {
  it("decodes every body as toncenter did (message_content.decoded, decoded_opcode)", () => {
    let compared = 0;
    for (const file of ["v3_trace_fixture.json", "v3_trace_fixture_multi.json"]) {
      const fx = JSON.parse(readFileSync(new URL(`toncenter_v3/${file}`, FIXTURES), "utf8"));
      for (const trace of fx.traces) {
        for (const tx of Object.values<any>(trace.transactions)) {
          for (const msg of [tx.in_msg, ...tx.out_msgs]) {
            const body = msg?.message_content?.body;
            if (!body) continue;
            const cell = Cell.fromBase64(body);
            const r = decoder.decode(cell);
            expect(r.ok ? messageDecoded(r.value) : r.error.message, `${tx.hash} ${msg.hash}`).toEqual(msg.message_content.decoded);
            const op = opcodeOf(cell);
            expect(op === null ? null : decoder.opcodeName(op)).toEqual(msg.decoded_opcode);
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });
});

describe("toncenter_actions traces", () => {
  it("decodes every body whose opcode has a constructor, by family", () => {
    const dir = new URL("toncenter_actions/", FIXTURES);
    const familyOf = new Map<string, string>();
    for (const f of readdirSync(new URL("families/", dir))) {
      const fam = JSON.parse(readFileSync(new URL(`families/${f}`, dir), "utf8"));
      for (const c of fam.cases) familyOf.set(c.trace_id, fam.family);
    }
    const share = new Map<string, { known: number; decoded: number; mismatch: number }>();
    const unexpected: string[] = [];
    const seen = new Set<string>();
    let micros = 0;
    let bodies = 0;
    for (const f of readdirSync(new URL("traces/", dir))) {
      const trace = JSON.parse(readFileSync(new URL(`traces/${f}`, dir), "utf8"));
      const family = familyOf.get(f.replace(/\.json$/, "")) ?? "(no case)";
      for (const tx of trace.transactions) {
        for (const msg of tx.messages) {
          const body: string | undefined = msg.message_content?.body;
          if (!body || seen.has(body)) continue;
          seen.add(body);
          const cell = Cell.fromBase64(body);
          const t0 = performance.now();
          const r = decoder.decode(cell);
          micros += (performance.now() - t0) * 1000;
          bodies++;
          const op = opcodeOf(cell);
          const name = op === null ? null : decoder.opcodeName(op);
          if (name === null) continue;
          const row = share.get(family) ?? { known: 0, decoded: 0, mismatch: 0 };
          row.known++;
          if (r.ok) row.decoded++;
          else if (SCHEME_MISMATCH[name]) row.mismatch++;
          else unexpected.push(`${family} ${name}: ${r.error.message}`);
          share.set(family, row);
        }
      }
    }
    const lines = [...share].sort(([a], [b]) => a.localeCompare(b)).map(([fam, r]) => `  ${fam.padEnd(20)} ${r.decoded}/${r.known}${r.mismatch ? ` (${r.mismatch} not in the scheme's layout)` : ""}`);
    const total = [...share.values()].reduce((a, r) => ({ known: a.known + r.known, decoded: a.decoded + r.decoded }), { known: 0, decoded: 0 });
    console.log(
      `bodies with a known opcode decoded: ${total.decoded}/${total.known} (${((100 * total.decoded) / total.known).toFixed(1)}%), ` +
        `${bodies} distinct bodies, ${(micros / bodies).toFixed(0)} µs per body (cold, in the test)\n${lines.join("\n")}`,
    );
    expect(unexpected).toEqual([]);
    expect(total.decoded).toBeGreaterThanOrEqual(653);
  });
});
