// A get-method's result stack, and a reader of it whose errors say which value did not fit.
import { Address, type Cell, type TupleItem } from "@ton/core";
import { ContractDataError } from "./errors.js";

/** A result stack value: a TupleItem, or one tonlib cannot represent (continuation, builder). */
export type StackItem = Exclude<TupleItem, { type: "tuple" }> | { type: "tuple"; items: StackItem[] } | { type: "unsupported" };

export class StackReader {
  constructor(
    private readonly getMethod: string,
    private readonly items: StackItem[],
    size: number,
  ) {
    if (items.length < size) throw new ContractDataError(`${getMethod} returned ${items.length} values, ${size} expected`);
  }

  private item(i: number, expected: string, ok: (t: StackItem["type"]) => boolean): StackItem {
    const item = this.items[i]!;
    if (!ok(item.type)) throw new ContractDataError(`${this.getMethod} value ${i + 1} is a ${item.type}, ${expected} expected`);
    return item;
  }

  int(i: number): bigint {
    return (this.item(i, "an integer", (t) => t === "int") as { value: bigint }).value;
  }

  cell(i: number): Cell {
    return (this.item(i, "a cell", (t) => t === "cell" || t === "slice") as { cell: Cell }).cell;
  }

  /** A cell or null. */
  optionalCell(i: number): Cell | null {
    return this.items[i]!.type === "null" ? null : this.cell(i);
  }

  /** A slice holding a MsgAddress: null for addr_none (or a null entry); only addr_std is accepted. */
  address(i: number): Address | null {
    if (this.items[i]!.type === "null") return null;
    const cell = this.item(i, "a slice with an address", (t) => t === "slice" || t === "cell") as { cell: Cell };
    let a;
    try {
      a = cell.cell.beginParse().loadAddressAny();
    } catch (e) {
      throw new ContractDataError(`${this.getMethod} value ${i + 1} is not an address: ${(e as Error).message}`);
    }
    if (a !== null && !Address.isAddress(a)) throw new ContractDataError(`${this.getMethod} value ${i + 1} is not a standard address`);
    return a;
  }
}
