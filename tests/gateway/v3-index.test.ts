// API v3 end to end: a localnet with traffic (transfers, a bounce, a deploy, a multi-hop trace) is
// indexed by the indexer in the gateway's process (chDB), and every v3 answer is validated against
// v3.yaml and compared with what the liteserver says through API v2 (lite-proxy) in the same gateway.
import { Address, beginCell, Cell, internal, SendMode, toNano } from "@ton/core";
import { WalletContractV3R2, WalletContractV4 } from "@ton/ton";
import type { Localnet } from "@tongate/localnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { LocalnetSender } from "../support/localnet-deploy.js";
import { startTestLocalnet } from "../support/localnet.js";
import { v3Parameters, v3ResponseErrors } from "../support/v3-schema.js";

let net: Localnet;
let t: Embedded;
let sender: LocalnetSender;
let deployed: Address;
let head: number;
const alice = new Address(0, Buffer.alloc(32, 0xa1));
const bob = new Address(0, Buffer.alloc(32, 0xb0)); // never deployed: a bounceable transfer bounces back
const raw = (a: Address) => `${a.workChain}:${a.hash.toString("hex").toUpperCase()}`;

async function v3(path: string): Promise<any> {
  const r = await getJson(`${t.url}/api/v3/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  const p = `/api/v3/${path.split("?")[0]}`;
  expect(v3ResponseErrors(p, r.body), p).toBeNull();
  return r.body;
}

async function v2(path: string): Promise<any> {
  const r = await getJson(`${t.url}/api/v2/${path}`);
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body.result;
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v3-index" });
  sender = new LocalnetSender(net, net.genesis.wallets.find((w) => w.version === "v4r2")!);
  await sender.send({ to: alice, value: toNano("2"), bounce: false, body: beginCell().storeUint(0, 32).storeStringTail("hello v3").endCell() });
  await sender.send({ to: bob, value: toNano("1"), bounce: true });
  const v3w = WalletContractV3R2.create({ workchain: 0, publicKey: Buffer.alloc(32, 7) });
  deployed = await sender.deploy(v3w.init, toNano("0.5"));
  const v5 = net.genesis.wallets.find((w) => w.version === "v5r1")!.address;
  await sender.send(
    { to: v5, value: toNano("0.1"), body: beginCell().storeUint(0x12345678, 32).storeUint(7, 64).endCell() },
    { to: alice, value: toNano("0.1"), bounce: false },
  );
  await net.chain.seal();
  head = (await v2Head()).seqno;
  t = await startEmbedded({ globalConfig: net.globalConfig(), index: "on" });
  // the follower catches up with the head
  for (let i = 0; ; i++) {
    const r = await getJson(`${t.url}/api/v3/masterchainInfo`);
    if (r.status === 200 && r.body.last.seqno >= head) break;
    if (i > 300) throw new Error(`not indexed up to ${head}: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 100));
  }
}, 120_000);

async function v2Head(): Promise<{ seqno: number }> {
  const last = net.chain.lastMasterchain!;
  return { seqno: last.id.seqno };
}

afterAll(async () => {
  await t?.close();
  await net?.close();
});

const signedShard = (hex: string) => BigInt.asIntN(64, BigInt("0x" + hex)).toString();

describe("the index equals the chain", () => {
  it("masterchainInfo names the first and the last indexed masterchain blocks", async () => {
    const info = await v3("masterchainInfo");
    expect(info.first.seqno).toBe(1);
    expect(info.last.seqno).toBe(head);
    expect(info.last.workchain).toBe(-1);
    expect(info.last.shard).toBe("8000000000000000");
    expect(typeof info.last.start_lt).toBe("string");
  });

  it("every block and transaction, no gaps or duplicates, same hashes as the liteserver", async () => {
    const seen = new Map<string, number>();
    let transactions = 0;
    for (let mc = 1; mc <= head; mc++) {
      const { blocks } = await v3(`masterchainBlockShards?seqno=${mc}&limit=1000`);
      expect(blocks[0].workchain).toBe(-1);
      for (const b of blocks) {
        const key = `${b.workchain}:${b.shard}`;
        expect(b.seqno, `${key} follows its previous block`).toBe((seen.get(key) ?? 0) + 1);
        seen.set(key, b.seqno);
        expect(b.masterchain_block_ref.seqno).toBe(mc);
        const lite = await v2(`lookupBlock?workchain=${b.workchain}&shard=${signedShard(b.shard)}&seqno=${b.seqno}`);
        expect(b.root_hash).toBe(lite.root_hash);
        expect(b.file_hash).toBe(lite.file_hash);
        const liteTxs = await v2(`getBlockTransactions?workchain=${b.workchain}&shard=${signedShard(b.shard)}&seqno=${b.seqno}&count=256`);
        const ours = await v3(`transactions?workchain=${b.workchain}&shard=${b.shard}&seqno=${b.seqno}&limit=1000&sort=asc`);
        expect(ours.transactions.map((x: any) => x.hash).sort()).toEqual(liteTxs.transactions.map((x: any) => x.hash).sort());
        expect(b.tx_count).toBe(ours.transactions.length);
        transactions += ours.transactions.length;
      }
    }
    expect(transactions).toBeGreaterThan(8);
    // the whole history by masterchain block equals the sum of the blocks
    let total = 0;
    for (let mc = 1; mc <= head; mc++) total += (await v3(`transactionsByMasterchainBlock?seqno=${mc}&limit=1000`)).transactions.length;
    expect(total).toBe(transactions);
  });

  it("latest account states equal the liteserver's", async () => {
    const accounts = [sender.address, alice, bob, deployed];
    const { accounts: states } = await v3(`accountStates?${accounts.map((a) => `address=${a.toString()}`).join("&")}`);
    expect(states.map((s: any) => s.address)).toEqual(accounts.map(raw));
    for (const s of states) {
      const lite = await v2(`getAddressInformation?address=${s.address}`);
      expect(s.balance).toBe(lite.balance);
      // bob bounced the transfer and was never created: the liteserver has no state, the index its last transaction
      if (s.status === "nonexist") {
        expect(lite.state).toBe("uninitialized");
        continue;
      }
      expect(s.last_transaction_lt).toBe(lite.last_transaction_id.lt);
      expect(s.last_transaction_hash).toBe(lite.last_transaction_id.hash);
      expect(s.status).toBe(lite.state === "uninitialized" ? "uninit" : lite.state);
    }
    const index = await v3(`addressInformation?address=${sender.address.toString()}`);
    const viaV2 = await v3(`addressInformation?address=${sender.address.toString()}&use_v2=true`);
    const { code: indexCode, data: indexData, ...indexRest } = index;
    const { code: liteCode, data: liteData, ...liteRest } = viaV2;
    expect(indexRest).toEqual(liteRest);
    expect(Cell.fromBase64(indexData).hash()).toEqual(Cell.fromBase64(liteData).hash());
    // the genesis wallet's code is in no indexed block (blocks carry only changed cells): the
    // indexer took it from the liteserver, checked against the code hash the block gave
    expect(Cell.fromBase64(indexCode).hash()).toEqual(Cell.fromBase64(liteCode).hash());
  });
});

describe("transactions and messages", () => {
  it("a transaction carries its phases, messages with contents and states", async () => {
    const { transactions, address_book } = await v3(`transactions?account=${bob.toString()}&limit=10`);
    expect(transactions).toHaveLength(1);
    const tx = transactions[0];
    expect(tx.account).toBe(raw(bob));
    expect(tx.description.type).toBe("ord");
    expect(tx.description.compute_ph.skipped).toBe(true);
    expect(tx.description.bounce.type).toBe("ok");
    expect(tx.out_msgs).toHaveLength(1);
    expect(tx.out_msgs[0].bounced).toBe(true);
    expect(tx.in_msg.source).toBe(raw(sender.address));
    expect(tx.in_msg.message_content.body).toMatch(/^te6/);
    expect(tx.finality).toBe("finalized");
    expect(tx.block_ref.shard).toBe("8000000000000000");
    expect(address_book[raw(sender.address)].user_friendly).toBe(sender.address.toString({ bounceable: false }));
    expect(address_book[raw(sender.address)].interfaces).toEqual(["wallet_v4r2"]);
    expect(address_book[raw(bob)].user_friendly).toBe(bob.toString({ bounceable: false }));
  });

  it("opcodes are 0x%08x, and transactionsByMessage finds the receiver by opcode", async () => {
    const { transactions } = await v3(`transactionsByMessage?opcode=0x12345678`);
    expect(transactions).toHaveLength(1);
    expect(transactions[0].in_msg.opcode).toBe("0x12345678");
    const byHash = await v3(`transactionsByMessage?msg_hash=${encodeURIComponent(transactions[0].in_msg.hash)}`);
    expect(byHash.transactions.map((x: any) => x.hash).sort()).toHaveLength(2); // sender (out) and receiver (in)
  });

  it("messages carry decoded_opcode and message_content.decoded, the same from the key index and from ClickHouse", async () => {
    // by account: the key index; all transactions in lt order: ClickHouse
    const byAccount = (await v3(`transactions?account=${alice.toString()}&limit=10&sort=asc`)).transactions;
    const all = (await v3(`transactions?limit=1000&sort=asc`)).transactions;
    const comment = byAccount.find((x: any) => x.in_msg.opcode === "0x00000000");
    expect(comment.in_msg.decoded_opcode).toBe("text_comment");
    expect(comment.in_msg.message_content.decoded).toEqual({ "@type": "text_comment", comment: "hello v3", type: "text_comment" });
    expect(all.find((x: any) => x.hash === comment.hash)).toEqual(comment);
    // the wallet's signed external: no opcode name, its body read as a v4 wallet's, the comment inside
    const external = all.find((x: any) => x.out_msgs.some((m: any) => m.hash === comment.in_msg.hash));
    expect(external.in_msg.decoded_opcode).toBeUndefined();
    expect(external.in_msg.message_content.decoded["@type"]).toBe("wallet_signed_v4");
    expect(JSON.stringify(external.in_msg.message_content.decoded)).toContain('"text":"hello v3"');
    // an opcode without a constructor: neither a name nor a decoding; a StateInit is not decoded
    const unknown = (await v3(`transactionsByMessage?opcode=0x12345678`)).transactions[0];
    expect(unknown.in_msg.decoded_opcode).toBeUndefined();
    expect(unknown.in_msg.message_content.decoded).toBeUndefined();
    const deploy = all.find((x: any) => x.out_msgs.some((m: any) => m.init_state));
    expect(deploy.out_msgs.find((m: any) => m.init_state).init_state.decoded).toBeUndefined();
  });

  it("adjacentTransactions gives the parent and the children", async () => {
    const { transactions: [bounce] } = await v3(`transactions?account=${bob.toString()}`);
    const { transactions } = await v3(`adjacentTransactions?hash=${encodeURIComponent(bounce.hash)}`);
    expect(transactions.map((x: any) => x.account)).toEqual([raw(sender.address), raw(sender.address)]);
    const parent = await v3(`adjacentTransactions?hash=${encodeURIComponent(bounce.hash)}&direction=in`);
    expect(parent.transactions).toHaveLength(1);
    expect(BigInt(parent.transactions[0].lt)).toBeLessThan(BigInt(bounce.lt));
  });

  it("cursor paging walks an account's history once, in order, like one big page", async () => {
    const all = (await v3(`transactions?account=${sender.address.toString()}&limit=1000`)).transactions.map((x: any) => x.hash);
    expect(all.length).toBeGreaterThanOrEqual(5);
    for (const sort of ["desc", "asc"]) {
      const got: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await v3(`transactions?account=${sender.address.toString()}&limit=2&sort=${sort}${cursor ? `&cursor=${cursor}` : ""}`);
        got.push(...page.transactions.map((x: any) => x.hash));
        cursor = page.next_cursor;
      } while (cursor);
      expect(got).toEqual(sort === "desc" ? all : [...all].reverse());
    }
    // offset paging gives the same pages
    const second = (await v3(`transactions?account=${sender.address.toString()}&limit=2&offset=2`)).transactions.map((x: any) => x.hash);
    expect(second).toEqual(all.slice(2, 4));
  });

  it("exclude_account works (toncenter ignores it)", async () => {
    const { transactions } = await v3(`transactions?exclude_account=${sender.address.toString()}&limit=1000`);
    expect(transactions.length).toBeGreaterThan(0);
    expect(transactions.every((x: any) => x.account !== raw(sender.address))).toBe(true);
  });

  it("/messages by source, by null source (external), with both transaction sides", async () => {
    const { messages } = await v3(`messages?source=${sender.address.toString()}&limit=100`);
    expect(messages.length).toBeGreaterThanOrEqual(5);
    for (const m of messages) expect(m.source).toBe(raw(sender.address));
    const toBob = messages.find((m: any) => m.destination === raw(bob));
    expect(toBob.in_msg_tx_hash).toBeTruthy();
    expect(toBob.out_msg_tx_hash).toBeTruthy();
    // the source page (its rows from the sending transactions, migrations/0004) says what the
    // message table says by hash: same objects, both transaction sides
    const byHash = await v3(`messages?${messages.map((m: any) => `msg_hash=${encodeURIComponent(m.hash)}`).join("&")}&limit=100`);
    const sorted = (list: any[]) => [...list].sort((a, b) => (a.hash < b.hash ? -1 : 1));
    expect(sorted(messages)).toEqual(sorted(byHash.messages));
    const ext = await v3(`messages?source=null&destination=${sender.address.toString()}&limit=100`);
    expect(ext.messages.length).toBe(4);
    for (const m of ext.messages) {
      expect(m.source).toBeUndefined();
      expect(m.hash_norm).toBeTruthy();
    }
    const created = messages.map((m: any) => BigInt(m.created_lt));
    expect(created).toEqual([...created].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
  });
});

describe("accounts and traces", () => {
  it("walletStates, walletInformation, addressBook, topAccountsByBalance", async () => {
    const { wallets } = await v3(`walletStates?address=${sender.address.toString()}&address=${alice.toString()}`);
    expect(wallets[0]).toMatchObject({ address: raw(sender.address), is_wallet: true, wallet_type: "wallet v4 r2", seqno: 4, wallet_id: 698983191 });
    expect(wallets[1]).toMatchObject({ address: raw(alice), is_wallet: false, status: "uninit" });
    const info = await v3(`walletInformation?address=${sender.address.toString()}`);
    expect(info).toMatchObject({ wallet_type: "wallet v4 r2", seqno: 4, status: "active" });
    const notWallet = await getJson(`${t.url}/api/v3/walletInformation?address=${alice.toString()}`);
    expect(notWallet.status).toBe(409);
    expect(notWallet.body).toEqual({ error: "not a wallet" });
    const book = await v3(`addressBook?address=${sender.address.toString()}&address=${raw(deployed)}`);
    expect(Object.keys(book)).toEqual([sender.address.toString(), raw(deployed)]);
    expect(book[raw(deployed)].interfaces).toEqual(["wallet_v3r2"]);
    const top = await v3(`topAccountsByBalance?limit=3`);
    expect(top).toHaveLength(3);
    expect(BigInt(top[0].balance)).toBeGreaterThanOrEqual(BigInt(top[1].balance));
  });

  it("the bounce is one complete trace of three transactions, with its tree", async () => {
    const { transactions: [bounce] } = await v3(`transactions?account=${bob.toString()}`);
    const { traces } = await v3(`traces?tx_hash=${encodeURIComponent(bounce.hash)}`);
    expect(traces).toHaveLength(1);
    const tr = traces[0];
    expect(tr.trace_info).toMatchObject({ trace_state: "complete", transactions: 3, pending_messages: 0 });
    expect(tr.transactions_order).toHaveLength(3);
    expect(tr.trace.tx_hash).toBe(tr.trace_id);
    expect(tr.trace.children[0].tx_hash).toBe(bounce.hash);
    expect(tr.trace.children[0].children).toHaveLength(1);
    expect(tr.external_hash).toBeTruthy();
    const byAccount = await v3(`traces?account=${sender.address.toString()}&limit=100`);
    expect(byAccount.traces.length).toBeGreaterThanOrEqual(4);
  });

  it("v2-style methods through lite-proxy: runGetMethod, estimateFee, message", async () => {
    const run = await postJson(`${t.url}/api/v3/runGetMethod`, { address: sender.address.toString(), method: "seqno", stack: [] });
    expect(run.status).toBe(200);
    expect(v3ResponseErrors("/api/v3/runGetMethod", run.body)).toBeNull();
    expect(run.body).toMatchObject({ exit_code: 0, stack: [{ type: "num", value: "0x4" }] });
    const genesis = net.genesis.wallets.find((w) => w.version === "v4r2")!;
    const transfer = WalletContractV4.create({ workchain: 0, publicKey: genesis.keyPair.publicKey }).createTransfer({
      seqno: 4,
      secretKey: genesis.keyPair.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: alice, value: toNano("0.01"), bounce: false })],
    });
    const fee = await postJson(`${t.url}/api/v3/estimateFee`, { address: sender.address.toString(), body: transfer.toBoc().toString("base64") });
    expect(fee.status).toBe(200);
    expect(v3ResponseErrors("/api/v3/estimateFee", fee.body)).toBeNull();
    expect(fee.body.source_fees.gas_fee).toBeGreaterThan(0);
    const bad = await postJson(`${t.url}/api/v3/message`, { boc: "te6notaboc" });
    expect(bad.status).toBe(422);
    // base64 letters of a length no base64 has (4n + 1)
    for (const value of ["te6cc", "A"]) {
      const cell = await postJson(`${t.url}/api/v3/runGetMethod`, { address: sender.address.toString(), method: "seqno", stack: [{ type: "cell", value }] });
      expect(cell.status, JSON.stringify(cell.body)).toBe(422);
      expect(cell.body.error).toMatch(/^stack\[0\]\.value: expected a base64 BoC/);
    }
  });
});

describe("strict requests", () => {
  it("unknown parameters, limits, sort, cursor misuse and bad values are 422 naming the parameter", async () => {
    const cases: [string, RegExp][] = [
      ["transactions?owner_id=1", /unknown parameter "owner_id"/],
      ["transactions?limit=1001", /limit: must be at most 1000/],
      ["transactions?limit=0", /limit: must be at least 1/],
      ["transactions?sort=up", /sort: expected one of asc, desc/],
      ["transactions?account=nope", /account\[0\]/],
      ["transactions?offset=1&cursor=abc", /at most one of offset, cursor/],
      ["transactions?cursor=abc", /cursor: not a cursor/],
      ["blocks?shard=xyz", /shard: expected a shard/],
      ["messages?opcode=zz", /opcode: expected a 32-bit opcode/],
      ["messages?exclude_externals=true&only_externals=true", /at most one of exclude_externals, only_externals/],
      ["transactionsByMessage?direction=in", /exactly one of msg_hash, body_hash, opcode/],
      ["masterchainBlockShards", /seqno: required parameter is missing/],
      ["traces?account=x&tx_hash=y", /at most one of|account/],
    ];
    for (const [path, message] of cases) {
      const r = await getJson(`${t.url}/api/v3/${path}`);
      expect(r.status, path).toBe(422);
      expect(r.body.error, path).toMatch(message);
    }
    // a cursor of one endpoint is refused by another
    const page = await v3(`transactions?account=${sender.address.toString()}&limit=1`);
    const other = await getJson(`${t.url}/api/v3/messages?cursor=${page.next_cursor}`);
    expect(other.status).toBe(422);
    expect((await getJson(`${t.url}/api/v3/masterchainBlockShards?seqno=999999`)).status).toBe(404);
  });

  it("the generated OpenAPI document lists every v3 path of the contract, with its parameters", async () => {
    const doc = (await getJson(`${t.url}/api/v3/openapi.json`)).body;
    for (const path of ["transactions", "messages", "blocks", "traces", "accountStates", "walletStates", "addressBook", "runGetMethod"]) {
      expect(doc.paths[`/api/v3/${path}`], path).toBeDefined();
    }
    const params = (doc.paths["/api/v3/transactions"].get.parameters as { name: string }[]).map((p) => p.name);
    expect(params).toEqual(expect.arrayContaining(["account", "exclude_account", "limit", "offset", "sort", "cursor"]));
  });

  it("every parameter v3.yaml declares for these paths is accepted, with its default limit", async () => {
    for (const path of ["blocks", "transactions", "messages", "traces", "topAccountsByBalance", "masterchainBlockShards"]) {
      const params = v3Parameters(`/api/v3/${path}`);
      expect(params.get("limit")?.default, path).toBe(10);
    }
    expect((await v3("transactions")).transactions).toHaveLength(10);
    expect((await v3("blocks")).blocks).toHaveLength(10);
  });
});
