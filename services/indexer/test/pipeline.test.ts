// Real blocks through the indexer's steps so far: BoC → rows (src/rows) → traces → the store
// (embedded chDB) → read back equal; a second insert changes nothing visible.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@tongate/store";
import { insertBlockRows, messagesBySource, migrate, transactionsByAccount, transactionsByHash } from "../src/index.js";
import { type BlockRows, TraceAssembler, blockRows } from "../src/rows/index.js";

const DIR = new URL("../../../../shared/fixtures/blocks/", import.meta.url);
const BLOCKS = [
  { file: "mainnet_0_8000000000000000_71398501.boc", mc: 66519406 },
  { file: "mainnet_0_a000000000000000_54302208.boc", mc: 1 },
  { file: "mainnet_mc_47129122.boc", mc: 47129122 },
];

async function count(store: Store, table: string): Promise<number> {
  const rs = await store.client.query({ query: `SELECT count() AS n FROM ${table} FINAL`, format: "JSONEachRow" });
  return Number((await rs.json<{ n: string }>())[0]!.n);
}

describe("fixture blocks → rows → chDB → read back", () => {
  let store: Store;
  const all: BlockRows[] = [];
  beforeAll(async () => {
    store = await openStore();
    await migrate(store);
    for (const b of BLOCKS) {
      const rows = blockRows(readFileSync(new URL(b.file, DIR)), { mcSeqno: b.mc });
      new TraceAssembler().add({ mcSeqno: b.mc, transactions: rows.transactions, messages: rows.messages });
      all.push(rows);
    }
    for (const rows of all) await insertBlockRows(store, rows);
  });
  afterAll(async () => {
    await store?.close();
  });

  it("every transaction reads back with the same fields", async () => {
    const txs = all.flatMap((r) => r.transactions);
    expect(await count(store, "transactions")).toBe(txs.length);
    for (const t of txs.slice(0, 60)) {
      const [got] = await transactionsByHash(store, t.hash);
      expect(got, t.hash).toBeDefined();
      const { description, messages, states, ...rest } = got!;
      expect({ ...rest, description: JSON.parse(description) as unknown, states: JSON.parse(states!) as unknown }).toEqual(t);
      // its message rows stored with it (migrations/0004): the in message first, then the out ones
      const own = all.flatMap((r) => r.messages).filter((m) => m.tx_hash === t.hash);
      expect(JSON.parse(messages!) as unknown).toEqual(own);
    }
  });

  it("account history and sent messages by the access paths", async () => {
    const rows = all[0]!;
    const byAccount = new Map<string, typeof rows.transactions>();
    for (const t of rows.transactions) byAccount.set(t.account, [...(byAccount.get(t.account) ?? []), t]);
    const busiest = [...byAccount].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(busiest[1].length).toBeGreaterThan(1);
    const history = await transactionsByAccount(store, busiest[0], { limit: 100 });
    expect(history.map((t) => t.lt)).toEqual(busiest[1].map((t) => t.lt).reverse());
    const sender = rows.messages.find((m) => m.direction === "out" && m.source !== null)!;
    const sent = await messagesBySource(store, sender.source!, { limit: 1000 });
    const expected = rows.messages.filter((m) => m.source === sender.source);
    expect(new Set(sent.map((m) => `${m.msg_hash}/${m.direction}`))).toEqual(new Set(expected.map((m) => `${m.msg_hash}/${m.direction}`)));
    const one = sent.find((m) => m.msg_hash === sender.msg_hash && m.direction === "out")!;
    expect(one).toEqual(sender);
  });

  it("inserting the same blocks again changes nothing visible", async () => {
    const tables = ["blocks", "transactions", "messages", "message_contents", "account_states"];
    const before = await Promise.all(tables.map((t) => count(store, t)));
    for (const rows of all) await insertBlockRows(store, rows);
    expect(await Promise.all(tables.map((t) => count(store, t)))).toEqual(before);
    expect(before[0]).toBe(BLOCKS.length);
    expect(before[1]).toBe(all.reduce((n, r) => n + r.transactions.length, 0));
  });
});
