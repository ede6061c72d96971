// How the LayerZero and Cocoon actions print the values toncenter prints with Python: hex() of
// OApps and guids (no leading zeros), a packet message as its bits' bytes, Cocoon's expected
// addresses (std raw upper-case, external "<bits>;<hex>").
import { Address, beginCell, ExternalAddress } from "@ton/core";
import { describe, expect, it } from "vitest";
import { storeLzPacket, storeLzPath } from "@tongate/contracts";
import { expectedAddressText } from "../src/matchers/cocoon/block.js";
import { packetData } from "../src/matchers/layerzero/packet.js";

describe("LayerZero packet data", () => {
  it("prints OApps and the guid as Python's hex() and the message's bits as padded bytes", () => {
    const path = beginCell().store(storeLzPath({ srcEid: 30343, srcOApp: 0x0abcn, dstEid: 30101, dstOApp: 0x811ed79db9d34e83bdb73df6c3e07961cfb0d5c0n })).endCell();
    const message = beginCell().storeUint(0xabc, 12).endCell();
    const packet = beginCell().store(storeLzPacket({ path, message, nonce: 517n, guid: 0n })).endCell();
    expect(packetData(packet)).toEqual({
      src_oapp: "0xabc",
      dst_oapp: "0x811ed79db9d34e83bdb73df6c3e07961cfb0d5c0",
      src_eid: 30343,
      dst_eid: 30101,
      nonce: 517n,
      guid: "0x0",
      message: "0xabc0",
    });
  });

  it("refuses a cell of another class", () => {
    const path = beginCell().store(storeLzPath({ srcEid: 1, srcOApp: 1n, dstEid: 2, dstOApp: 2n })).endCell();
    expect(() => packetData(path)).toThrow();
  });
});

describe("Cocoon expected addresses", () => {
  it("prints them as toncenter does", () => {
    expect(expectedAddressText(Address.parse("0:E572BD4E31B098C7E1AA8BB779D48EAF01D279831502C4029C7B522614873BCA"))).toBe(
      "0:E572BD4E31B098C7E1AA8BB779D48EAF01D279831502C4029C7B522614873BCA",
    );
    expect(expectedAddressText(new ExternalAddress(0x8da2n, 260))).toBe("260;8da2");
    expect(expectedAddressText(null)).toBeNull();
  });
});
