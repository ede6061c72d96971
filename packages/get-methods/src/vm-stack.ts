// A get-method's result (the emulator's VmStack cell) read into StackItems, bounded: the entries
// of the stack and their cells and slices. Tuples are not expanded (no standard reader needs
// their elements, and tuples sharing their elements expand exponentially): they read as
// "unsupported", as do builders and continuations.
import { Cell, type Slice } from "@ton/core";
import { ContractDataError, type StackItem } from "@tongate/contracts";

/** More entries than this in a result: not one of the standard get-methods'. */
export const MAX_RESULT_ENTRIES = 255;

/** The entries of a VmStack cell, bottom first (as @ton/core's parseTuple gives them). */
export function readVmStack(stack: Cell): StackItem[] {
  let s = stack.beginParse(true);
  const depth = s.loadUint(24); // vm_stack#_ depth:(## 24) stack:(VmStackList depth)
  if (depth > MAX_RESULT_ENTRIES) throw new ContractDataError(`the result has ${depth} entries, more than the ${MAX_RESULT_ENTRIES} read`);
  const topFirst: StackItem[] = [];
  for (let i = 0; i < depth; i++) {
    // vm_stk_cons#_ rest:^(VmStackList n) tos:VmStackValue
    const rest = s.loadRef();
    topFirst.push(readValue(s));
    s = rest.beginParse(true);
  }
  return topFirst.reverse();
}

function readValue(s: Slice): StackItem {
  const tag = s.loadUint(8);
  switch (tag) {
    case 0x00:
      return { type: "null" };
    case 0x01:
      return { type: "int", value: s.loadIntBig(64) };
    case 0x02:
      // vm_stk_int#0201_ value:int257, vm_stk_nan#02ff
      return s.loadUint(7) === 0 ? { type: "int", value: s.loadIntBig(257) } : { type: "nan" };
    case 0x03:
      return { type: "cell", cell: s.loadRef() };
    case 0x04:
      return { type: "slice", cell: readCellSlice(s) };
    default:
      // builders (0x05), continuations (0x06), tuples (0x07)
      return { type: "unsupported" };
  }
}

/** VmCellSlice: cell:^Cell st_bits:(## 10) end_bits:(## 10) st_ref:(#<= 4) end_ref:(#<= 4), as a cell of its bits and references. */
function readCellSlice(s: Slice): Cell {
  const cell = s.loadRef();
  const [stBits, endBits, stRef, endRef] = [s.loadUint(10), s.loadUint(10), s.loadUint(3), s.loadUint(3)];
  if (stBits > endBits || endBits > cell.bits.length || stRef > endRef || endRef > cell.refs.length) throw new ContractDataError("a slice in the result is out of its cell's bounds");
  return new Cell({ bits: cell.bits.substring(stBits, endBits - stBits), refs: cell.refs.slice(stRef, endRef) });
}
