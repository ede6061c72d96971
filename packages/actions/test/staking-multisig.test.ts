// Staking, elections and multisig actions on traces built from cells: what the toncenter fixtures
// do not cover (their families have no multisig, election or nominator pool trace).
import { Address, beginCell, Dictionary, type Cell } from "@ton/core";
import {
  storeElectorNewStake,
  storeElectorNewStakeConfirmation,
  storeElectorRecoverStakeRequest,
  storeElectorRecoverStakeResponse,
  storeMultisigApprove,
  storeMultisigApproveAccepted,
  storeMultisigApproveRejected,
  storeMultisigOrderStorage,
  loadMultisigOrder,
} from "@tongate/contracts";
import { describe, expect, it } from "vitest";
import { classifyTrace, MapInterfaceLookup, multisigOrderFactsFromData, readJsonFile, renderAction, traceFileFromJson, type ActionRow, type ContractFacts } from "../src/index.js";
import { buildTrace, comment, type TxSpec } from "./support/build-trace.js";

const addr = (wc: number, byte: number) => `${wc}:${byte.toString(16).toUpperCase().padStart(2, "0").repeat(32)}`;
const parse = (raw: string) => Address.parseRaw(raw);

const SIGNER_A = addr(0, 0x12);
const SIGNER_B = addr(0, 0x13);
const MULTISIG = addr(0, 0x21);
const ORDER = addr(0, 0x22);
const DEST = addr(0, 0x23);
const POOL = addr(-1, 0x31);
const NOMINATOR = addr(0, 0x32);
const NOMINATOR_2 = addr(0, 0x33);
const VALIDATOR = addr(-1, 0x34);
const ELECTOR = `-1:${"3".repeat(64)}`;

const TON = 1_000_000_000n;

function classify(root: TxSpec, facts: Record<string, ContractFacts> = {}): ActionRow[] {
  const c = classifyTrace(buildTrace(root), new MapInterfaceLookup(new Map(Object.entries(facts))));
  expect(c.state, c.error).toBe("ok");
  return c.actions;
}

const only = (actions: ActionRow[], type: string): ActionRow => {
  const found = actions.filter((a) => a.type === type);
  expect(found.map((a) => a.type), JSON.stringify(actions.map((a) => a.type))).toEqual([type]);
  return found[0]!;
};

const boc = (c: Cell) => c.toBoc({ idx: false, crc32: false }).toString("base64");

// An order of one action: send 1 TON to DEST.
const orderCell = (() => {
  const message = beginCell()
    .storeUint(0b0100, 4) // int_msg_info$0 ihr_disabled:1 bounce:0 bounced:0
    .storeAddress(null)
    .storeAddress(parse(DEST))
    .storeCoins(TON)
    .storeBit(0) // no extra currencies
    .storeCoins(0)
    .storeCoins(0)
    .storeUint(0, 64)
    .storeUint(0, 32)
    .storeBit(0) // no StateInit
    .storeBit(0) // body inline, empty
    .endCell();
  const action = beginCell().storeUint(0xf1381e5b, 32).storeUint(3, 8).storeRef(message).endCell();
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Cell());
  dict.set(0, action);
  return beginCell().storeDictDirect(dict).endCell();
})();

const signersCell = (() => {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(8), Dictionary.Values.Address());
  dict.set(0, parse(SIGNER_A));
  dict.set(1, parse(SIGNER_B));
  return beginCell().storeDictDirect(dict).endCell();
})();

const orderFacts: Record<string, ContractFacts> = {
  [ORDER]: { multisigOrder: { address: ORDER, multisigAddress: MULTISIG, signers: [SIGNER_A, SIGNER_B], orderSeqno: 0n, threshold: 2, sentForExecution: false, approvalsMask: 0n, approvalsNum: 0, expirationDate: null, orderBoc: null } },
};

describe("multisig v2", () => {
  it("a signer's new order deploys the order: multisig_create_order", () => {
    const newOrder = beginCell().storeUint(0xf718510f, 32).storeUint(7, 64).storeUint(5, 256).storeBit(1).storeUint(0, 8).storeUint(1_800_000_000, 48).storeRef(orderCell).endCell();
    const init = beginCell()
      .storeUint(0x9c73fba2, 32)
      .storeUint(7, 64)
      .storeUint(2, 8)
      .storeRef(signersCell)
      .storeUint(1_800_000_000, 48)
      .storeRef(orderCell)
      .storeBit(1)
      .storeUint(0, 8)
      .endCell();
    const actions = classify(
      {
        account: SIGNER_A,
        source: null,
        children: [{ account: MULTISIG, source: SIGNER_A, value: TON / 5n, body: newOrder, children: [{ account: ORDER, source: MULTISIG, value: TON / 10n, body: init, origStatus: "nonexist" }] }],
      },
      orderFacts,
    );
    const a = only(actions, "multisig_create_order");
    expect(a).toMatchObject({ source: SIGNER_A, destination: MULTISIG, destination_secondary: ORDER, success: true });
    expect(a.multisig_create_order_data).toMatchObject({
      query_id: 7n,
      order_seqno: 5n,
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: 1_800_000_000,
      order_boc: boc(orderCell),
    });
    expect(a.accounts).toEqual(expect.arrayContaining([SIGNER_A, SIGNER_B, MULTISIG, ORDER]));
    expect(a.tx_hashes).toHaveLength(3);
    expect(renderAction(a).details).toMatchObject({
      query_id: "7",
      order_seqno: "5",
      is_created_by_signer: true,
      is_signed_by_creator: true,
      creator_index: 0,
      expiration_date: 1_800_000_000,
      order_boc: boc(orderCell),
      source: SIGNER_A,
      destination: MULTISIG,
      destination_order: ORDER,
    });
  });

  it("an approval the order accepts, and the execution it triggers: multisig_approve and multisig_execute", () => {
    const execute = beginCell()
      .storeUint(0x75097f5d, 32)
      .storeUint(9, 64)
      .storeUint(5, 256)
      .storeUint(1_800_000_000, 48)
      .storeUint(2, 8)
      .storeBuffer(signersCell.hash())
      .storeRef(orderCell)
      .endCell();
    const actions = classify(
      {
        account: SIGNER_B,
        source: null,
        children: [
          {
            account: ORDER,
            source: SIGNER_B,
            value: TON / 10n,
            body: beginCell().store(storeMultisigApprove({ queryId: 9n, signerIndex: 1 })).endCell(),
            children: [
              { account: SIGNER_B, source: ORDER, value: TON / 20n, body: beginCell().store(storeMultisigApproveAccepted({ queryId: 9n })).endCell() },
              { account: MULTISIG, source: ORDER, value: TON / 20n, body: execute, children: [{ account: DEST, source: MULTISIG, value: TON }] },
            ],
          },
        ],
      },
      orderFacts,
    );
    const approve = only(actions, "multisig_approve");
    expect(approve).toMatchObject({ source: SIGNER_B, destination: ORDER, success: true, multisig_approve_data: { signer_index: 1, exit_code: 0 } });
    expect(approve.accounts).toEqual(expect.arrayContaining([SIGNER_A, SIGNER_B, ORDER]));
    const exec = only(actions, "multisig_execute");
    expect(exec).toMatchObject({ source: ORDER, destination: MULTISIG, success: true });
    expect(exec.multisig_execute_data).toMatchObject({
      query_id: 9n,
      order_seqno: 5n,
      expiration_date: 1_800_000_000,
      approvals_num: 2,
      signers_hash: signersCell.hash().toString("base64"),
      order_boc: boc(orderCell),
    });
    expect(renderAction(approve).details).toMatchObject({ signer_index: 1, exit_code: 0, source: SIGNER_B, destination: ORDER });
    expect(renderAction(exec).details).toMatchObject({ query_id: "9", order_seqno: "5", approvals_num: 2, source: ORDER, destination: MULTISIG });
    // the order's message is an action of its own
    expect(actions.some((a) => a.type === "ton_transfer" && a.destination === DEST)).toBe(true);
  });

  it("an approval the order rejects, and one by the text comment \"approve\"", () => {
    const rejected = classify(
      {
        account: SIGNER_B,
        source: null,
        children: [
          {
            account: ORDER,
            source: SIGNER_B,
            value: TON / 10n,
            body: beginCell().store(storeMultisigApprove({ queryId: 1n, signerIndex: 1 })).endCell(),
            children: [{ account: SIGNER_B, source: ORDER, value: TON / 20n, body: beginCell().store(storeMultisigApproveRejected({ queryId: 1n, exitCode: 107 })).endCell() }],
          },
        ],
      },
      orderFacts,
    );
    expect(only(rejected, "multisig_approve")).toMatchObject({ success: false, multisig_approve_data: { signer_index: 1, exit_code: 107 } });

    const byComment = classify(
      {
        account: SIGNER_A,
        source: null,
        children: [
          {
            account: ORDER,
            source: SIGNER_A,
            value: TON / 10n,
            body: comment("approve"),
            children: [{ account: SIGNER_A, source: ORDER, value: TON / 20n, body: beginCell().store(storeMultisigApproveAccepted({ queryId: 0n })).endCell() }],
          },
        ],
      },
      orderFacts,
    );
    expect(only(byComment, "multisig_approve")).toMatchObject({ source: SIGNER_A, success: true, multisig_approve_data: { signer_index: -1, exit_code: 0 } });
  });

  it("the order's facts read from its data, as the decoder may give them", () => {
    const signers = Dictionary.loadDirect(Dictionary.Keys.Uint(8), Dictionary.Values.Address(), signersCell.beginParse());
    const data = beginCell()
      .store(
        storeMultisigOrderStorage({
          multisigAddress: parse(MULTISIG),
          orderSeqno: 5n,
          init: { threshold: 2, sentForExecution: false, signers, approvalsMask: 1n, approvalsNum: 1, expirationDate: 1_800_000_000, order: loadMultisigOrder(beginCell().storeRef(orderCell).endCell().beginParse()) },
        }),
      )
      .endCell();
    const dataBoc = data.toBoc().toString("base64");
    expect(multisigOrderFactsFromData(ORDER, dataBoc)).toMatchObject({ address: ORDER, multisigAddress: MULTISIG, signers: [SIGNER_A, SIGNER_B], orderSeqno: 5n, threshold: 2, approvalsNum: 1 });
    const actions = classify(
      {
        account: SIGNER_B,
        source: null,
        children: [
          {
            account: ORDER,
            source: SIGNER_B,
            value: TON / 10n,
            body: beginCell().store(storeMultisigApprove({ queryId: 1n, signerIndex: 1 })).endCell(),
            children: [{ account: SIGNER_B, source: ORDER, value: TON / 20n, body: beginCell().store(storeMultisigApproveAccepted({ queryId: 1n })).endCell() }],
          },
        ],
      },
      { [ORDER]: { interfaces: ["multisig_order_v2"], dataBoc: { account: ORDER, dataBoc } } },
    );
    expect(only(actions, "multisig_approve").accounts).toEqual(expect.arrayContaining([SIGNER_A, SIGNER_B]));
  });

  it("an approval of an address not known as an order is not a multisig action", () => {
    const actions = classify({
      account: SIGNER_B,
      source: null,
      children: [
        {
          account: ORDER,
          source: SIGNER_B,
          value: TON / 10n,
          body: beginCell().store(storeMultisigApprove({ queryId: 1n, signerIndex: 1 })).endCell(),
          children: [{ account: SIGNER_B, source: ORDER, value: TON / 20n, body: beginCell().store(storeMultisigApproveAccepted({ queryId: 1n })).endCell() }],
        },
      ],
    });
    expect(actions.some((a) => a.type.startsWith("multisig_"))).toBe(false);
  });
});

describe("elections", () => {
  const newStake = beginCell()
    .store(storeElectorNewStake({ queryId: 3n, validatorPubkey: Buffer.alloc(32, 1), stakeAt: 1_700_000_000, maxFactor: 196608, adnlAddr: Buffer.alloc(32, 2), signature: Buffer.alloc(64, 3) }))
    .endCell();

  it("a stake the elector confirms: election_deposit", () => {
    const actions = classify({
      account: POOL,
      source: VALIDATOR,
      value: TON,
      children: [
        {
          account: ELECTOR,
          source: POOL,
          value: 300_000n * TON,
          body: newStake,
          children: [{ account: POOL, source: ELECTOR, value: TON, body: beginCell().store(storeElectorNewStakeConfirmation({ queryId: 3n })).endCell() }],
        },
      ],
    });
    expect(only(actions, "election_deposit")).toMatchObject({ source: POOL, amount: 300_000n * TON, success: true });
  });

  it("a stake without the elector's confirmation failed", () => {
    const actions = classify({ account: POOL, source: VALIDATOR, value: TON, children: [{ account: ELECTOR, source: POOL, value: 300_000n * TON, body: newStake }] });
    expect(only(actions, "election_deposit")).toMatchObject({ source: POOL, success: false });
  });

  it("a recovered stake: election_recover with the amount the elector returned", () => {
    const actions = classify({
      account: POOL,
      source: VALIDATOR,
      value: TON,
      children: [
        {
          account: ELECTOR,
          source: POOL,
          value: TON,
          body: beginCell().store(storeElectorRecoverStakeRequest({ queryId: 4n })).endCell(),
          children: [{ account: POOL, source: ELECTOR, value: 301_000n * TON, body: beginCell().store(storeElectorRecoverStakeResponse({ queryId: 4n })).endCell() }],
        },
      ],
    });
    const recover = only(actions, "election_recover");
    expect(recover).toMatchObject({ source: POOL, amount: 301_000n * TON, success: true });
    expect(renderAction(recover)).toMatchObject({ type: "election_recover", details: { stake_holder: POOL, amount: (301_000n * TON).toString() } });
  });
});

describe("nominator pool", () => {
  const poolFacts: Record<string, ContractFacts> = { [POOL]: { nominatorPool: { address: POOL } } };

  it("a \"d\" transfer to a nominator pool: stake_deposit (provider nominator)", () => {
    const actions = classify({ account: NOMINATOR, source: null, children: [{ account: POOL, source: NOMINATOR, value: 10_000n * TON, body: comment("d") }] }, poolFacts);
    const a = only(actions, "stake_deposit");
    expect(a).toMatchObject({ source: NOMINATOR, destination: POOL, amount: 10_000n * TON, success: true, staking_data: { provider: "nominator" } });
    expect(renderAction(a)).toMatchObject({ type: "stake_deposit", details: { provider: "nominator", stake_holder: NOMINATOR, pool: POOL, amount: (10_000n * TON).toString() } });
  });

  it("a pool the decoder detected by its get-methods (tv_pool) is a nominator pool too", () => {
    const actions = classify({ account: NOMINATOR, source: null, children: [{ account: POOL, source: NOMINATOR, value: 10_000n * TON, body: comment("d") }] }, { [POOL]: { interfaces: ["tv_pool"] } });
    expect(only(actions, "stake_deposit")).toMatchObject({ source: NOMINATOR, destination: POOL, staking_data: { provider: "nominator" } });
  });

  it("a \"d\" transfer to an address that is no nominator pool stays a ton_transfer", () => {
    const actions = classify({ account: NOMINATOR, source: null, children: [{ account: POOL, source: NOMINATOR, value: 10_000n * TON, body: comment("d") }] });
    expect(actions.some((a) => a.type === "stake_deposit")).toBe(false);
    expect(actions.some((a) => a.type === "ton_transfer")).toBe(true);
  });

  it("a \"w\" the pool pays at once: stake_withdrawal with the payout", () => {
    const actions = classify(
      { account: NOMINATOR, source: null, children: [{ account: POOL, source: NOMINATOR, value: TON, body: comment("w"), children: [{ account: NOMINATOR, source: POOL, value: 5_000n * TON, bounce: false }] }] },
      poolFacts,
    );
    const a = only(actions, "stake_withdrawal");
    expect(a).toMatchObject({ source: NOMINATOR, destination: POOL, amount: 5_000n * TON, staking_data: { provider: "nominator" } });
    expect(a.tx_hashes).toHaveLength(3);
  });

  it("a \"w\" the pool only records: stake_withdrawal_request", () => {
    const actions = classify(
      { account: NOMINATOR, source: null, children: [{ account: POOL, source: NOMINATOR, value: TON, body: comment("w"), children: [{ account: NOMINATOR, source: POOL, value: TON / 2n, bounce: false }] }] },
      poolFacts,
    );
    expect(only(actions, "stake_withdrawal_request")).toMatchObject({ source: NOMINATOR, destination: POOL, amount: null, staking_data: { provider: "nominator" } });
  });

  it("the validator's process_withdraw_requests: one stake_withdrawal per nominator paid", () => {
    const actions = classify(
      {
        account: VALIDATOR,
        source: null,
        children: [
          {
            account: POOL,
            source: VALIDATOR,
            value: TON,
            body: beginCell().storeUint(2, 32).storeUint(0, 64).storeUint(10, 8).endCell(),
            children: [
              { account: NOMINATOR, source: POOL, value: 7n * TON, bounce: false },
              { account: NOMINATOR_2, source: POOL, value: 9n * TON, bounce: false },
            ],
          },
        ],
      },
      poolFacts,
    );
    const withdrawals = actions.filter((a) => a.type === "stake_withdrawal");
    expect(withdrawals.map((a) => [a.source, a.destination, a.amount])).toEqual(
      expect.arrayContaining([
        [NOMINATOR, POOL, 7n * TON],
        [NOMINATOR_2, POOL, 9n * TON],
      ]),
    );
    expect(withdrawals).toHaveLength(2);
  });
});

describe("trace files", () => {
  it("a trace file's NominatorPool and MultisigOrder interfaces are the lookup's nominatorPool and multisigOrder", () => {
    const raw = readJsonFile(new URL("../../../../shared/fixtures/toncenter_actions/traces/03XZQ1CkN3nBPi4IICznU8BWFghrneCV17qcdq33BrA=.json", import.meta.url).pathname);
    raw.interfaces = {
      [POOL]: { NominatorPool: { address: POOL } },
      [ORDER]: { MultisigOrder: { address: ORDER, multisig_address: MULTISIG, order_seqno: 5.0, threshold: 2.0, sent_for_execution: false, approvals_num: 1.0, expiration_date: 1800000000.0, signers: [SIGNER_A, SIGNER_B] } },
    };
    const { lookup } = traceFileFromJson(raw);
    expect(lookup.facts(POOL)?.nominatorPool).toEqual({ address: POOL });
    expect(lookup.facts(ORDER)?.multisigOrder).toEqual({ address: ORDER, multisigAddress: MULTISIG, signers: [SIGNER_A, SIGNER_B], orderSeqno: 5n, threshold: 2, sentForExecution: false, approvalsMask: 0n, approvalsNum: 1, expirationDate: 1_800_000_000, orderBoc: null });
  });
});
