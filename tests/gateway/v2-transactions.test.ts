// API v2 transaction methods end to end on a localnet with traffic: a genesis wallet sends a text comment,
// a binary body, a bounced transfer and one message carrying three odd bodies (a comment, text that is not
// UTF-8, an "encrypted" op 1 body). Every answer is checked against v2.json and against the transactions
// the localnet holds.
import { Address, beginCell, Cell, external, internal, loadTransaction, SendMode, storeMessage, type MessageRelaxed } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import type { Localnet } from "@tongate/localnet";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, postJson, startEmbedded, type Embedded } from "../support/embedded.js";
import { v2ErrorErrors, v2ResponseErrors, v2Spec } from "../support/v2-schema.js";
import { startTestLocalnet } from "../support/localnet.js";

let net: Localnet;
let t: Embedded;
let wallet: Address;

const MC_SHARD = "-9223372036854775808";
const TON = 1_000_000_000n;
const alice = new Address(0, Buffer.alloc(32, 0xa1));
const bob = new Address(0, Buffer.alloc(32, 0xb0)); // never deployed: a bounceable transfer to it bounces
const longComment = `hello tongate ${"x".repeat(150)}`; // longer than a cell: a snake string over two cells

/** v2.json's component schemas, for the results its paths declare as a bare object. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
for (const f of ["int32", "int64", "uint32", "uint64", "double", "float", "byte"]) ajv.addFormat(f, true);
ajv.addSchema({ ...v2Spec, $id: "v2.json" });
function schemaErrors(name: string, value: unknown): string | null {
  const validate = ajv.getSchema(`v2.json#/components/schemas/${name}`)!;
  return validate(value) ? null : ajv.errorsText(validate.errors);
}

beforeAll(async () => {
  net = await startTestLocalnet({ seed: "v2-transactions" });
  const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
  const contract = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
  wallet = contract.address;
  let seqno = 0;
  const send = async (messages: MessageRelaxed[]) => {
    const body = contract.createTransfer({ seqno: seqno++, secretKey: w.keyPair.secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS });
    await net.chain.sendExternal(beginCell().store(storeMessage(external({ to: wallet, body }))).endCell().toBoc());
    await net.chain.seal();
  };
  await send([internal({ to: alice, value: 2n * TON, bounce: false, body: longComment })]);
  await send([internal({ to: net.genesis.wallets.find((x) => x.version === "v5r1")!.address, value: TON, bounce: false, body: beginCell().storeUint(0x12345678, 32).storeUint(7, 64).endCell() })]);
  await send([internal({ to: bob, value: TON, bounce: true })]);
  await send([
    internal({ to: alice, value: TON / 10n, bounce: false, body: "n1" }),
    internal({ to: alice, value: TON / 10n, bounce: false, body: beginCell().storeUint(0, 32).storeBuffer(Buffer.from([0xff, 0xfe, 0x41])).endCell() }),
    internal({ to: alice, value: TON / 10n, bounce: false, body: beginCell().storeUint(1, 32).storeBuffer(Buffer.from("secret")).endCell() }),
  ]);
  await net.chain.seal();
  t = await startEmbedded({ globalConfig: net.globalConfig() });
});

afterAll(async () => {
  await t?.close();
  await net?.close();
});

/**
 * v2.json's TransactionExt is allOf(TransactionStd, {"@type": raw.transactionExt, account}) with both parts
 * closed (additionalProperties false, different "@type"s): no object satisfies it. getBlockTransactionsExt's
 * envelope is checked with the items left out, and each item as a TransactionStd plus its account.
 */
function blockTransactionsExtErrors(body: { result: { transactions: Record<string, unknown>[] } }): string | null {
  const envelope = v2ResponseErrors("/api/v2/getBlockTransactionsExt", { ...body, result: { ...body.result, transactions: [] } });
  const items = body.result.transactions.map(({ account, ...std }) => (typeof account === "string" ? schemaErrors("TransactionStd", { ...std, "@type": "raw.transaction" }) : "no account"));
  return [envelope, ...items].filter((e) => e !== null).join("; ") || null;
}

/** GET /api/v2/<method>; a 200 must validate against v2.json's response schema, an error against its error schema. */
async function get(method: string, params: Record<string, string | number | bigint | boolean> = {}) {
  const q = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const r = await getJson(`${t.url}/api/v2/${method}?${q}`);
  if (r.status !== 200) expect(v2ErrorErrors(r.body)).toBeNull();
  else if (method === "getBlockTransactionsExt") expect(blockTransactionsExtErrors(r.body)).toBeNull();
  else expect(v2ResponseErrors(`/api/v2/${method}`, r.body)).toBeNull();
  return r;
}

const friendly = (a: Address) => a.toString({ bounceable: true, urlSafe: true });
const b64 = (b: Buffer) => b.toString("base64");
/** The localnet's transactions of an account, newest first. */
const history = (a: Address) => net.chain.transactionsFrom(a.workChain, a.hash, 2n ** 63n, 1000);
/** The shard block holding the wallet's transaction that sent `count` messages. */
const blockWith = (lt: bigint) => net.chain.shardchain.find((b) => b.transactions.some((x) => x.lt === lt))!;

interface ApiMessage {
  hash: string;
  source: string;
  destination: string;
  value: string;
  created_lt: string;
  fwd_fee: string;
  msg_data: { "@type": string; body?: string; text?: string; init_state?: string };
  message?: string;
  message_decode_error?: string;
}
interface ApiTx {
  "@type": string;
  account: string;
  address: { account_address: string };
  utime: number;
  data: string;
  transaction_id: { lt: string; hash: string };
  fee: string;
  storage_fee: string;
  other_fee: string;
  in_msg?: ApiMessage;
  out_msgs: ApiMessage[];
}

/** The fields of a rendered transaction that follow from its cell alone, checked against @ton/core's reading of it. */
function expectRendersCell(tx: ApiTx, cell: Cell) {
  const parsed = loadTransaction(cell.beginParse());
  expect(Cell.fromBase64(tx.data).hash()).toEqual(cell.hash());
  expect(tx.transaction_id).toEqual({ "@type": "internal.transactionId", lt: parsed.lt.toString(), hash: b64(cell.hash()) });
  expect(tx.utime).toBe(parsed.now);
  const fwd = [...parsed.outMessages.values()].reduce((s, m) => s + (m.info.type === "internal" ? m.info.forwardFee : 0n), 0n);
  expect(BigInt(tx.fee)).toBe(parsed.totalFees.coins + fwd);
  expect(BigInt(tx.other_fee)).toBe(BigInt(tx.fee) - BigInt(tx.storage_fee));
  expect(tx.out_msgs).toHaveLength(parsed.outMessagesCount);
}

describe("API v2 transactions over a localnet", () => {
  it("getTransactions: the wallet's history newest first, in toncenter's ext shape", async () => {
    const r = await get("getTransactions", { address: friendly(wallet), limit: 20 });
    expect(r.status).toBe(200);
    const txs: ApiTx[] = r.body.result;
    const local = history(wallet);
    expect(txs.map((x) => x.transaction_id.hash)).toEqual(local.map((x) => b64(x.hash)));
    txs.forEach((x, i) => expectRendersCell(x, local[i]!.cell));
    for (const x of txs) {
      expect(x).toMatchObject({ "@type": "ext.transaction", account: `0:${wallet.hash.toString("hex").toUpperCase()}`, address: { "@type": "accountAddress", account_address: friendly(wallet) } });
    }

    // The first transfer (oldest): an external in, one out message with the long comment.
    const first = txs.at(-1)!;
    expect(first.in_msg).toMatchObject({ "@type": "ext.message", source: "", destination: friendly(wallet), value: "0", created_lt: "0" });
    expect(first.in_msg!.msg_data["@type"]).toBe("msg.dataRaw");
    const out = first.out_msgs[0]!;
    expect(out).toMatchObject({ source: friendly(wallet), destination: friendly(alice), value: (2n * TON).toString(), message: longComment });
    expect(out.msg_data).toEqual({ "@type": "msg.dataText", text: b64(Buffer.from(longComment)) });
    // A binary body: msg.dataRaw, and "message" is the base64 of the root cell's data plus "\n".
    const raw = txs.at(-2)!.out_msgs[0]!;
    expect(raw.msg_data["@type"]).toBe("msg.dataRaw");
    expect(raw.message).toBe(`${b64(Buffer.from("123456780000000000000007", "hex"))}\n`);
    expect(Cell.fromBase64(raw.msg_data.body!).hash().toString("base64")).toBe((raw as ApiMessage & { body_hash: string }).body_hash);

    // The three-message transfer: a comment, text that is not UTF-8, an op 1 ("encrypted") text.
    const multi = txs.find((x) => x.out_msgs.length === 3)!;
    const [n1, bad, enc] = multi.out_msgs;
    expect(n1).toMatchObject({ message: "n1", msg_data: { "@type": "msg.dataText", text: b64(Buffer.from("n1")) } });
    expect(bad!.message).toBeUndefined();
    expect(bad!.message_decode_error).toMatch(/UTF-8/);
    expect(bad!.msg_data).toEqual({ "@type": "msg.dataText", text: b64(Buffer.from([0xff, 0xfe, 0x41])) });
    expect(enc!.msg_data).toEqual({ "@type": "msg.dataEncryptedText", text: b64(Buffer.from("secret")) });
    expect(Number(multi.out_msgs[1]!.created_lt)).toBeGreaterThan(Number(n1!.created_lt));

    // The receiving side sees the very message cells the wallet sent (same hashes).
    const received: ApiTx[] = (await get("getTransactions", { address: alice.toRawString() })).body.result;
    expect(received.map((x) => x.in_msg!.hash).sort()).toEqual([out, ...multi.out_msgs].map((m) => m.hash).sort());
  });

  it("a bounced transfer, seen from both sides", async () => {
    // bob does not exist before or after (a bounced message leaves no account): its state names no last
    // transaction, so getTransactions has nothing to start from; tryLocateTx finds the transaction in its block.
    expect((await get("getTransactions", { address: friendly(bob) })).body.result).toEqual([]);
    const w: ApiTx[] = (await get("getTransactions", { address: friendly(wallet) })).body.result;
    const toBob = w.flatMap((x) => x.out_msgs).find((m) => m.destination === friendly(bob))!;
    const b = await get("tryLocateTx", { source: friendly(wallet), destination: friendly(bob), created_lt: toBob.created_lt });
    expect(b.status).toBe(200);
    expect(b.body.result.transaction_id.hash).toBe(b64(history(bob)[0]!.hash));
    expect(b.body.result.in_msg).toMatchObject({ hash: toBob.hash, source: friendly(wallet), destination: friendly(bob), value: TON.toString() });
    const back: ApiMessage = b.body.result.out_msgs[0];
    expect(back).toMatchObject({ source: friendly(bob), destination: friendly(wallet) });
    expect(BigInt(back.value)).toBeLessThan(TON);
    const bounced = w.find((x) => x.in_msg?.source === friendly(bob))!;
    expect(bounced.in_msg!.hash).toBe(back.hash);
    // The bounced body starts with 0xffffffff: a raw body.
    expect(bounced.in_msg!.msg_data["@type"]).toBe("msg.dataRaw");
    const located = await get("tryLocateTx", { source: friendly(bob), destination: friendly(wallet), created_lt: back.created_lt });
    expect(located.body.result.transaction_id).toEqual(bounced.transaction_id);
    const source = await get("tryLocateSourceTx", { source: friendly(bob), destination: friendly(wallet), created_lt: back.created_lt });
    expect(source.body.result.transaction_id).toEqual(b.body.result.transaction_id);
  });

  it("getTransactions pages: limit 1 walking back via lt + hash, to_lt, archival, POST and jsonRPC", async () => {
    const all: ApiTx[] = (await get("getTransactions", { address: friendly(wallet), limit: 100 })).body.result;
    const walked: string[] = [];
    let cursor: Record<string, string> = {};
    for (;;) {
      const page: ApiTx[] = (await get("getTransactions", { address: friendly(wallet), limit: 1, ...cursor })).body.result;
      if (page.length === 0) break;
      expect(page).toHaveLength(1);
      walked.push(page[0]!.transaction_id.hash);
      const prev = loadTransaction(Cell.fromBase64(page[0]!.data).beginParse());
      if (prev.prevTransactionLt === 0n) break;
      cursor = { lt: prev.prevTransactionLt.toString(), hash: prev.prevTransactionHash.toString(16).padStart(64, "0") };
    }
    expect(walked).toEqual(all.map((x) => x.transaction_id.hash));

    const newer = await get("getTransactions", { address: friendly(wallet), to_lt: all[2]!.transaction_id.lt });
    expect(newer.body.result.map((x: ApiTx) => x.transaction_id.lt)).toEqual([all[0]!.transaction_id.lt, all[1]!.transaction_id.lt]);
    const fromThird = await get("getTransactions", { address: friendly(wallet), lt: all[2]!.transaction_id.lt, hash: all[2]!.transaction_id.hash, limit: 2, archival: true });
    expect(fromThird.body.result.map((x: ApiTx) => x.transaction_id.hash)).toEqual([all[2]!.transaction_id.hash, all[3]!.transaction_id.hash]);

    const post = await postJson(`${t.url}/api/v2/getTransactions`, { address: wallet.toRawString(), limit: 2 });
    expect(post.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/getTransactions", post.body)).toBeNull();
    expect(post.body.result).toEqual(all.slice(0, 2));
    const rpc = await postJson(`${t.url}/api/v2/jsonRPC`, { jsonrpc: "2.0", id: "tx", method: "getTransactions", params: { address: friendly(wallet), limit: 1 } });
    expect(rpc.body).toMatchObject({ ok: true, id: "tx", result: all.slice(0, 1) });

    expect((await get("getTransactions", { address: new Address(0, Buffer.alloc(32, 0x77)).toRawString() })).body.result).toEqual([]);
  });

  it("getTransactions answers client mistakes and unknown transactions with 4xx", async () => {
    const all: ApiTx[] = (await get("getTransactions", { address: friendly(wallet), limit: 1 })).body.result;
    const unknown = await get("getTransactions", { address: friendly(wallet), lt: all[0]!.transaction_id.lt, hash: Buffer.alloc(32, 5).toString("hex") });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/not found.*archival=true/);
    expect((await get("getTransactions", { address: friendly(wallet), lt: 5 })).status).toBe(422);
    expect((await get("getTransactions", { address: friendly(wallet), limit: 0 })).status).toBe(422);
    expect((await get("getTransactions", { address: friendly(wallet), limit: 1001 })).status).toBe(422);
    const bad = await get("getTransactions", { address: "EQnope" });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/^address: /);
  });

  it("getTransactionsStd: tonlib's raw.transactions with the cursor of the next page", async () => {
    const ext: ApiTx[] = (await get("getTransactions", { address: friendly(wallet), limit: 100 })).body.result;
    const r = await get("getTransactionsStd", { address: friendly(wallet), limit: 2 });
    expect(r.status).toBe(200);
    expect(schemaErrors("TransactionsStd", r.body.result)).toBeNull();
    const { transactions, previous_transaction_id: prev } = r.body.result;
    expect(transactions.map((x: ApiTx) => x["@type"])).toEqual(["raw.transaction", "raw.transaction"]);
    expect(transactions.map((x: ApiTx) => x.transaction_id)).toEqual(ext.slice(0, 2).map((x) => x.transaction_id));
    expect(transactions[0].in_msg.source).toEqual({ "@type": "accountAddress", account_address: "" });
    expect(transactions[0].in_msg.message).toBeUndefined();
    expect(prev).toEqual(ext[2]!.transaction_id);

    // Walking the cursor reaches the start of the history: lt 0.
    let cursor = prev;
    const seen = transactions.length;
    let total = seen;
    while (cursor.lt !== "0") {
      const page = (await get("getTransactionsStd", { address: friendly(wallet), limit: 2, lt: cursor.lt, hash: cursor.hash })).body.result;
      total += page.transactions.length;
      cursor = page.previous_transaction_id;
    }
    expect(total).toBe(ext.length);
  });

  it("getBlockTransactions: short ids in (account, lt) order, paged with after_lt + after_hash", async () => {
    const multi = history(wallet).find((x) => loadTransaction(x.cell.beginParse()).outMessagesCount === 3)!;
    const block = blockWith(multi.lt);
    const expected = [...block.transactions]
      .map((x) => ({ account: loadTransaction(x.cell.beginParse()).address, lt: x.lt, hash: x.hash }))
      .sort((a, b) => (a.account === b.account ? Number(a.lt - b.lt) : a.account < b.account ? -1 : 1));
    expect(expected.length).toBe(4);
    const ref = { workchain: 0, shard: MC_SHARD, seqno: block.id.seqno };
    const r = await get("getBlockTransactions", ref);
    expect(r.status).toBe(200);
    expect(r.body.result).toMatchObject({ "@type": "blocks.transactions", req_count: 40, incomplete: false, id: { seqno: block.id.seqno, root_hash: b64(block.id.rootHash) } });
    const shortIds = expected.map((x) => ({ "@type": "blocks.shortTxId", mode: 7, account: `0:${x.account.toString(16).padStart(64, "0")}`, lt: x.lt.toString(), hash: b64(x.hash) }));
    expect(r.body.result.transactions).toEqual(shortIds);

    // One at a time: after_hash as hex account id, raw address and user-friendly address all work.
    const forms = [(a: string) => a.slice(2), (a: string) => a, (a: string) => Address.parseRaw(a).toString()];
    const paged: unknown[] = [];
    let after: Record<string, string> = {};
    for (let i = 0; ; i++) {
      const page = (await get("getBlockTransactions", { ...ref, count: 1, ...after })).body.result;
      paged.push(...page.transactions);
      expect(page.req_count).toBe(1);
      // As toncenter shows them: mode 7 (account, lt, hash), 135 when listed after a cursor.
      for (const x of page.transactions) expect(x.mode).toBe(i === 0 ? 7 : 135);
      if (!page.incomplete) break;
      const last = page.transactions[0];
      after = { after_lt: last.lt, after_hash: forms[i % 3]!(last.account) };
    }
    expect(paged).toEqual(shortIds.map((x, i) => ({ ...x, mode: i === 0 ? 7 : 135 })));

    const withHashes = await postJson(`${t.url}/api/v2/getBlockTransactions`, { ...ref, root_hash: b64(block.id.rootHash), file_hash: block.id.fileHash.toString("hex"), count: 2 });
    expect(withHashes.status).toBe(200);
    expect(v2ResponseErrors("/api/v2/getBlockTransactions", withHashes.body)).toBeNull();
    expect(withHashes.body.result).toMatchObject({ req_count: 2, incomplete: true, transactions: shortIds.slice(0, 2) });
  });

  it("getBlockTransactions answers client mistakes and unknown blocks with 4xx", async () => {
    const ref = { workchain: 0, shard: MC_SHARD, seqno: 2 };
    for (const count of [0, 10001]) expect((await get("getBlockTransactions", { ...ref, count })).status).toBe(422);
    const half = await get("getBlockTransactions", { ...ref, after_lt: 5 });
    expect(half.status).toBe(422);
    expect(half.body.error).toMatch(/after_lt and after_hash/);
    const badHash = await get("getBlockTransactions", { ...ref, after_lt: 5, after_hash: "zz" });
    expect(badHash.status).toBe(422);
    expect(badHash.body.error).toMatch(/^after_hash: /);
    const unknown = await get("getBlockTransactions", { ...ref, seqno: 10_000 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatch(/seqno 10000 was not found/);
    const wrongHashes = await get("getBlockTransactionsExt", { ...ref, root_hash: b64(Buffer.alloc(32, 1)), file_hash: b64(Buffer.alloc(32, 2)) });
    expect(wrongHashes.status).toBe(404);
    expect(wrongHashes.body.error).toMatch(/not found/);
  });

  it("getBlockTransactionsExt: whole transactions (raw.transactionExt with the account), paged like getBlockTransactions", async () => {
    const multi = history(wallet).find((x) => loadTransaction(x.cell.beginParse()).outMessagesCount === 3)!;
    const block = blockWith(multi.lt);
    const ref = { workchain: 0, shard: MC_SHARD, seqno: block.id.seqno };
    const ids = (await get("getBlockTransactions", ref)).body.result.transactions;
    const r = await get("getBlockTransactionsExt", { ...ref, count: 3 });
    expect(r.status).toBe(200);
    const txs: (ApiTx & { account: string })[] = r.body.result.transactions;
    expect(r.body.result).toMatchObject({ "@type": "blocks.transactionsExt", req_count: 3, incomplete: true });
    expect(txs.map((x) => x.transaction_id.hash)).toEqual(ids.slice(0, 3).map((x: { hash: string }) => x.hash));
    for (const x of txs) {
      expect(x["@type"]).toBe("raw.transactionExt");
      expect(x.account.toLowerCase()).toBe(ids.find((i: { hash: string }) => i.hash === x.transaction_id.hash).account);
      expectRendersCell(x, block.transactions.find((b) => b64(b.hash) === x.transaction_id.hash)!.cell);
    }
    const last = ids[2];
    const rest = (await get("getBlockTransactionsExt", { ...ref, after_lt: last.lt, after_hash: last.account })).body.result;
    expect(rest.incomplete).toBe(false);
    expect(rest.transactions.map((x: ApiTx) => x.transaction_id.hash)).toEqual(ids.slice(3).map((x: { hash: string }) => x.hash));
  });

  it("tryLocateTx / tryLocateResultTx / tryLocateSourceTx find both ends of a message", async () => {
    const out = history(wallet)
      .map((x) => loadTransaction(x.cell.beginParse()))
      .flatMap((x) => [...x.outMessages.values()])
      .find((m) => m.info.type === "internal" && m.info.dest.equals(alice))!;
    const createdLt = (out.info as { createdLt: bigint }).createdLt;
    const params = { source: friendly(wallet), destination: alice.toRawString(), created_lt: createdLt };
    const aliceTx = history(alice).find((x) => loadTransaction(x.cell.beginParse()).inMessage!.info.type === "internal" && (loadTransaction(x.cell.beginParse()).inMessage!.info as { createdLt: bigint }).createdLt === createdLt)!;
    for (const method of ["tryLocateTx", "tryLocateResultTx"]) {
      const r = await get(method, params);
      expect(r.status).toBe(200);
      expect(r.body.result).toMatchObject({ "@type": "ext.transaction", transaction_id: { hash: b64(aliceTx.hash) }, in_msg: { source: friendly(wallet), created_lt: createdLt.toString() } });
    }
    const src = await get("tryLocateSourceTx", params);
    expect(src.status).toBe(200);
    const walletTx = history(wallet).find((x) => x.lt < createdLt)!;
    expect(src.body.result.transaction_id.hash).toBe(b64(walletTx.hash));
    expect(src.body.result.out_msgs.some((m: ApiMessage) => m.destination === friendly(alice) && m.created_lt === createdLt.toString())).toBe(true);

    const missing = await get("tryLocateTx", { ...params, created_lt: createdLt - 1n });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toMatch(/transaction was not found/);
    expect((await get("tryLocateSourceTx", { ...params, destination: friendly(bob) })).status).toBe(404);
    expect((await get("tryLocateTx", { ...params, created_lt: 10n ** 15n })).status).toBe(404);
    expect((await get("tryLocateTx", { ...params, source: "nope" })).status).toBe(422);
  });
});
