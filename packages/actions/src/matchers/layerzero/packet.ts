// A LayerZero packet as toncenter's layerzero_packet_data shows it: OApps, guid and nonce-free
// numbers as Python's hex() prints them ("0x" and no leading zeros), the message as the hex of its
// cell's bits (padded with zero bits to whole bytes).
import { type Cell, type Slice } from "@ton/core";
import { loadLayerZeroMessage, loadLzPacket, loadLzPath } from "@tongate/contracts";

export interface LayerZeroPacketData {
  src_oapp: string;
  dst_oapp: string;
  src_eid: number;
  dst_eid: number;
  nonce: bigint;
  guid: string;
  message: string;
}

/** Python's hex() of a non-negative integer. */
export const pyHex = (n: bigint): string => "0x" + n.toString(16);

/** The bits of a cell (not its refs) as bytes, the last one padded with zeros, in hex with "0x". */
function bitsHex(c: Cell): string {
  const bits = c.bits;
  const out = Buffer.alloc(Math.ceil(bits.length / 8));
  for (let i = 0; i < bits.length; i++) if (bits.at(i)) out[i >> 3] |= 0x80 >> (i & 7);
  return "0x" + out.toString("hex");
}

/** An lz::Packet cell's data. */
export function packetData(packetCell: Cell): LayerZeroPacketData {
  const packet = loadLzPacket(packetCell.beginParse());
  const path = loadLzPath(packet.path.beginParse());
  return {
    src_oapp: pyHex(path.srcOApp),
    dst_oapp: pyHex(path.dstOApp),
    src_eid: path.srcEid,
    dst_eid: path.dstEid,
    nonce: packet.nonce,
    guid: pyHex(packet.guid),
    message: bitsHex(packet.message),
  };
}

/** The md cell of a LayerZero message body. */
export function mdOf(body: Slice): Cell {
  return loadLayerZeroMessage(body).md;
}
