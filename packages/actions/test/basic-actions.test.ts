// The basic and token actions on traces built by hand (what toncenter's fixtures do not cover):
// a bounced transfer, an encrypted comment, deploys, a jetton burn, a tick-tock, extra currencies,
// and the row's JSON storage form.
import { createHash } from "node:crypto";
import { beginCell } from "@ton/core";
import { describe, expect, it } from "vitest";
import { storeJettonBurn, storeJettonBurnNotification, storeExcess } from "@tongate/contracts";
import {
  actionFromJson,
  actionToJson,
  classifyTrace,
  expandActionTypeShortcuts,
  isActionVisible,
  MapInterfaceLookup,
  renderAction,
  type ActionRow,
  type ContractFacts,
} from "@tongate/actions";
import { addr, address, TraceBuilder } from "../../../tests/support/trace-builder.js";

const WALLET = addr(0xa1);
const OTHER = addr(0xb2);
const noFacts = new MapInterfaceLookup(new Map());

const idOf = (msgHash: string, kind: string) => createHash("sha256").update(msgHash + kind).digest("base64");
const only = (actions: ActionRow[], type: string): ActionRow => {
  const found = actions.filter((a) => a.type === type);
  expect(found, `${type} in ${actions.map((a) => a.type).join(", ")}`).toHaveLength(1);
  return found[0];
};

describe("TON transfers", () => {
  it("a transfer the receiver bounced is a failed ton_transfer", () => {
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    const rx = b.send(ext, OTHER, { value: 1_000_000_000n, bounce: true }, { aborted: true, computeExitCode: 9 });
    b.send(rx, WALLET, { value: 990_000_000n, bounced: true, body: beginCell().storeUint(0xffffffff, 32).endCell() });
    const r = classifyTrace(b.build(), noFacts);
    expect(r.state).toBe("ok");
    const t = only(r.actions, "ton_transfer");
    expect(t).toMatchObject({ success: false, source: WALLET, destination: OTHER, value: 1_000_000_000n, ton_transfer_data: { content: null, encrypted: false } });
    expect(t.action_id).toBe(idOf(rx.inMsg!.hash, "ton_transfer"));
    expect(new Set(t.tx_hashes)).toEqual(new Set([rx.hash, ext.hash]));
    expect(renderAction(t)).toMatchObject({ type: "ton_transfer", success: false, details: { value: "1000000000", comment: null, encrypted: false } });
  });

  it("a non-bounceable transfer to an account that cannot run it still arrived", () => {
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    b.send(ext, OTHER, { value: 5n, bounce: false }, { aborted: true, origStatus: "uninit", endStatus: "uninit" });
    expect(only(classifyTrace(b.build(), noFacts).actions, "ton_transfer").success).toBe(true);
  });

  it("an encrypted comment is kept as base64 cipher text", () => {
    const cipher = Buffer.from("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff", "hex");
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    b.send(ext, OTHER, { value: 7n, body: beginCell().storeUint(0x2167da4b, 32).storeBuffer(cipher).endCell() });
    const t = only(classifyTrace(b.build(), noFacts).actions, "ton_transfer");
    expect(t.ton_transfer_data).toEqual({ content: cipher.toString("base64"), encrypted: true });
    expect(renderAction(t).details).toMatchObject({ comment: cipher.toString("base64"), encrypted: true });
  });

  it("a text comment over several cells, with bytes that are not UTF-8", () => {
    const tail = beginCell().storeBuffer(Buffer.from([0x20, 0xff, 0x21])).endCell();
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    b.send(ext, OTHER, { value: 7n, body: beginCell().storeUint(0, 32).storeBuffer(Buffer.from("héllo")).storeRef(tail).endCell() });
    expect(only(classifyTrace(b.build(), noFacts).actions, "ton_transfer").ton_transfer_data).toEqual({ content: "héllo \\xff!", encrypted: false });
  });

  it("extra currencies make the API call it extra_currency_transfer", () => {
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    b.send(ext, OTHER, { value: 1n, extraCurrencies: { "100": "5000" } });
    const t = only(classifyTrace(b.build(), noFacts).actions, "ton_transfer");
    expect(t.value_extra_currencies).toEqual({ "100": "5000" });
    expect(renderAction(t)).toMatchObject({ type: "extra_currency_transfer", details: { value_extra_currencies: { "100": "5000" } } });
  });
});

describe("deploys and calls", () => {
  it("a transfer with a StateInit to an uninitialised account is also a contract_deploy", () => {
    const b = new TraceBuilder();
    const ext = b.external(WALLET);
    const init = beginCell().storeBit(0).storeBit(0).storeMaybeRef(beginCell().storeUint(1, 8).endCell()).storeMaybeRef(null).storeBit(0).endCell();
    const rx = b.send(ext, OTHER, { value: 50_000_000n, init, body: beginCell().storeUint(0x1234, 32).storeUint(0, 64).endCell() }, { origStatus: "uninit", endStatus: "active" });
    const r = classifyTrace(b.build(), noFacts);
    const deploy = only(r.actions, "contract_deploy");
    expect(deploy).toMatchObject({ success: true, source: WALLET, destination: OTHER, value: 50_000_000n, opcode: 0x1234, parent_action_id: null });
    expect(deploy.action_id).toBe(idOf(rx.inMsg!.hash, "contract_deploy"));
    const call = only(r.actions, "call_contract");
    expect(renderAction(call).details).toEqual({ opcode: "0x00001234", source: WALLET, destination: OTHER, value: "50000000", extra_currencies: {} });
    expect(renderAction(deploy).details).toEqual({ opcode: "0x00001234", source: WALLET, destination: OTHER, value: "50000000" });
  });

  it("a wallet's first external deploys it", () => {
    const b = new TraceBuilder();
    const ext = b.external(WALLET, beginCell().storeUint(0, 32).endCell(), { origStatus: "uninit", endStatus: "active" });
    b.send(ext, OTHER, { value: 1n });
    const r = classifyTrace(b.build(), noFacts);
    expect(only(r.actions, "contract_deploy")).toMatchObject({ source: null, destination: WALLET, action_id: idOf(ext.inMsg!.hash, "contract_deploy") });
    only(r.actions, "ton_transfer");
  });

  it("a lone tick-tock is no action; one that sends a message is a tick_tock", () => {
    const lone = new TraceBuilder();
    lone.tickTock(addr(0x55, -1));
    expect(classifyTrace(lone.build(), noFacts)).toEqual({ state: "ok", actions: [] });
    const b = new TraceBuilder();
    const tt = b.tickTock(addr(0x55, -1));
    b.send(tt, addr(0x66, -1), { value: 1n, body: beginCell().storeUint(0x4e73744b, 32).endCell() });
    const r = classifyTrace(b.build(), noFacts);
    expect(only(r.actions, "tick_tock")).toMatchObject({ source: addr(0x55, -1), action_id: idOf(tt.hash, "tick_tock") });
    expect(renderAction(only(r.actions, "tick_tock")).details).toEqual({});
  });
});

describe("jettons", () => {
  const OWNER = addr(0xc1);
  const JWALLET = addr(0xc2);
  const MINTER = addr(0xc3);
  const facts = new MapInterfaceLookup(
    new Map<string, ContractFacts>([[JWALLET, { jettonWallet: { address: JWALLET, owner: OWNER, jetton: MINTER, balance: 0n } }], [OWNER, {}]]),
  );

  it("burn → burn_notification → excess is one jetton_burn", () => {
    const b = new TraceBuilder();
    const ext = b.external(OWNER);
    const burn = beginCell().store(storeJettonBurn({ queryId: 7n, amount: 123_456n, responseDestination: address(OWNER) })).endCell();
    const w = b.send(ext, JWALLET, { value: 100_000_000n, body: burn, bounce: true });
    const notify = beginCell()
      .store(storeJettonBurnNotification({ queryId: 7n, amount: 123_456n, sender: address(OWNER), responseDestination: address(OWNER) }))
      .endCell();
    const m = b.send(w, MINTER, { value: 90_000_000n, body: notify, bounce: true });
    const excess = b.send(m, OWNER, { value: 80_000_000n, body: beginCell().store(storeExcess({ queryId: 7n })).endCell() });
    const r = classifyTrace(b.build(), facts);
    expect(r.actions.map((a) => a.type)).toEqual(["jetton_burn"]);
    const burnAction = r.actions[0];
    expect(burnAction).toMatchObject({ success: true, source: OWNER, source_secondary: JWALLET, asset: MINTER, amount: 123_456n, action_id: idOf(w.inMsg!.hash, "jetton_burn") });
    // its transactions and the one that sent the burn
    expect(new Set(burnAction.tx_hashes)).toEqual(new Set([ext.hash, w.hash, m.hash, excess.hash]));
    expect(renderAction(burnAction).details).toEqual({ owner: OWNER, owner_jetton_wallet: JWALLET, asset: MINTER, amount: "123456" });
  });

  it("a burn sent to an address that is no known jetton wallet is a call_contract", () => {
    const b = new TraceBuilder();
    const ext = b.external(OWNER);
    const burn = beginCell().store(storeJettonBurn({ queryId: 1n, amount: 5n, responseDestination: null })).endCell();
    b.send(ext, OTHER, { value: 1n, body: burn });
    expect(classifyTrace(b.build(), facts).actions.map((a) => a.type)).toEqual(["call_contract"]);
  });

  it("a row survives its JSON storage form, bigints and all", () => {
    const b = new TraceBuilder();
    const ext = b.external(OWNER);
    const burn = beginCell().store(storeJettonBurn({ queryId: 2n ** 63n, amount: 2n ** 100n, responseDestination: null })).endCell();
    b.send(ext, JWALLET, { value: 1n, body: burn });
    const row = only(classifyTrace(b.build(), facts).actions, "jetton_burn");
    const text = JSON.stringify(actionToJson(row));
    expect(actionFromJson(JSON.parse(text))).toEqual(row);
    const t = new TraceBuilder();
    const e = t.external(WALLET);
    t.send(e, OTHER, { value: 3n, body: beginCell().storeUint(0, 32).storeBuffer(Buffer.from("42")).endCell() });
    const transfer = only(classifyTrace(t.build(), noFacts).actions, "ton_transfer");
    // a comment of digits stays a string
    expect(actionFromJson(JSON.parse(JSON.stringify(actionToJson(transfer))))).toEqual(transfer);
  });
});

describe("supported action types", () => {
  it("expands versions and shortcuts, always with v1, and hides what sits inside a supported type", () => {
    const v1 = expandActionTypeShortcuts(["v1"]);
    expect(v1.has("jetton_transfer")).toBe(true);
    expect(v1.has("nft_purchase")).toBe(false);
    const latest = expandActionTypeShortcuts([]);
    expect(latest.has("nft_purchase") && latest.has("cocoon_client_withdraw") && latest.has("unknown")).toBe(true);
    expect(expandActionTypeShortcuts(["nft.v3"]).has("dns_release")).toBe(true);
    expect(expandActionTypeShortcuts(["tgbtc"]).has("tgbtc_mint")).toBe(true);
    const inner = { type: "jetton_mint", ancestor_type: ["tonstakers_deposit"] };
    expect(isActionVisible(inner, latest)).toBe(true);
    expect(isActionVisible(inner, new Set([...latest, "tonstakers_deposit"]))).toBe(false);
    expect(isActionVisible({ type: "nft_purchase", ancestor_type: [] }, v1)).toBe(false);
  });
});

describe("API v3 details of the other families' rows", () => {
  const base = (type: string): ActionRow => ({
    trace_id: "T",
    action_id: "A",
    type,
    tx_hashes: ["H"],
    accounts: [],
    success: true,
    start_lt: 1n,
    end_lt: 2n,
    start_utime: 1,
    end_utime: 2,
    mc_seqno_end: 1,
    trace_end_lt: 2n,
    trace_end_utime: 2,
    trace_external_hash: null,
    trace_external_hash_norm: null,
    trace_mc_seqno_end: 1,
    source: addr(1),
    source_secondary: null,
    destination: addr(2),
    destination_secondary: null,
    asset: addr(3),
    asset_secondary: null,
    asset2: null,
    asset2_secondary: null,
    amount: 10n,
    value: null,
    opcode: null,
    value_extra_currencies: {},
    parent_action_id: null,
    ancestor_type: [],
    extra: null,
  });

  it("staking: the provider's public name and the amounts each provider has", () => {
    const ts = { ...base("stake_withdrawal_request"), staking_data: { provider: "tonstakers", ts_nft: null, tokens_burnt: null, tokens_minted: null } };
    expect(renderAction(ts).details).toEqual({ provider: "liquid_staking", stake_holder: addr(1), pool: addr(2), payout_nft: null, asset: addr(3), tokens_burnt: "10" });
    const nominator = { ...base("stake_withdrawal_request"), staking_data: { provider: "nominator" } };
    expect(renderAction(nominator).details).toMatchObject({ provider: "nominator", tokens_burnt: null });
    expect(renderAction(nominator).details).not.toHaveProperty("tokens_minted");
    const ethena = { ...base("stake_deposit"), asset2: addr(4), staking_data: { provider: "ethena", tokens_minted: 5n } };
    expect(renderAction(ethena).details).toMatchObject({ provider: "ethena", tokens_minted: "5", source_asset: addr(4) });
    expect(renderAction({ ...ethena, staking_data: { provider: "nominator" } }).details).not.toHaveProperty("source_asset");
  });

  it("nft_purchase: marketplace name, payout to the real previous owner, comment from the payload", () => {
    const payload = beginCell().storeUint(0, 32).storeBuffer(Buffer.from("gm")).endCell().toBoc().toString("base64");
    const getgems = "0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18";
    const row = {
      ...base("nft_purchase"),
      nft_transfer_data: { is_purchase: true, price: 5n, query_id: 1n, forward_payload: payload, marketplace_address: getgems, real_prev_owner: addr(9) },
    };
    expect(renderAction(row).details).toMatchObject({ marketplace: "getgems", payout_address: addr(9), real_old_owner: addr(9), royalty_address: null, comment: "gm", is_encrypted_comment: false, price: "5", query_id: "1" });
  });
});
