// Passes over the finished graph before serialisation (toncenter's trace_post_processors).
import { ContractDeployBlock } from "./basic.js";
import type { Block } from "./block.js";
import type { MatchContext } from "./context.js";

export type TracePostProcessor = (blocks: Block[], ctx: MatchContext) => Block[];

/** Contract deploys found inside any block become top-level actions of their own. */
export function unwindDeployments(blocks: Block[]): Block[] {
  const visited = new Set<Block>();
  const out = [...blocks];
  for (const block of blocks) {
    const queue = [...block.children];
    for (let i = 0; i < queue.length; i++) {
      const child = queue[i];
      if (child instanceof ContractDeployBlock && !visited.has(child)) out.push(child);
      else queue.push(...child.children);
      visited.add(child);
    }
  }
  return out;
}

/**
 * The passes in toncenter's order: the families' own (matchers/order.ts POST_PROCESSORS, e.g.
 * DeDust's deposit legs) first, then this one.
 */
export const TRACE_POST_PROCESSORS: TracePostProcessor[] = [unwindDeployments];
