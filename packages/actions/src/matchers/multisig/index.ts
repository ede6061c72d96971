// The multisig family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { MultisigApproveBlockMatcher, MultisigCreateOrderBlockMatcher, MultisigExecuteBlockMatcher } from "./multisig.js";

export const matchers: MatcherSet = {
  MultisigCreateOrderBlockMatcher: new MultisigCreateOrderBlockMatcher(),
  MultisigApproveBlockMatcher: new MultisigApproveBlockMatcher(),
  MultisigExecuteBlockMatcher: new MultisigExecuteBlockMatcher(),
};
