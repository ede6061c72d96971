// Staking and multisig actions of the real contracts (the fixtures' compiled multisig v2, its order
// and the TON nominator pool), run in @ton/sandbox: the messages are what the contracts send, not
// cells written to match the classifier. The facts are what the decoder reads: the order's
// signers from its data (multisigOrderFactsFromData), the pool by its tv_pool interface.
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, contractAddress, Dictionary, internal, toNano, type StateInit } from "@ton/core";
import { Blockchain, type SandboxContract, type SendMessageResult, type TreasuryContract } from "@ton/sandbox";
import {
  emptyMultisigAddresses,
  emptyMultisigOrder,
  emptyPoolNominators,
  storeMultisigApprove,
  storeMultisigNewOrder,
  storeMultisigStorage,
  storeNominatorPoolStorage,
} from "@tongate/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { classifyTrace, MapInterfaceLookup, multisigOrderFactsFromData, type ActionRow, type ContractFacts } from "../src/index.js";
import { comment } from "./support/build-trace.js";
import { traceOfSandbox } from "./support/sandbox-trace.js";

const CONTRACTS = new URL("../../../../shared/fixtures/contracts/", import.meta.url);
const code = (name: string) => Cell.fromBoc(readFileSync(new URL(`${name}.code.boc`, CONTRACTS)))[0];
const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

function classify(result: SendMessageResult, facts: Map<string, ContractFacts>, masterchain: Address[] = []): ActionRow[] {
  const mc = new Set(masterchain.map((a) => BigInt(`0x${a.hash.toString("hex")}`)));
  const trace = traceOfSandbox(result.transactions, (h) => (mc.has(h) ? -1 : 0));
  const c = classifyTrace(trace, new MapInterfaceLookup(facts));
  expect(c.state, c.error).toBe("ok");
  return c.actions;
}

const ofType = (actions: ActionRow[], type: string) => actions.filter((a) => a.type === type);

describe("multisig v2 (real contracts)", () => {
  let chain: Blockchain;
  let a: SandboxContract<TreasuryContract>;
  let b: SandboxContract<TreasuryContract>;
  let dest: SandboxContract<TreasuryContract>;
  let multisig: Address;

  beforeAll(async () => {
    chain = await Blockchain.create();
    const orderCode = code("multisig_order_v2");
    const libs = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    libs.set(orderCode.hash(), orderCode);
    chain.libs = beginCell().storeDictDirect(libs).endCell();
    a = await chain.treasury("signer-a");
    b = await chain.treasury("signer-b");
    dest = await chain.treasury("destination");
    const signers = emptyMultisigAddresses();
    signers.set(0, a.address);
    signers.set(1, b.address);
    const data = beginCell()
      .store(storeMultisigStorage({ nextOrderSeqno: 0n, threshold: 2, signers, signersNum: 2, proposers: emptyMultisigAddresses(), allowArbitraryOrderSeqno: false }))
      .endCell();
    const init: StateInit = { code: code("multisig_v2"), data };
    multisig = contractAddress(0, init);
    await a.send({ to: multisig, value: toNano("5"), init, bounce: false });
  });

  /** The order contract's facts as the decoder has them after a trace: read from its data. */
  function orderFacts(order: Address): Promise<Map<string, ContractFacts>> {
    return chain.getContract(order).then((c) => {
      const state = c.accountState;
      if (state?.type !== "active" || !state.state.data) throw new Error("the order is not active");
      const f = multisigOrderFactsFromData(raw(order), state.state.data.toBoc().toString("base64"));
      return new Map(f ? [[raw(order), { multisigOrder: f, interfaces: ["multisig_order_v2"] }]] : []);
    });
  }

  it("creates an order, approves it and executes it", async () => {
    const order = emptyMultisigOrder();
    order.set(0, { type: "send_message", mode: 3, message: internal({ to: dest.address, value: toNano("1"), bounce: false }) });
    const expiration = Math.floor(Date.now() / 1000) + 3600;
    const created = await a.send({
      to: multisig,
      value: toNano("0.5"),
      body: beginCell().store(storeMultisigNewOrder({ queryId: 11n, orderSeqno: 0n, signer: true, index: 0, expirationDate: expiration, order })).endCell(),
    });
    const deploy = created.transactions.find((t) => t.oldStatus !== "active" && t.endStatus === "active");
    expect(deploy, "the order contract was deployed").toBeDefined();
    const orderRaw = `0:${deploy!.address.toString(16).toUpperCase().padStart(64, "0")}`;
    const order0 = Address.parseRaw(orderRaw);
    const facts = await orderFacts(order0);
    expect(facts.get(orderRaw)?.multisigOrder?.signers).toEqual([raw(a.address), raw(b.address)]);

    const createdActions = classify(created, facts);
    const [create] = ofType(createdActions, "multisig_create_order");
    expect(create).toMatchObject({ source: raw(a.address), destination: raw(multisig), destination_secondary: orderRaw, success: true });
    expect(create.multisig_create_order_data).toMatchObject({ query_id: 11n, order_seqno: 0n, is_created_by_signer: true, is_signed_by_creator: true, creator_index: 0, expiration_date: expiration });
    expect(create.accounts).toEqual(expect.arrayContaining([raw(a.address), raw(b.address)]));

    const approved = await b.send({ to: order0, value: toNano("0.5"), body: beginCell().store(storeMultisigApprove({ queryId: 12n, signerIndex: 1 })).endCell() });
    const actions = classify(approved, await orderFacts(order0));
    expect(ofType(actions, "multisig_approve")).toHaveLength(1);
    expect(ofType(actions, "multisig_approve")[0]).toMatchObject({ source: raw(b.address), destination: orderRaw, success: true, multisig_approve_data: { signer_index: 1, exit_code: 0 } });
    expect(ofType(actions, "multisig_execute")).toHaveLength(1);
    expect(ofType(actions, "multisig_execute")[0]).toMatchObject({ source: orderRaw, destination: raw(multisig), success: true, multisig_execute_data: { order_seqno: 0n, approvals_num: 2 } });
    expect(actions.some((x) => x.type === "ton_transfer" && x.destination === raw(dest.address) && x.value === toNano("1"))).toBe(true);

    // a second approval of an executed order is rejected
    const again = await a.send({ to: order0, value: toNano("0.5"), body: beginCell().store(storeMultisigApprove({ queryId: 13n, signerIndex: 0 })).endCell() });
    const rejected = ofType(classify(again, await orderFacts(order0)), "multisig_approve");
    expect(rejected).toHaveLength(1);
    expect(rejected[0].success).toBe(false);
    expect(rejected[0].multisig_approve_data?.exit_code).not.toBe(0);
  });
});

describe("TON nominator pool (real contract)", () => {
  it("a \"d\" deposit and a \"w\" withdrawal request", async () => {
    const chain = await Blockchain.create();
    const validator = await chain.treasury("validator", { workchain: -1 });
    const nominator = await chain.treasury("nominator");
    const data = beginCell()
      .store(
        storeNominatorPoolStorage({
          state: 0,
          nominatorsCount: 0,
          stakeAmountSent: 0n,
          validatorAmount: 0n,
          config: { validatorAddress: BigInt(`0x${validator.address.hash.toString("hex")}`), validatorRewardShare: 4000, maxNominatorsCount: 10, minValidatorStake: toNano("10"), minNominatorStake: toNano("10") },
          nominators: emptyPoolNominators(),
          withdrawRequests: null,
          stakeAt: 0,
          savedValidatorSetHash: 0n,
          validatorSetChangesCount: 0,
          validatorSetChangeTime: 0,
          stakeHeldFor: 0,
          configProposalVotings: null,
        }),
      )
      .endCell();
    const init: StateInit = { code: code("nominator_pool"), data };
    const pool = contractAddress(-1, init);
    await validator.send({ to: pool, value: toNano("1"), init, bounce: false });
    const facts = new Map<string, ContractFacts>([[raw(pool), { interfaces: ["tv_pool"] }]]);

    const deposited = await nominator.send({ to: pool, value: toNano("20"), body: comment("d") });
    const deposit = ofType(classify(deposited, facts, [pool, validator.address]), "stake_deposit");
    expect(deposit).toHaveLength(1);
    expect(deposit[0]).toMatchObject({ source: raw(nominator.address), destination: raw(pool), amount: toNano("20"), success: true, staking_data: { provider: "nominator" } });

    // the pool sends back only the change, no payout: a request, not a withdrawal
    const requested = await nominator.send({ to: pool, value: toNano("1"), body: comment("w") });
    const request = ofType(classify(requested, facts, [pool, validator.address]), "stake_withdrawal_request");
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ source: raw(nominator.address), destination: raw(pool), amount: null, staking_data: { provider: "nominator" } });
  });
});
