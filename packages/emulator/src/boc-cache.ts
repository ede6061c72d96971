// The BoC (base64) of a cell, kept beside it: the emulator takes and returns BoCs, and an
// account state it returned goes back in unchanged on the account's next transaction.
import type { Cell } from "@ton/core";

const bocs = new WeakMap<Cell, string>();

/** Remembers the BoC a cell was read from, so passing it back to the emulator costs nothing. */
export function withBoc(cell: Cell, base64: string): Cell {
  bocs.set(cell, base64);
  return cell;
}

/** The cell's BoC in base64 (without index or CRC), serialized at most once per cell. */
export function bocBase64(cell: Cell): string {
  let b = bocs.get(cell);
  if (b === undefined) {
    b = cell.toBoc({ idx: false, crc32: false }).toString("base64");
    bocs.set(cell, b);
  }
  return b;
}
