// store → load → store gives the same cell for every constructor's samples, the loaded value is the
// sample, and a body with another opcode is refused.
import { beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import * as C from "@tongate/contracts";
import { BODIES, DNS_RECORDS, plain, STORAGES } from "./constructors.js";

const cases = [...BODIES, ...STORAGES].flatMap((c) => c.samples.map((sample, i) => [`${c.name} #${i + 1}`, c, sample] as const));

describe("round trip", () => {
  it.each(cases)("%s", (_, c, sample) => {
    const cell = beginCell().store(c.store(sample)).endCell();
    const loaded = c.load(cell.beginParse());
    expect(plain(loaded)).toEqual(plain(sample));
    expect(beginCell().store(c.store(loaded)).endCell().hash().toString("hex")).toBe(cell.hash().toString("hex"));
  });

  it.each(DNS_RECORDS.map((r) => [r.type, r] as const))("DNSRecord %s", (_, r) => {
    const cell = beginCell().store(C.storeDnsRecord(r)).endCell();
    const loaded = C.loadDnsRecord(cell.beginParse());
    expect(plain(loaded)).toEqual(plain(r));
    expect(beginCell().store(C.storeDnsRecord(loaded)).endCell().equals(cell)).toBe(true);
  });

  it("covers every opcode of every standard", () => {
    const tables = [C.COMMON_OPCODES, C.JETTON_OPCODES, C.NFT_OPCODES, C.WALLET_OPCODES, C.DNS_OPCODES, C.MULTISIG_OPCODES, C.VESTING_OPCODES, C.STAKING_OPCODES];
    const all = tables.flatMap((t) => Object.entries(t));
    const covered = new Map(BODIES.filter((b) => b.opcode !== undefined).map((b) => [b.name, b.opcode]));
    for (const [name, opcode] of all) expect(covered.get(name), name).toBe(opcode);
  });

  it.each(BODIES.filter((b) => b.opcode !== undefined && b.opcode !== 0).map((b) => [b.name, b] as const))("%s refuses another opcode", (_, c) => {
    const other = beginCell()
      .storeUint((c.opcode! ^ 1) >>> 0, 32)
      .storeUint(0, 64)
      .endCell();
    expect(() => c.load(other.beginParse())).toThrow(C.ContractDataError);
  });
});
