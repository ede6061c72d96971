// The message cells of a Transaction cell: `^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]`.
import { Dictionary, type Cell } from "@ton/core";

export function transactionMessageCells(tx: Cell): { inMsg: Cell | null; outMsgs: Cell[] } {
  const s = tx.refs[0]!.beginParse();
  const inMsg = s.loadMaybeRef();
  const outs = s.loadDict(Dictionary.Keys.Uint(15), { serialize: () => undefined, parse: (v) => v.loadRef() });
  return { inMsg, outMsgs: [...outs.values()] };
}
