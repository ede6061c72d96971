// The decoder on the real code of ../shared/fixtures/contracts (tests/support/token-scenarios.ts):
// the legacy, Jetton 2.0 (library wallet code) and stablecoin jettons minted, transferred with a
// comment and a binary payload, burned; a getgems collection with items minted, transferred, sold
// at a fixed price and by auction; a telemint username auctioned and transferred; wallets their
// master denies, and one seen before its master. Every API v3 answer equals what the contracts'
// get-methods gave on the chain at the same block, and validates against v3.yaml.
// On the same chain, the action scenarios (tests/support/action-scenarios.ts) and the token
// scenarios' steps each give the action toncenter names them in /api/v3/actions, with the details
// of toncenter's answers.
import { Cell, type Address } from "@ton/core";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodedTo, getJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { startTestLocalnet } from "../support/localnet.js";
import { runActionScenarios, type ActionScenarios } from "../support/action-scenarios.js";
import { runTokenScenarios, type JettonKind, type TokenScenarios } from "../support/token-scenarios.js";
import { v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let s: TokenScenarios;
let a: ActionScenarios;

const raw = (a: Address) => a.toRawString().toUpperCase();
const rawOrNull = (a: Address | null) => (a ? raw(a) : null);
const b64 = (h: Buffer) => h.toString("base64");
const hashOf = (c: Cell) => c.hash().toString("base64");

async function v3(path: string, query: string) {
  const r = await getJson(`${t.url}/api/v3/${path}?${query}`);
  expect(r.status, `${path}?${query}: ${JSON.stringify(r.body)}`).toBe(200);
  expect(v3ResponseErrors(`/api/v3/${path}`, r.body), `${path} against v3.yaml`).toBeNull();
  return r.body;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "decoder-scenarios", wallets: 3 });
  s = await runTokenScenarios(net);
  a = await runActionScenarios(net);
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  // the decoder classifies every trace as it decodes: on a loaded 2-core host that takes minutes
  await decodedTo(t.url, a.mcSeqno, { timeoutMs: 400_000 });
}, 600_000);

afterAll(async () => {
  await t?.close();
  await net?.close();
});

describe.each(["legacy", "jetton2", "stablecoin"] satisfies JettonKind[])("%s jetton (fixture code)", (kind) => {
  it("master: as get_jetton_data gives it", async () => {
    const j = s.jettons[kind].master;
    const body = await v3("jetton/masters", `address=${raw(j.address)}`);
    expect(body.jetton_masters).toHaveLength(1);
    expect(body.jetton_masters[0]).toMatchObject({
      address: raw(j.address),
      total_supply: j.totalSupply.toString(),
      mintable: j.mintable,
      admin_address: rawOrNull(j.admin),
      jetton_wallet_code_hash: hashOf(j.walletCode),
    });
    expect(body.address_book[raw(j.address)].interfaces.length).toBeGreaterThan(0);
  });

  it("wallets: every confirmed one with get_wallet_data's balance and owner; impostors never", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/wallets", `jetton_address=${raw(j.master.address)}&limit=100`);
    const listed = new Map(body.jetton_wallets.map((w: { address: string }) => [w.address, w]));
    for (const w of j.wallets) {
      expect(listed.get(raw(w.address)), `wallet of ${w.owner?.toString()}`).toMatchObject({ balance: w.balance.toString(), owner: rawOrNull(w.owner), jetton: raw(j.master.address) });
    }
    for (const i of s.impostors) expect(listed.has(raw(i.wallet.address))).toBe(false);
    expect(listed.size).toBe(j.wallets.filter((w) => w.confirmed).length);
  });

  it("transfers: each one's transaction, query id, amount, parties, forward TON and payload", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/transfers", `jetton_master=${raw(j.master.address)}&sort=asc&limit=100`);
    expect(body.jetton_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(j.transfers.map((x) => b64(x.tx.hash)));
    for (const [i, x] of j.transfers.entries()) {
      expect(body.jetton_transfers[i]).toMatchObject({
        query_id: x.queryId.toString(),
        amount: x.amount.toString(),
        source: raw(x.source),
        destination: raw(x.destination),
        source_wallet: raw(x.sourceWallet),
        jetton_master: raw(j.master.address),
        transaction_lt: x.tx.lt.toString(),
        transaction_now: x.tx.utime,
        transaction_aborted: x.tx.aborted,
        forward_ton_amount: x.forwardTonAmount.toString(),
        trace_id: b64(x.tx.traceId),
      });
      if (x.forwardPayload) expect(body.jetton_transfers[i].forward_payload).toBe(x.forwardPayload.toBoc().toString("base64"));
    }
  });

  it("burns: the owner's burn on its wallet", async () => {
    const j = s.jettons[kind];
    const body = await v3("jetton/burns", `jetton_master=${raw(j.master.address)}&limit=100`);
    expect(body.jetton_burns.map((b: { transaction_hash: string }) => b.transaction_hash).sort()).toEqual(j.burns.map((b) => b64(b.tx.hash)).sort());
    for (const b of j.burns) {
      const row = body.jetton_burns.find((r: { transaction_hash: string }) => r.transaction_hash === b64(b.tx.hash));
      expect(row).toMatchObject({ query_id: b.queryId.toString(), amount: b.amount.toString(), jetton_wallet: raw(b.wallet), jetton_master: raw(j.master.address) });
    }
  });
});

describe("jetton wallets the master denies or confirms late", () => {
  it("an impostor (legacy, and Jetton 2.0 library code) is not listed, even by its own address", async () => {
    for (const i of s.impostors) {
      const body = await v3("jetton/wallets", `address=${raw(i.wallet.address)}`);
      expect(body.jetton_wallets).toEqual([]);
    }
  });

  it("a wallet deployed before its master is listed once the master is decoded", async () => {
    const e = s.earlyWallet;
    const body = await v3("jetton/wallets", `address=${raw(e.wallet.address)}`);
    expect(body.jetton_wallets).toHaveLength(1);
    expect(body.jetton_wallets[0]).toMatchObject({ jetton: raw(e.master.address), owner: rawOrNull(e.wallet.owner), balance: e.wallet.balance.toString() });
  });
});

describe("getgems collection (fixture code)", () => {
  it("collection: next index and owner as get_collection_data gives them", async () => {
    const c = s.getgems.collection;
    const body = await v3("nft/collections", `collection_address=${raw(c.address)}`);
    expect(body.nft_collections[0]).toMatchObject({ address: raw(c.address), next_item_index: c.nextItemIndex.toString(), owner_address: rawOrNull(c.owner) });
  });

  it("items: index and owner as get_nft_data gives them; one in an open sale or auction is on sale, owned behind it by its seller", async () => {
    const g = s.getgems;
    const body = await v3("nft/items", `collection_address=${raw(g.collection.address)}&limit=100`);
    expect(body.nft_items.map((i: { address: string }) => i.address)).toEqual(g.items.map((i) => raw(i.address)));
    for (const [n, item] of g.items.entries()) {
      expect(body.nft_items[n]).toMatchObject({ index: item.index.toString(), owner_address: rawOrNull(item.owner), collection_address: raw(g.collection.address), init: item.init });
    }
    const open = body.nft_items.find((i: { address: string }) => i.address === raw(g.sales.open.item));
    expect(open).toMatchObject({ on_sale: true, sale_contract_address: raw(g.sales.open.address), real_owner: raw(g.sales.open.seller) });
    const auctioned = body.nft_items.find((i: { address: string }) => i.address === raw(g.auctions.open.item));
    expect(auctioned).toMatchObject({ on_sale: true, auction_contract_address: raw(g.auctions.open.address), real_owner: raw(g.auctions.open.seller) });
  });

  it("transfers: every nft_transfer in chain order, with old and new owner and query id", async () => {
    const g = s.getgems;
    const body = await v3("nft/transfers", `collection_address=${raw(g.collection.address)}&sort=asc&limit=100`);
    expect(body.nft_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(g.transfers.map((x) => b64(x.tx.hash)));
    for (const [i, x] of g.transfers.entries()) {
      expect(body.nft_transfers[i]).toMatchObject({ nft_address: raw(x.item), old_owner: raw(x.oldOwner), new_owner: raw(x.newOwner), query_id: x.queryId.toString(), forward_amount: x.forwardAmount.toString() });
    }
  });

  it("sales: the open sale and the running auction as get_sale_data and get_auction_data give them", async () => {
    const g = s.getgems;
    const body = await v3("nft/sales", `address=${raw(g.sales.open.address)}&address=${raw(g.auctions.open.address)}`);
    const sale = body.nft_sales.find((x: { address: string }) => x.address === raw(g.sales.open.address));
    expect(sale).toMatchObject({ nft_address: raw(g.sales.open.item), nft_owner_address: raw(g.sales.open.seller) });
    const auction = body.nft_sales.find((x: { address: string }) => x.address === raw(g.auctions.open.address));
    expect(auction).toMatchObject({ nft_address: raw(g.auctions.open.item), nft_owner_address: raw(g.auctions.open.seller) });
  });
});

describe("telemint username (fixture code)", () => {
  it("the item with its owner after the auction and the transfer; its sale row carries the token name", async () => {
    const tm = s.telemint;
    const items = await v3("nft/items", `address=${raw(tm.item.address)}`);
    expect(items.nft_items[0]).toMatchObject({ owner_address: rawOrNull(tm.item.owner), index: tm.item.index.toString(), collection_address: raw(tm.collection.address) });
    const sales = await v3("nft/sales", `address=${raw(tm.item.address)}`);
    expect(JSON.stringify(sales.nft_sales)).toContain(tm.item.tokenName);
    const transfers = await v3("nft/transfers", `item_address=${raw(tm.item.address)}&sort=asc`);
    expect(transfers.nft_transfers.map((x: { transaction_hash: string }) => x.transaction_hash)).toEqual(tm.transfers.map((x) => b64(x.tx.hash)));
  });
});

// ---- actions ----

interface ApiAction {
  action_id: string;
  type: string;
  success: boolean;
  trace_id: string;
  transactions: string[];
  accounts?: string[];
  details: Record<string, unknown>;
}

/**
 * The actions of a trace as /api/v3/actions answers them (every type, toncenter's `latest`). The
 * decoder classifies a trace after it stored it: the answer is polled until it holds `type`.
 */
async function traceActions(traceId: Buffer, type: string): Promise<ApiAction[]> {
  const until = Date.now() + 10_000;
  for (;;) {
    const body = await v3("actions", `trace_id=${encodeURIComponent(b64(traceId))}&supported_action_types=latest&include_accounts=true`);
    const actions: ApiAction[] = body.actions;
    if (actions.some((x) => x.type === type) || Date.now() > until) return actions;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The one action of `type` in the trace, which holds the transaction `txHash`. */
async function actionOf(traceId: Buffer, type: string, txHash: Buffer): Promise<ApiAction> {
  const actions = await traceActions(traceId, type);
  const found = actions.filter((x) => x.type === type && x.transactions.includes(b64(txHash)));
  expect(found, `${type} in trace ${b64(traceId)}: ${JSON.stringify(actions.map((x) => [x.type, x.transactions]))}`).toHaveLength(1);
  const action = found[0]!;
  expect(action.trace_id).toBe(b64(traceId));
  return action;
}

/** A BoC in an answer holds the expected cell (serialisation flags may differ from ours). */
const bocOf = (boc: unknown) => Cell.fromBase64(String(boc)).hash().toString("base64");

describe("actions: TON transfers (a comment, a deploy, a bounce)", () => {
  it("a transfer with a comment is a ton_transfer with its comment", async () => {
    const c = a.transfers.comment;
    const x = await actionOf(c.tx.traceId, "ton_transfer", c.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ source: raw(c.source), destination: raw(c.destination), value: c.value.toString(), comment: c.comment, encrypted: false });
  });

  it("a deploy is a contract_deploy of the new account", async () => {
    const d = a.transfers.deploy;
    const x = await actionOf(d.tx.traceId, "contract_deploy", d.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ source: raw(d.source), destination: raw(d.destination), value: d.value.toString() });
  });

  it("a comment the contract throws on is a failed ton_transfer (the bounce comes back)", async () => {
    const b = a.transfers.bounced;
    const x = await actionOf(b.tx.traceId, "ton_transfer", b.tx.hash);
    expect(x.success).toBe(false);
    expect(x.details).toMatchObject({ source: raw(b.source), destination: raw(b.destination), value: b.value.toString(), comment: b.comment, encrypted: false });
  });
});

describe("actions: multisig v2", () => {
  it("alice's new order is a multisig_create_order naming the order contract, signed by its creator", async () => {
    const m = a.multisig;
    const x = await actionOf(m.create.tx.traceId, "multisig_create_order", m.create.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({
      query_id: m.create.queryId.toString(),
      order_seqno: m.orderSeqno.toString(),
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: m.create.creatorIndex,
      expiration_date: m.expirationDate,
      source: raw(m.create.creator),
      destination: raw(m.multisig),
      destination_order: raw(m.order),
    });
    expect(bocOf(x.details.order_boc)).toBe(hashOf(m.orderCell));
  });

  it("bob's approval is a multisig_approve, and the execution it triggers a multisig_execute", async () => {
    const m = a.multisig;
    const approve = await actionOf(m.approve.tx.traceId, "multisig_approve", m.approve.tx.hash);
    expect(approve.success).toBe(true);
    expect(approve.details).toMatchObject({ signer_index: m.approve.signerIndex, exit_code: 0, source: raw(m.approve.signer), destination: raw(m.order) });
    const execute = await actionOf(m.execute.tx.traceId, "multisig_execute", m.execute.tx.hash);
    expect(execute.success).toBe(true);
    expect(execute.details).toMatchObject({
      order_seqno: m.orderSeqno.toString(),
      expiration_date: m.expirationDate,
      approvals_num: m.execute.approvalsNum,
      signers_hash: b64(m.execute.signersHash),
      source: raw(m.order),
      destination: raw(m.multisig),
    });
    expect(bocOf(execute.details.order_boc)).toBe(hashOf(m.orderCell));
  });

  it("the multisig's account history lists its actions", async () => {
    const m = a.multisig;
    const body = await v3("actions", `account=${raw(m.multisig)}&supported_action_types=latest&sort=asc&limit=100`);
    const types = body.actions.map((x: ApiAction) => x.type);
    expect(types).toEqual(expect.arrayContaining(["contract_deploy", "multisig_create_order", "multisig_execute"]));
  });
});

describe("actions: vesting wallet", () => {
  it("the sender's whitelisting is a vesting_add_whitelist", async () => {
    const v = a.vesting;
    const x = await actionOf(v.addWhitelist.tx.traceId, "vesting_add_whitelist", v.addWhitelist.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ query_id: v.addWhitelist.queryId.toString(), accounts_added: v.addWhitelist.added.map(raw), source: raw(v.sender), vesting: raw(v.vesting) });
  });

  it("the owner's send is a vesting_send_message with the message it sent", async () => {
    const v = a.vesting;
    const x = await actionOf(v.send.tx.traceId, "vesting_send_message", v.send.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ query_id: v.send.queryId.toString(), source: raw(v.owner), vesting: raw(v.vesting), destination: raw(v.send.destination), amount: v.send.value.toString() });
    expect(bocOf(x.details.message_boc)).toBe(hashOf(v.send.message));
  });
});

describe("actions: nominator pool", () => {
  it("a nominator's \"d\" to the pool is a stake_deposit (provider nominator)", async () => {
    const p = a.nominatorPool;
    const x = await actionOf(p.deposit.tx.traceId, "stake_deposit", p.deposit.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ provider: "nominator", stake_holder: raw(p.deposit.nominator), pool: raw(p.pool), amount: p.deposit.value.toString() });
  });
});

describe("actions: tick and tock", () => {
  // toncenter's trace processor gives a lone tick-tock transaction no action (trace_processor.py:
  // "early return for tick-tock transactions"), and localnet's special accounts send nothing on
  // tick or tock, so every one of their traces is lone: classified, with no action.
  it("a lone tick or tock transaction's trace is classified with no action", async () => {
    for (const tt of a.ticktock.transactions) {
      const id = encodeURIComponent(b64(tt.traceId));
      const until = Date.now() + 10_000;
      let trace: { trace_info: { classification_state: string }; actions?: unknown[] } | undefined;
      do {
        trace = (await v3("traces", `trace_id=${id}&include_actions=true`)).traces[0];
        if (trace?.trace_info.classification_state === "ok") break;
        await new Promise((r) => setTimeout(r, 250));
      } while (Date.now() < until);
      expect(trace, `the ${tt.kind} trace ${b64(tt.traceId)}`).toBeDefined();
      expect(trace!.trace_info.classification_state).toBe("ok");
      expect(trace!.actions ?? []).toEqual([]);
      expect((await v3("actions", `trace_id=${id}&supported_action_types=latest`)).actions).toEqual([]);
    }
  });
});

describe.each(["legacy", "jetton2", "stablecoin"] satisfies JettonKind[])("actions: %s jetton", (kind) => {
  it("each mint is a jetton_mint to its holder's wallet", async () => {
    const j = s.jettons[kind];
    for (const m of j.mints) {
      const x = await actionOf(m.tx.traceId, "jetton_mint", m.tx.hash);
      expect(x.success).toBe(true);
      expect(x.details).toMatchObject({ asset: raw(j.master.address), receiver: raw(m.to), receiver_jetton_wallet: raw(m.wallet), amount: m.amount.toString() });
    }
  });

  it("each transfer is a jetton_transfer with its parties, amount and payload", async () => {
    const j = s.jettons[kind];
    for (const tr of j.transfers) {
      const x = await actionOf(tr.tx.traceId, "jetton_transfer", tr.tx.hash);
      expect(x.success).toBe(true);
      expect(x.details).toMatchObject({
        asset: raw(j.master.address),
        sender: raw(tr.source),
        receiver: raw(tr.destination),
        sender_jetton_wallet: raw(tr.sourceWallet),
        receiver_jetton_wallet: raw(tr.destinationWallet),
        amount: tr.amount.toString(),
        query_id: tr.queryId.toString(),
        response_destination: rawOrNull(tr.responseDestination),
        forward_amount: tr.forwardTonAmount.toString(),
        comment: tr.comment,
      });
    }
  });

  it("the burn is a jetton_burn of the owner's wallet", async () => {
    const j = s.jettons[kind];
    for (const b of j.burns) {
      const x = await actionOf(b.tx.traceId, "jetton_burn", b.tx.hash);
      expect(x.success).toBe(true);
      expect(x.details).toMatchObject({ owner: raw(b.owner), owner_jetton_wallet: raw(b.wallet), asset: raw(j.master.address), amount: b.amount.toString() });
    }
  });
});

describe("actions: getgems NFTs", () => {
  it("an owner's transfer is an nft_transfer of the item between the owners", async () => {
    const g = s.getgems;
    const byOwner = g.transfers.find((x) => x.oldOwner.equals(s.actors.alice) && x.newOwner.equals(s.actors.bob) && x.tx.account.equals(g.items[0]!.address));
    expect(byOwner, "alice's transfer of item 0 to bob").toBeDefined();
    const x = await actionOf(byOwner!.tx.traceId, "nft_transfer", byOwner!.tx.hash);
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ nft_collection: raw(g.collection.address), nft_item: raw(byOwner!.item), old_owner: raw(byOwner!.oldOwner), new_owner: raw(byOwner!.newOwner), query_id: byOwner!.queryId.toString() });
  });

  it("the fixed-price buy is an nft_purchase of the item by its buyer from its seller", async () => {
    const sale = s.getgems.sales.sold;
    const buy = sale.buy!;
    const actions = await traceActions(buy.tx.traceId, "nft_purchase");
    const found = actions.filter((x) => x.type === "nft_purchase");
    expect(found, JSON.stringify(actions.map((x) => x.type))).toHaveLength(1);
    const x = found[0]!;
    expect(x.success).toBe(true);
    expect(x.details).toMatchObject({ nft_collection: raw(s.getgems.collection.address), nft_item: raw(sale.item), new_owner: raw(buy.buyer) });
    expect([x.details.old_owner, x.details.real_old_owner]).toContain(raw(sale.seller));
  });
});
