// TEP-74 jettons (and pTON): transfer, burn, mint.
import type { BlockMatcher } from "../../engine/matcher.js";
import type { MatcherSet } from "../registry.js";
import { JettonBurnBlockMatcher } from "./burn.js";
import { JettonMintBlockMatcher } from "./mint.js";
import { FallbackJettonTransferBlockMatcher, JettonTransferBlockMatcher, PTonTransferMatcher } from "./transfer.js";

export { JettonBurnBlock, type JettonBurnData } from "./burn.js";
export { JettonMintBlock, type JettonMintData } from "./mint.js";
export { JettonTransferBlock, PTON_MASTERS, readTransferRequest, type JettonTransferData } from "./transfer.js";
export { readForwardPayload, commentOf, type ForwardPayload } from "./payload.js";

export const matchers: MatcherSet = {
  JettonTransferBlockMatcher: new JettonTransferBlockMatcher(),
  PTonTransferMatcher: new PTonTransferMatcher(),
  JettonBurnBlockMatcher: new JettonBurnBlockMatcher(),
  JettonMintBlockMatcher: new JettonMintBlockMatcher(),
};

export const failedExternalMatchers: BlockMatcher[] = [new FallbackJettonTransferBlockMatcher()];
