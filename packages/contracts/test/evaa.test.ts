// EVAA's bodies in toncenter's classifier traces (user commands after their upgrade header, and the
// supply call inside a jetton transfer) load and store back to the same cell; the constructors with
// no real body in the fixtures store what they load.
import { Address, beginCell, type Builder, type Cell, type Slice } from "@ton/core";
import { describe, expect, it } from "vitest";
import {
  EVAA_OPCODES,
  evaaLiquidationErrorReason,
  evaaUserCommandOpcode,
  JETTON_OPCODES,
  loadEvaaLiquidateMaster,
  loadEvaaLiquidateSatisfied,
  loadEvaaLiquidateUnsatisfied,
  loadEvaaSupplyMaster,
  loadEvaaSupplyMasterJetton,
  loadEvaaSupplySuccess,
  loadEvaaSupplyUser,
  loadEvaaWithdrawCollateralized,
  loadEvaaWithdrawMaster,
  loadJettonTransfer,
  storeEvaaLiquidateMaster,
  storeEvaaLiquidateSatisfied,
  storeEvaaLiquidateUnsatisfied,
  storeEvaaSupplyMaster,
  storeEvaaSupplyMasterJetton,
  storeEvaaSupplySuccess,
  storeEvaaSupplyUser,
  storeEvaaWithdrawCollateralized,
  storeEvaaWithdrawMaster,
} from "@tongate/contracts";
import { actionTraceMessages } from "./fixtures.js";

interface Codec {
  name: string;
  roundTrip: (c: Cell) => Cell;
}

function codec<T>(name: string, load: (s: Slice) => T, store: (v: T) => (b: Builder) => void): Codec {
  return { name, roundTrip: (c) => beginCell().store(store(load(c.beginParse()))).endCell() };
}

const OP = EVAA_OPCODES;
/** body kinds: a plain opcode, a user command's opcode (after the header), a jetton transfer's payload */
const PLAIN = new Map<number, Codec>([
  [OP.evaa_withdraw_master, codec("evaa_withdraw_master", loadEvaaWithdrawMaster, storeEvaaWithdrawMaster)],
  [OP.evaa_supply_success, codec("evaa_supply_success", loadEvaaSupplySuccess, storeEvaaSupplySuccess)],
  [OP.evaa_withdraw_collateralized, codec("evaa_withdraw_collateralized", loadEvaaWithdrawCollateralized, storeEvaaWithdrawCollateralized)],
]);
const USER = new Map<number, Codec>([[OP.evaa_supply_user, codec("evaa_supply_user", loadEvaaSupplyUser, storeEvaaSupplyUser)]]);
const SUPPLY_JETTON = codec("evaa_supply_master (jetton)", loadEvaaSupplyMasterJetton, storeEvaaSupplyMasterJetton);

const bodies: { codec: Codec; hash: string; body: Cell }[] = [];
for (const m of actionTraceMessages()) {
  const plain = m.opcode === null ? undefined : PLAIN.get(m.opcode);
  if (plain) bodies.push({ codec: plain, hash: m.hash, body: m.body });
  const user = USER.get(evaaUserCommandOpcode(m.body.beginParse()) ?? -1);
  if (user && m.opcode !== null && !PLAIN.has(m.opcode)) bodies.push({ codec: user, hash: m.hash, body: m.body });
  if (m.opcode === JETTON_OPCODES.jetton_transfer) {
    const p = loadJettonTransfer(m.body.beginParse()).forwardPayload;
    if (p?.inRef && p.cell.bits.length >= 32 && p.cell.beginParse().preloadUint(32) === OP.evaa_supply_master) bodies.push({ codec: SUPPLY_JETTON, hash: m.hash, body: p.cell });
  }
}

describe("EVAA bodies", () => {
  it("the fixtures hold real bodies of the constructors tested on them", () => {
    const seen = new Set(bodies.map((b) => b.codec.name));
    expect([...PLAIN.values(), ...USER.values(), SUPPLY_JETTON].map((c) => c.name).filter((n) => !seen.has(n))).toEqual([]);
  });

  it.each(bodies.map((b) => [b.codec.name, b.hash, b] as const))("%s %s loads and stores back to itself", (_name, _hash, b) => {
    expect(b.codec.roundTrip(b.body).hash().toString("hex")).toBe(b.body.hash().toString("hex"));
  });

  const addr = (n: number) => Address.parse(`0:${n.toString(16).padStart(2, "0").repeat(32)}`);
  const payload = beginCell().storeUint(0xabc, 12).endCell();

  it("supply_master (TON), liquidate_master, liquidate_satisfied and liquidate_unsatisfied (no real body in the fixtures) store what they load", () => {
    const samples: [Cell, Codec][] = [
      [
        beginCell().storeUint(OP.evaa_supply_master, 32).storeUint(1, 64).storeUint(3, 2).storeUint(5n, 64).storeAddress(addr(1)).storeUint(9, 64).storeRef(payload).endCell(),
        codec("evaa_supply_master", loadEvaaSupplyMaster, storeEvaaSupplyMaster),
      ],
      [
        beginCell().storeUint(OP.evaa_liquidate_master, 32).storeUint(1, 64).storeAddress(addr(1)).storeAddress(addr(2)).storeUint(7n, 256).storeUint(1, 64).storeUint(0, 2).storeUint(100, 64).storeRef(payload).endCell(),
        codec("evaa_liquidate_master", loadEvaaLiquidateMaster, storeEvaaLiquidateMaster),
      ],
      [
        beginCell()
          .storeUint(OP.evaa_liquidate_satisfied, 32)
          .storeUint(1, 64)
          .storeAddress(addr(1))
          .storeAddress(addr(2))
          .storeUint(7n, 256)
          .storeRef(beginCell().storeInt(-5, 64).storeUint(10, 64).storeUint(1, 64).storeInt(3, 64).storeUint(8n, 256).storeInt(-2, 64).storeUint(42, 64).storeUint(1, 64).endCell())
          .endCell(),
        codec("evaa_liquidate_satisfied", loadEvaaLiquidateSatisfied, storeEvaaLiquidateSatisfied),
      ],
      [
        beginCell()
          .storeUint(OP.evaa_liquidate_unsatisfied, 32)
          .storeUint(1, 64)
          .storeAddress(addr(1))
          .storeAddress(addr(2))
          .storeUint(7n, 256)
          .storeRef(beginCell().storeUint(10, 64).storeUint(8n, 256).storeUint(1, 64).storeUint(0, 64).storeRef(payload).storeUint(0xe003, 32).endCell())
          .endCell(),
        codec("evaa_liquidate_unsatisfied", loadEvaaLiquidateUnsatisfied, storeEvaaLiquidateUnsatisfied),
      ],
    ];
    for (const [body, c] of samples) expect(c.roundTrip(body).hash().toString("hex"), c.name).toBe(body.hash().toString("hex"));
  });

  it("names a liquidation error as toncenter does", () => {
    expect(evaaLiquidationErrorReason(beginCell().storeUint(0xe003, 32).endCell())).toBe("not_liquidatable");
    expect(evaaLiquidationErrorReason(beginCell().storeUint(0x31f2, 32).endCell())).toBe("unknown");
    expect(evaaLiquidationErrorReason(beginCell().endCell())).toBe("parse_error");
  });
});
