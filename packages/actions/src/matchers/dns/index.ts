// The dns family's matchers (.ton domains: record changes, renewals, auctions), by toncenter's matcher name.
import type { MatcherSet } from "../registry.js";
import { DnsPurchaseMatcher, DnsReleaseMatcher } from "./auction.js";
import { ChangeDnsRecordMatcher } from "./records.js";

export const matchers: MatcherSet = {
  DnsReleaseMatcher: new DnsReleaseMatcher(),
  DnsPurchaseMatcher: new DnsPurchaseMatcher(),
  ChangeDnsRecordMatcher: new ChangeDnsRecordMatcher(),
};
