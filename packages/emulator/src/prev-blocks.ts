// The c7 prev_blocks_info entry, serialized once per PrevBlocksInfo: every masterchain block runs its
// tick and tock transactions with it, and get-methods read it (PREVMCBLOCKS, PREVKEYBLOCK).
import { beginCell, serializeTuple, type Cell, type TupleItem } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";

const prevBlocksBocs = new WeakMap<PrevBlocksInfo, string>();

/**
 * The c7 prev_blocks_info entry, [last_mc_blocks, prev_key_block, last_mc_blocks_100?] of
 * BlockIdExt tuples, as a VmStackValue BoC. Computed once per PrevBlocksInfo object (one per
 * block: every masterchain block runs tick and tock transactions with it), from the BlockIdExt
 * entries of earlier blocks (a block's entry never changes, only which blocks are listed).
 */
export function prevBlocksInfoBoc(info: PrevBlocksInfo): string {
  let b = prevBlocksBocs.get(info);
  if (b !== undefined) return b;
  const items = [tupleValue(info.lastMcBlocks.map(blockIdValue)), blockIdValue(info.prevKeyBlock)];
  if (info.lastMcBlocks100) items.push(tupleValue(info.lastMcBlocks100.map(blockIdValue)));
  b = tupleValue(items).toBoc().toString("base64");
  prevBlocksBocs.set(info, b);
  return b;
}

/** BlockIdExt entries as VmStackValue cells, by block (the most recent ones). */
const blockIdValues = new Map<string, Cell>();

/** A BlockIdExt as c7 holds it: the tuple [workchain, shard, seqno, root_hash, file_hash] of integers. */
function blockIdValue(x: PrevBlocksInfo["prevKeyBlock"]): Cell {
  const key = `${x.workchain}:${x.shard}:${x.seqno}:${x.rootHash.toString("hex")}`;
  let c = blockIdValues.get(key);
  if (c) return c;
  const ints: TupleItem[] = [x.workchain, x.shard, x.seqno, BigInt("0x" + x.rootHash.toString("hex")), BigInt("0x" + x.fileHash.toString("hex"))].map((v) => ({ type: "int", value: BigInt(v) }));
  // serializeTuple writes a VmStack (depth, then entries); its one entry is the tuple.
  const stack = serializeTuple([{ type: "tuple", items: ints }]).beginParse();
  stack.skip(24);
  stack.loadRef(); // the rest of the stack (empty)
  c = stack.asCell();
  blockIdValues.set(key, c);
  // Enough for last_mc_blocks_100 and the key block; the oldest entries leave first.
  if (blockIdValues.size > 256) blockIdValues.delete(blockIdValues.keys().next().value!);
  return c;
}

/**
 * vm_stk_tuple#07 len:(## 16) data:(VmTuple len) of entries already serialized, laid out as
 * @ton/core's serializeTuple lays them (vm_tuple_tcons: the first n-1 entries by reference, the
 * last one in tail).
 */
function tupleValue(entries: Cell[]): Cell {
  let head: Cell | null = null;
  let tail: Cell | null = null;
  for (const [i, entry] of entries.entries()) {
    [head, tail] = [tail, head];
    if (i > 1) head = beginCell().storeRef(tail!).storeRef(head!).endCell();
    tail = entry;
  }
  const b = beginCell().storeUint(0x07, 8).storeUint(entries.length, 16);
  if (head) b.storeRef(head);
  if (tail) b.storeRef(tail);
  return b.endCell();
}
