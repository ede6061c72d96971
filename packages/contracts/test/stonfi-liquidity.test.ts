// STON.fi v2's provide_lp: no fixture trace holds one (the classifier suite has no STON.fi
// liquidity case), so the round-trip runs over every fixture body with its opcode (none today) and
// over a body built here.
import { Address, beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import { loadStonfiProvideLpV2, STONFI_V2_LIQUIDITY_OPCODES, storeStonfiProvideLpV2 } from "@tongate/contracts";
import { realBodiesOf } from "./dex-bodies.js";

describe("STON.fi v2 provide_lp round-trip", () => {
  it("loads and stores back to the same cell", () => {
    const body = beginCell()
      .store(
        storeStonfiProvideLpV2({
          queryId: 42n,
          fromUser: new Address(0, Buffer.alloc(32, 9)),
          leftAmount: 1000n,
          rightAmount: 0n,
          dexPayload: beginCell().storeUint(0x37c096df, 32).endCell(),
        }),
      )
      .endCell();
    const back = beginCell().store(storeStonfiProvideLpV2(loadStonfiProvideLpV2(body.beginParse()))).endCell();
    expect(back.hash().equals(body.hash())).toBe(true);
    for (const b of realBodiesOf(STONFI_V2_LIQUIDITY_OPCODES.provide_lp, "message")) {
      const again = beginCell().store(storeStonfiProvideLpV2(loadStonfiProvideLpV2(b.cell.beginParse()))).endCell();
      expect(again.hash().equals(b.cell.hash()), b.from).toBe(true);
    }
  });
});
