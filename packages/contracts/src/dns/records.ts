// TON DNS records (DNSRecord of block.tlb, as in toncenter's schemes): what change_dns_record sets
// and dnsresolve returns.
import type { Address, Builder, Slice } from "@ton/core";
import { beginCell } from "@ton/core";
import { ContractDataError } from "../errors.js";

/** text$_ chunks:(## 8) rest:(TextChunks chunks): each chunk len:(## 8) data:(bits len*8), the next one in a ref. */
export function loadDnsText(s: Slice): Buffer[] {
  const n = s.loadUint(8);
  const chunks: Buffer[] = [];
  for (let i = 0, cur = s; i < n; i++) {
    chunks.push(cur.loadBuffer(cur.loadUint(8)));
    if (i < n - 1) cur = cur.loadRef().beginParse();
  }
  return chunks;
}

export function storeDnsText(chunks: Buffer[]): (b: Builder) => void {
  const chunk = (i: number): Builder => {
    const c = beginCell().storeUint(chunks[i]!.length, 8).storeBuffer(chunks[i]!);
    return i < chunks.length - 1 ? c.storeRef(chunk(i + 1)) : c;
  };
  return (b) => {
    b.storeUint(chunks.length, 8);
    if (chunks.length) b.storeBuilder(chunk(0));
  };
}

/** SmcCapability: cap_method_seqno#5371, cap_method_pubkey#71f4, cap_is_wallet#2177, cap_name#ff name:Text. */
export type SmcCapability = { type: "cap_method_seqno" | "cap_method_pubkey" | "cap_is_wallet" } | { type: "cap_name"; name: Buffer[] };

const CAPS = { cap_method_seqno: 0x5371, cap_method_pubkey: 0x71f4, cap_is_wallet: 0x2177 } as const;

function loadCapability(s: Slice): SmcCapability {
  if (s.preloadUint(8) === 0xff) {
    s.skip(8);
    return { type: "cap_name", name: loadDnsText(s) };
  }
  const tag = s.loadUint(16);
  const found = (Object.keys(CAPS) as (keyof typeof CAPS)[]).find((k) => CAPS[k] === tag);
  if (!found) throw new ContractDataError(`SmcCapability: unknown tag 0x${tag.toString(16)}`);
  return { type: found };
}

const storeCapability = (c: SmcCapability) => (b: Builder) => (c.type === "cap_name" ? b.storeUint(0xff, 8).store(storeDnsText(c.name)) : b.storeUint(CAPS[c.type], 16));

export const DNS_RECORD_TAGS = {
  dns_text: 0x1eda,
  dns_next_resolver: 0xba93,
  dns_adnl_address: 0xad01,
  dns_smc_address: 0x9fd3,
  dns_storage_address: 0x7473,
} as const;

const T = DNS_RECORD_TAGS;

export type DnsRecord =
  /** The text's chunks (concatenated, the text's bytes). */
  | { type: "dns_text"; chunks: Buffer[] }
  | { type: "dns_next_resolver"; resolver: Address }
  /** flags bit 0: a protocol list follows (proto_http#4854 is the only protocol). */
  | { type: "dns_adnl_address"; adnlAddress: Buffer; flags: number; protocols?: "http"[] }
  /** flags bit 0: a capability list follows. */
  | { type: "dns_smc_address"; smcAddress: Address; flags: number; capabilities?: SmcCapability[] }
  | { type: "dns_storage_address"; bagId: Buffer };

/** A ProtoList or SmcCapList: list_next$1 item next, ending in list_nil$0. */
function loadList<T>(s: Slice, item: (s: Slice) => T): T[] {
  const out: T[] = [];
  while (s.loadBit()) out.push(item(s));
  return out;
}

const storeList =
  <T>(items: T[], item: (x: T) => (b: Builder) => void) =>
  (b: Builder) => {
    for (const x of items) b.storeBit(1).store(item(x));
    b.storeBit(0);
  };

export function loadDnsRecord(s: Slice): DnsRecord {
  const tag = s.loadUint(16);
  switch (tag) {
    case T.dns_text:
      return { type: "dns_text", chunks: loadDnsText(s) };
    case T.dns_next_resolver:
      return { type: "dns_next_resolver", resolver: s.loadAddress() };
    case T.dns_adnl_address: {
      const [adnlAddress, flags] = [s.loadBuffer(32), s.loadUint(8)];
      if (!(flags & 1)) return { type: "dns_adnl_address", adnlAddress, flags };
      const protocols = loadList(s, (p): "http" => {
        const proto = p.loadUint(16);
        if (proto !== 0x4854) throw new ContractDataError(`Protocol: unknown tag 0x${proto.toString(16)}`);
        return "http";
      });
      return { type: "dns_adnl_address", adnlAddress, flags, protocols };
    }
    case T.dns_smc_address: {
      const [smcAddress, flags] = [s.loadAddress(), s.loadUint(8)];
      if (!(flags & 1)) return { type: "dns_smc_address", smcAddress, flags };
      return { type: "dns_smc_address", smcAddress, flags, capabilities: loadList(s, loadCapability) };
    }
    case T.dns_storage_address:
      return { type: "dns_storage_address", bagId: s.loadBuffer(32) };
    default:
      throw new ContractDataError(`DNSRecord: unknown tag 0x${tag.toString(16)}`);
  }
}

export function storeDnsRecord(r: DnsRecord): (b: Builder) => void {
  return (b) => {
    b.storeUint(T[r.type], 16);
    switch (r.type) {
      case "dns_text":
        b.store(storeDnsText(r.chunks));
        return;
      case "dns_next_resolver":
        b.storeAddress(r.resolver);
        return;
      case "dns_adnl_address":
        b.storeBuffer(r.adnlAddress, 32).storeUint(r.flags, 8);
        if (r.flags & 1) b.store(storeList(r.protocols ?? [], () => (p: Builder) => p.storeUint(0x4854, 16)));
        return;
      case "dns_smc_address":
        b.storeAddress(r.smcAddress).storeUint(r.flags, 8);
        if (r.flags & 1) b.store(storeList(r.capabilities ?? [], storeCapability));
        return;
      case "dns_storage_address":
        b.storeBuffer(r.bagId, 32);
    }
  };
}
