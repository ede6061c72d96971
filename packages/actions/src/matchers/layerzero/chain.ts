// The shape every LayerZero flow has: a run of contract calls, each made by the one before
// (endpoint → channel → message library → ULN …), each labeled so that buildBlock finds it.
import { LAYERZERO_OPCODES } from "@tongate/contracts";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, labeled, type MatcherOptions } from "../../engine/matcher.js";

export type CallStep = readonly [label: string, opcode: number];

export const optionalTransfer = (label: string): BlockMatcher => labeled(label, new BlockTypeMatcher("ton_transfer", { optional: true }));
export const optionalEvent = (label: string): BlockMatcher => labeled(label, new ContractMatcher(LAYERZERO_OPCODES.event, { optional: true }));

/** The steps as one matcher, each step the only child of the one before; the last step takes `last`. */
export function callChain(steps: readonly [CallStep, ...CallStep[]], last: MatcherOptions): BlockMatcher {
  const [label, opcode] = steps[steps.length - 1];
  let matcher = labeled(label, new ContractMatcher(opcode, last));
  for (let i = steps.length - 2; i >= 0; i--) {
    const [l, op] = steps[i];
    matcher = labeled(l, new ContractMatcher(op, { child: matcher }));
  }
  return matcher;
}

/** A connection's last step: the event it logs, then its (optional) callback with the excesses. */
export function eventThenCallback(callbackLabel: string, callbackOpcode: number): MatcherOptions {
  return {
    children: [optionalEvent("lz_event"), labeled(callbackLabel, new ContractMatcher(callbackOpcode, { optional: true, child: optionalTransfer("excesses") }))],
  };
}
