// The book step reads the contract: it finds the raw addresses of any v3 answer by the
// raw_address option of its fields (through nested messages, lists and maps), looks them up once,
// and fills the answer's address_book; answers without a book, or without addresses, are left alone.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { AccountStatesResponseSchema, AddressBookResponseSchema, AddressBookRowSchema } from "@tongate/proto/gen/tongate/v3/accounts_pb.js";
import { TracesResponseSchema } from "@tongate/proto/gen/tongate/v3/actions_pb.js";
import {
  Blockchain,
  BlocksResponseSchema,
  GetTransactionsRequestSchema,
  MessagesResponseSchema,
  TransactionsResponseSchema,
} from "@tongate/proto/gen/tongate/v3/blockchain_pb.js";
import { TopAccountsByBalanceResponseSchema } from "@tongate/proto/gen/tongate/v3/stats_pb.js";
import { describe, expect, it } from "vitest";
import { V3_SERVICES } from "../src/index.js";
import { type BookSources, planOf, withAddressBook } from "../src/api/book-step.js";

const A = "0:" + "A1".repeat(32);
const B = "0:" + "B2".repeat(32);
const C = "-1:" + "C3".repeat(32);
const D = "0:" + "D4".repeat(32);

/** A source that answers every address with a row naming it, and records each lookup. */
function recording(): BookSources & { lookups: string[][] } {
  const lookups: string[][] = [];
  return {
    lookups,
    addressBook: (addresses) => {
      lookups.push([...addresses].sort());
      return Promise.resolve(Object.fromEntries(addresses.map((a) => [a, create(AddressBookRowSchema, { userFriendly: `friendly ${a}` })])));
    },
  };
}

const transaction = (account: string, from: string | undefined, to: string[]) => ({
  account,
  inMsg: { source: from, destination: account },
  outMsgs: to.map((d) => ({ source: account, destination: d })),
});

describe("book step", () => {
  it("collects the raw addresses of transactions, messages, traces and states by the proto option", () => {
    const cases = [
      { schema: TransactionsResponseSchema, message: create(TransactionsResponseSchema, { transactions: [transaction(A, undefined, [B]), transaction(B, A, [C])] }), want: [A, B, C] },
      { schema: MessagesResponseSchema, message: create(MessagesResponseSchema, { messages: [{ source: D, destination: A }, { destination: B }] }), want: [A, B, D] },
      { schema: TracesResponseSchema, message: create(TracesResponseSchema, { traces: [{ transactions: { x: transaction(C, D, []), y: transaction(A, C, [B]) } }] }), want: [A, B, C, D] },
      { schema: AccountStatesResponseSchema, message: create(AccountStatesResponseSchema, { accounts: [{ address: B }] }), want: [B] },
    ];
    for (const { schema, message, want } of cases) {
      const plan = planOf(schema);
      expect(plan, schema.typeName).not.toBeNull();
      const found = new Set<string>();
      plan!.collect(message, found);
      expect([...found].sort(), schema.typeName).toEqual(want.sort());
    }
  });

  it("leaves answers without a book alone: blocks, the address book itself, top accounts", () => {
    for (const schema of [BlocksResponseSchema, AddressBookResponseSchema, TopAccountsByBalanceResponseSchema]) expect(planOf(schema), schema.typeName).toBeNull();
  });

  it("every v3 answer with an address_book has addresses to fill it from", () => {
    for (const service of V3_SERVICES) {
      for (const method of service.methods) {
        const book = method.output.fields.find((f) => f.name === "address_book");
        // /addressBook's own map is the answer itself, keyed as asked
        if (!book || method.output.typeName === AddressBookResponseSchema.typeName) continue;
        expect(planOf(method.output), `${service.name}.${method.name}`).not.toBeNull();
      }
    }
  });

  it("wraps a service: one lookup per answer, the book filled, the handler's objects unchanged", async () => {
    const source = recording();
    const page = (txs: ReturnType<typeof transaction>[]) => () => create(TransactionsResponseSchema, { transactions: txs });
    const handlers: Partial<ServiceImpl<typeof Blockchain>> = {
      getTransactions: page([transaction(A, undefined, [B]), transaction(B, A, [A])]),
      getBlocks: () => create(BlocksResponseSchema, {}),
    };
    const impl = withAddressBook(Blockchain, handlers, source);
    const req = create(GetTransactionsRequestSchema, {});
    const got = create(TransactionsResponseSchema, await impl.getTransactions!(req, undefined as never));
    expect(source.lookups).toEqual([[A, B].sort()]);
    expect(Object.keys(got.addressBook).sort()).toEqual([A, B].sort());
    expect(got.addressBook[A]?.userFriendly).toBe(`friendly ${A}`);
    expect(got.transactions).toHaveLength(2);
    // no book in the answer: the handler is the one given
    expect(impl.getBlocks).toBe(handlers.getBlocks);
    // an empty page: no lookup
    const empty = withAddressBook(Blockchain, { getTransactions: page([]) }, source);
    expect(create(TransactionsResponseSchema, await empty.getTransactions!(req, undefined as never)).addressBook).toEqual({});
    expect(source.lookups).toHaveLength(1);
  });
});
