// TON DNS message bodies (message-schemes.tlb "dns.xml"): record changes and the .ton auctions.
import type { Builder, Cell, Slice } from "@ton/core";
import { loadOpcode, loadQueryIdOnly, storeQueryIdOnly } from "../tlb.js";

export const DNS_OPCODES = {
  change_dns_record: 0x4eb1f0f9,
  dns_balance_release: 0x4ed14b65,
  process_governance_decision: 0x44beae41,
  auction_fill_up: 0x370fec51,
  outbid_notification: 0x557cea20,
} as const;

const OP = DNS_OPCODES;

/**
 * change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:^DNSRecord, or without the value:
 * delete_dns_record (same opcode). key is sha256 of the record name ("wallet", "site", ...).
 */
export interface ChangeDnsRecord {
  queryId: bigint;
  key: Buffer;
  /** The record (loadDnsRecord reads it); null: the record is deleted. */
  value: Cell | null;
}

export function loadChangeDnsRecord(s: Slice): ChangeDnsRecord {
  loadOpcode(s, OP.change_dns_record, "change_dns_record");
  return { queryId: s.loadUintBig(64), key: s.loadBuffer(32), value: s.remainingRefs > 0 ? s.loadRef() : null };
}

export function storeChangeDnsRecord(src: ChangeDnsRecord): (b: Builder) => void {
  return (b) => {
    b.storeUint(OP.change_dns_record, 32).storeUint(src.queryId, 64).storeBuffer(src.key, 32);
    if (src.value) b.storeRef(src.value);
  };
}

/** A DNS body of one query_id: dns_balance_release, process_governance_decision, auction_fill_up, outbid_notification. */
export interface DnsQuery {
  queryId: bigint;
}

export const loadDnsBalanceRelease = (s: Slice): DnsQuery => ({ queryId: loadQueryIdOnly(s, OP.dns_balance_release, "dns_balance_release") });
export const storeDnsBalanceRelease = (src: DnsQuery) => storeQueryIdOnly(OP.dns_balance_release, src.queryId);
export const loadProcessGovernanceDecision = (s: Slice): DnsQuery => ({ queryId: loadQueryIdOnly(s, OP.process_governance_decision, "process_governance_decision") });
export const storeProcessGovernanceDecision = (src: DnsQuery) => storeQueryIdOnly(OP.process_governance_decision, src.queryId);
export const loadAuctionFillUp = (s: Slice): DnsQuery => ({ queryId: loadQueryIdOnly(s, OP.auction_fill_up, "auction_fill_up") });
export const storeAuctionFillUp = (src: DnsQuery) => storeQueryIdOnly(OP.auction_fill_up, src.queryId);
export const loadOutbidNotification = (s: Slice): DnsQuery => ({ queryId: loadQueryIdOnly(s, OP.outbid_notification, "outbid_notification") });
export const storeOutbidNotification = (src: DnsQuery) => storeQueryIdOnly(OP.outbid_notification, src.queryId);
