// The TON DNS bodies the DNS matchers read, in the shape of toncenter's `change_dns_record_data`
// (indexer/events/blocks/messages/dns.py and the serializer's fill functions): the key as hex, the
// record's schema name and its value (an address raw, ADNL and bag ids as hex, a text as text).
import type { Cell } from "@ton/core";
import { DNS_OPCODES, DNS_RECORD_TAGS, loadDnsText } from "@tongate/contracts";
import { rawAddress } from "../../engine/cells.js";
import { opBody } from "../nft/bodies.js";

export type DnsValueSchema = "DNSNextResolver" | "DNSAdnlAddress" | "DNSSmcAddress" | "DNSStorageAddress" | "DNSText" | "Unknown";

export interface DnsRecordValue {
  schema: DnsValueSchema;
  /** null for an unknown schema */
  value: string | null;
  /** ADNL and smart-contract records carry flags */
  flags: number | null;
}

export interface ChangeDnsRecordBody {
  queryId: bigint;
  /** sha256 of the record name, hex */
  key: string;
  /** null: the record is deleted (or, for the zero key, the domain renewed) */
  record: DnsRecordValue | null;
}

// toncenter decodes a text record strictly: one that is not UTF-8 is not read
const utf8 = new TextDecoder("utf-8", { fatal: true });

function readRecord(c: Cell): DnsRecordValue {
  const s = c.beginParse();
  const tag = s.loadUint(16);
  switch (tag) {
    case DNS_RECORD_TAGS.dns_next_resolver:
      return { schema: "DNSNextResolver", value: rawAddress(s.loadAddress()), flags: null };
    case DNS_RECORD_TAGS.dns_adnl_address:
      return { schema: "DNSAdnlAddress", value: s.loadBuffer(32).toString("hex"), flags: s.loadUint(8) };
    case DNS_RECORD_TAGS.dns_smc_address:
      return { schema: "DNSSmcAddress", value: rawAddress(s.loadAddress()), flags: s.loadUint(8) };
    case DNS_RECORD_TAGS.dns_storage_address:
      return { schema: "DNSStorageAddress", value: s.loadBuffer(32).toString("hex"), flags: null };
    case DNS_RECORD_TAGS.dns_text:
      return { schema: "DNSText", value: utf8.decode(Buffer.concat(loadDnsText(s))), flags: null };
    default:
      return { schema: "Unknown", value: null, flags: null };
  }
}

/** change_dns_record#4eb1f0f9 query_id:uint64 key:bits256 value:(Maybe-by-ref ^DNSRecord). */
export function readChangeDnsRecord(msg: { body: string }): ChangeDnsRecordBody {
  const s = opBody(msg, DNS_OPCODES.change_dns_record);
  const queryId = s.loadUintBig(64);
  const key = s.loadBuffer(32).toString("hex");
  return { queryId, key, record: s.remainingRefs > 0 ? readRecord(s.loadRef()) : null };
}

/** The zero key: change_dns_record without a value on it renews the domain instead of deleting a record. */
export const RENEW_KEY = "00".repeat(32);
