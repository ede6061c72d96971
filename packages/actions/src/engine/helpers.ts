// Finding blocks among what a matcher matched (toncenter's block_utils).
import { CallContractBlock } from "./basic.js";
import type { Block } from "./block.js";
import { LabelBlock } from "./matcher.js";
import { ValueFlow } from "./value-flow.js";

/** Whether a block is a contract call with this opcode. */
export function isCall(block: Block, opcode: number): block is CallContractBlock {
  return block instanceof CallContractBlock && block.opcode === opcode;
}

/** The contract calls among `blocks` with the opcode (or one of the opcodes). */
export function findCallContracts(blocks: readonly Block[], opcode: number | ReadonlySet<number>): CallContractBlock[] {
  const match = typeof opcode === "number" ? (o: number | null) => o === opcode : (o: number | null) => o !== null && opcode.has(o);
  return blocks.filter((b): b is CallContractBlock => b instanceof CallContractBlock && match(b.opcode));
}

export function findCallContract(blocks: readonly Block[], opcode: number): CallContractBlock | null {
  for (const b of blocks) if (b instanceof CallContractBlock && b.opcode === opcode) return b;
  return null;
}

type BlockClass<T extends Block> = abstract new (...args: never[]) => T;

/** The block labelled `label` (see labeled()), if it is a `type`. */
export function getLabeled<T extends Block>(label: string, blocks: readonly Block[], type: BlockClass<T>): T | null {
  for (const b of blocks) {
    if (b instanceof LabelBlock && b.label === label) {
      const inner = b.block;
      if (inner instanceof type) return inner;
    }
  }
  return null;
}

export function getMultipleLabeled<T extends Block>(label: string, blocks: readonly Block[], type: BlockClass<T>): T[] {
  const out: T[] = [];
  for (const b of blocks) {
    if (b instanceof LabelBlock && b.label === label) {
      const inner = b.block;
      if (inner instanceof type) out.push(inner);
    }
  }
  return out;
}

export function mergeFlows(blocks: readonly Block[]): ValueFlow {
  const f = new ValueFlow();
  for (const b of blocks) f.merge(b.valueFlow);
  return f;
}

/** Orders blocks earliest first (by minLt), as toncenter's get_labeled_sorted does. */
export function byMinLt(a: Block, b: Block): number {
  return a.minLt < b.minLt ? -1 : a.minLt > b.minLt ? 1 : 0;
}
