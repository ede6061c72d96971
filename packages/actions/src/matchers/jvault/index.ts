// The JVault family's matchers, by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { JVaultClaimBlockMatcher, JVaultStakeBlockMatcher, JVaultUnstakeBlockMatcher, JVaultUnstakeRequestBlockMatcher } from "./jvault.js";

export const matchers: MatcherSet = {
  JVaultStakeBlockMatcher: new JVaultStakeBlockMatcher(),
  JVaultUnstakeBlockMatcher: new JVaultUnstakeBlockMatcher(),
  JVaultClaimBlockMatcher: new JVaultClaimBlockMatcher(),
  JVaultUnstakeRequestBlockMatcher: new JVaultUnstakeRequestBlockMatcher(),
};
