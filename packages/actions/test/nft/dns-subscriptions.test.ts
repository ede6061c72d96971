// .ton DNS and wallet-plugin subscription actions on traces built from real bodies: record changes,
// deletions and renewals, a domain's auction (bid, outbid, purchase, release), subscribe and
// unsubscribe — the types toncenter's fixture traces do not cover.
import { createHash } from "node:crypto";
import { Address, beginCell, type Builder, type Cell } from "@ton/core";
import { classifyTrace, type ActionRow, type ContractFacts } from "@tongate/actions";
import { storeChangeDnsRecord, storeDnsRecord, storePaymentRequest, type DnsRecord } from "@tongate/contracts";
import { describe, expect, it } from "vitest";
import { addr, TraceBuilder } from "./trace-builder.js";

const cellOf = (f: (b: Builder) => void): Cell => beginCell().store(f).endCell();
const DNS_COLLECTION = "0:B774D95EB20543F186C06B371AB88AD704F7E256130CAF96189368A7D0CB6CCF";
const OWNER = addr(1);
const DOMAIN = addr(2);
const BIDDER = addr(3);

const domainFacts: ContractFacts = { nftItem: { address: DOMAIN, init: true, index: 123n, collectionAddress: DNS_COLLECTION, ownerAddress: OWNER, content: { domain: "example" } } };
const key = (name: string) => createHash("sha256").update(name).digest();

function only(actions: ActionRow[], type: string): ActionRow {
  const found = actions.filter((a) => a.type === type);
  expect(found, `${type} among ${actions.map((a) => a.type).join(", ")}`).toHaveLength(1);
  return found[0];
}

function changeRecord(k: Buffer, value: Cell | null): ActionRow[] {
  const t = new TraceBuilder().know(DOMAIN, domainFacts);
  const wallet = t.external(OWNER);
  t.send(wallet, DOMAIN, { body: cellOf(storeChangeDnsRecord({ queryId: 1n, key: k, value })) });
  const { trace, lookup } = t.build();
  return classifyTrace(trace, lookup).actions;
}

const record = (r: DnsRecord) => cellOf(storeDnsRecord(r));

describe("dns actions", () => {
  it("change_dns with a text record: the key as hex, the schema and the text", () => {
    const a = only(changeRecord(key("site"), record({ type: "dns_text", chunks: [Buffer.from("hello")] })), "change_dns");
    expect(a).toMatchObject({ source: OWNER, destination: DOMAIN, asset: DNS_COLLECTION });
    expect(a.change_dns_record_data).toEqual({ value_schema: "DNSText", flags: null, address: null, key: key("site").toString("hex"), value: "hello" });
  });

  it("change_dns with a wallet record: the address raw, with its flags", () => {
    const a = only(changeRecord(key("wallet"), record({ type: "dns_smc_address", smcAddress: Address.parse(BIDDER), flags: 0 })), "change_dns");
    expect(a.change_dns_record_data).toMatchObject({ value_schema: "DNSSmcAddress", value: BIDDER, flags: 0 });
  });

  it("change_dns with an ADNL record: the address as hex", () => {
    const adnl = Buffer.alloc(32, 0xab);
    const a = only(changeRecord(key("site"), record({ type: "dns_adnl_address", adnlAddress: adnl, flags: 0 })), "change_dns");
    expect(a.change_dns_record_data).toMatchObject({ value_schema: "DNSAdnlAddress", value: adnl.toString("hex"), flags: 0 });
  });

  it("delete_dns: no record on a key", () => {
    const a = only(changeRecord(key("site"), null), "delete_dns");
    expect(a).toMatchObject({ source: OWNER, destination: DOMAIN, asset: DNS_COLLECTION });
    expect(a.change_dns_record_data).toEqual({ value_schema: null, flags: null, address: null, key: key("site").toString("hex") });
  });

  it("renew_dns: no record on the zero key", () => {
    const actions = changeRecord(Buffer.alloc(32), null);
    expect(only(actions, "renew_dns")).toMatchObject({ source: OWNER, destination: DOMAIN, asset: DNS_COLLECTION });
    expect(actions.map((a) => a.type)).not.toContain("delete_dns");
  });

  it("dns_release: dns_balance_release to the domain", () => {
    const t = new TraceBuilder().know(DOMAIN, domainFacts);
    const wallet = t.external(OWNER);
    t.send(wallet, DOMAIN, { value: 1_000_000_000n, body: beginCell().storeUint(0x4ed14b65, 32).storeUint(77, 64).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "dns_release");
    expect(a).toMatchObject({ source: OWNER, destination: DOMAIN, asset: DNS_COLLECTION, value: 1_000_000_000n });
    expect(a.nft_transfer_data).toEqual({ query_id: 77n, nft_item_index: 123n });
  });

  it("dns_purchase: the domain's auction_fill_up after the winner's call", () => {
    const t = new TraceBuilder().know(DOMAIN, domainFacts);
    const wallet = t.external(BIDDER);
    const domainTx = t.send(wallet, DOMAIN, { body: beginCell().storeUint(0x12345678, 32).storeUint(0, 64).endCell() });
    t.send(domainTx, DNS_COLLECTION, { value: 20_000_000_000n, body: beginCell().storeUint(0x370fec51, 32).storeUint(5, 64).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "dns_purchase");
    expect(a).toMatchObject({ destination: BIDDER, asset: DNS_COLLECTION, asset_secondary: DOMAIN, source: null });
    expect(a.nft_transfer_data).toMatchObject({ price: 20_000_000_000n, query_id: 5n, nft_item_index: 123n, is_purchase: true });
  });

  it("a bid on a domain counts when it outbids someone (outbid_notification to the previous bidder)", () => {
    const PREVIOUS = addr(4);
    const t = new TraceBuilder().know(DOMAIN, domainFacts);
    const wallet = t.external(BIDDER);
    const domainTx = t.send(wallet, DOMAIN, { value: 30_000_000_000n });
    t.send(domainTx, PREVIOUS, { value: 20_000_000_000n, body: beginCell().storeUint(0x557cea20, 32).storeUint(0, 64).endCell() });
    const { trace, lookup } = t.build();
    const actions = classifyTrace(trace, lookup).actions;
    expect(only(actions, "auction_bid")).toMatchObject({ source: BIDDER, destination: DOMAIN, value: 30_000_000_000n, asset_secondary: DOMAIN, asset: DNS_COLLECTION });
    expect(only(actions, "auction_outbid")).toMatchObject({ source: DOMAIN, destination: PREVIOUS, source_secondary: BIDDER, amount: 20_000_000_000n });
  });

  it("TON sent to a domain that outbids nobody is a plain transfer", () => {
    const t = new TraceBuilder().know(DOMAIN, domainFacts);
    t.send(t.external(OWNER), DOMAIN, { value: 1_000_000_000n });
    const { trace, lookup } = t.build();
    expect(classifyTrace(trace, lookup).actions.map((a) => a.type)).toEqual(["ton_transfer"]);
  });
});

describe("subscription actions", () => {
  const WALLET = addr(10);
  const PLUGIN = addr(11);
  const BENEFICIARY = addr(12);

  it("subscribe: the plugin's payment request, the wallet's payment, the payment to the beneficiary", () => {
    const t = new TraceBuilder();
    const plugin = t.external(PLUGIN);
    const walletTx = t.send(plugin, WALLET, { value: 0n, body: cellOf(storePaymentRequest({ queryId: 1n, amount: { coins: 1_500_000_000n } })) });
    const pluginTx = t.send(walletTx, PLUGIN, { value: 1_500_000_000n, body: beginCell().storeUint(0xf06c7567, 32).storeUint(1, 64).endCell() });
    t.send(pluginTx, BENEFICIARY, { value: 1_490_000_000n, body: beginCell().storeUint(0x73756273, 32).storeUint(1, 64).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "subscribe");
    expect(a).toMatchObject({ source: WALLET, destination: BENEFICIARY, destination_secondary: PLUGIN, amount: 1_500_000_000n, success: true });
    expect(new Set(a.accounts)).toEqual(new Set([PLUGIN, WALLET, BENEFICIARY]));
  });

  it("unsubscribe: wallet_plugin_destruct from the wallet to its plugin", () => {
    const t = new TraceBuilder();
    const wallet = t.external(WALLET);
    t.send(wallet, PLUGIN, { body: beginCell().storeUint(0x64737472, 32).storeUint(2, 64).endCell() });
    const { trace, lookup } = t.build();
    const a = only(classifyTrace(trace, lookup).actions, "unsubscribe");
    expect(a).toMatchObject({ source: WALLET, destination: null, destination_secondary: PLUGIN });
  });
});
