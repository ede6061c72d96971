import type { ActionRow, Classification } from "./action.js";
import { extraAddressesOf } from "./address-selectors.js";
import { initBlocks } from "./engine/basic.js";
import { Block } from "./engine/block.js";
import { MatchContext } from "./engine/context.js";
import { ghostNodesOf } from "./engine/ghosts.js";
import { toTree } from "./engine/node.js";
import { TRACE_POST_PROCESSORS } from "./engine/post-process.js";
import { blockToAction, isPublished, serializeBlocks, unknownAction } from "./engine/serialize.js";
import type { InterfaceLookup } from "./interfaces.js";
import { MATCHERS, MATCHERS_FOR_FAILED_EXTERNALS, POST_PROCESSORS } from "./matchers/order.js";
import type { TraceInput } from "./trace.js";

export interface ClassifyOptions {
  /** where a matcher's failed build is reported (off by default: a non-match is normal) */
  debug?: (msg: string) => void;
}

/** Runs every matcher, in order, over the top-level blocks of the graph. */
function runMatchers(root: Block, matchers: readonly { tryBuild: (b: Block, ctx: MatchContext) => unknown }[], ctx: MatchContext): void {
  for (const m of matchers) {
    root.bfs((b) => {
      if (b.parent === null) m.tryBuild(b, ctx);
    });
  }
}

function classifyBlocks(trace: TraceInput, ctx: MatchContext): { actions: ActionRow[]; broken: boolean } {
  const node = toTree(trace.transactions);
  const root = new Block("root", []);
  root.connect(initBlocks(node));
  runMatchers(root, MATCHERS, ctx);
  let blocks = root.bfsList();
  for (const p of [...POST_PROCESSORS, ...TRACE_POST_PROCESSORS]) blocks = p(blocks, ctx);
  return serializeBlocks(blocks, trace);
}

/**
 * A trace with no action of its own may still be a wallet external that failed: its body says
 * what the user meant to send (toncenter's try_classify_unknown_trace).
 */
function classifyFailedExternal(trace: TraceInput, ctx: MatchContext): ActionRow[] {
  const node = toTree(trace.transactions);
  if (node.children.length !== 0 || node.message === null || node.message.source !== null) return [];
  node.failed = true;
  for (const ghost of ghostNodesOf(node)) node.addChild(ghost);
  const root = new Block("root", []);
  const top = initBlocks(node);
  root.connect(top);
  if (top.next.length === 0) return [];
  runMatchers(root, MATCHERS_FOR_FAILED_EXTERNALS, ctx);
  let blocks = root.bfsList();
  for (const p of [...POST_PROCESSORS, ...TRACE_POST_PROCESSORS]) blocks = p(blocks, ctx);
  const out: ActionRow[] = [];
  for (const b of blocks) if (isPublished(b)) out.push(blockToAction(b, trace));
  return out;
}

/**
 * A trace's actions. Pure: the same trace and facts give the same actions (ids included), so
 * classifying again is idempotent. Never throws: a trace the classifier fails on gives one
 * `unknown` action and state "failed".
 */
export function classifyTrace(trace: TraceInput, facts: InterfaceLookup, options: ClassifyOptions = {}): Classification {
  const ctx = new MatchContext(facts, options.debug);
  try {
    if (trace.transactions.length === 0) return { state: "ok", actions: [] };
    // a lone tick-tock is the chain's housekeeping, not anyone's action
    if (trace.transactions.length === 1 && trace.transactions[0].descr === "tick_tock") return { state: "ok", actions: [] };
    const { actions, broken } = classifyBlocks(trace, ctx);
    if (actions.length > 0) return { state: broken ? "broken" : "ok", actions };
    let fallback: ActionRow[];
    try {
      fallback = classifyFailedExternal(trace, ctx);
    } catch {
      fallback = [];
    }
    if (fallback.length === 0) fallback = [unknownAction(trace)];
    return { state: broken ? "broken" : "ok", actions: fallback };
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    try {
      return { state: "failed", actions: [unknownAction(trace)], error };
    } catch {
      return { state: "failed", actions: [], error };
    }
  }
}

/** The addresses whose facts the classifier may ask for: the caller gathers them first. */
export function addressesToLookUp(trace: TraceInput): string[] {
  const out = new Set<string>();
  for (const t of trace.transactions) {
    out.add(t.account);
    for (const m of [t.inMsg, ...t.outMsgs]) {
      if (m?.source) out.add(m.source);
      if (m?.destination) out.add(m.destination);
    }
    // and what the messages' bodies name (toncenter's address selectors)
    for (const a of extraAddressesOf(t)) out.add(a);
  }
  return [...out];
}

