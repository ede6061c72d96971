// The masterchain as mainnet has it: special accounts (elector -1:3333…, config
// -1:5555…) with StateInit special flags, a tick transaction at the start of every
// masterchain block and a tock at its end, around the ordinary messages (as in
// mainnet block -1:24374597: elector tick, elector internal, config tock). Checked
// on real blocks of a running localnet, and through the liteserver protocol.
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { Address, beginCell, Cell, external, internal, loadTransaction, parseTuple, serializeTuple, storeMessage, toNano, type Transaction, type TupleItem } from "@ton/core";
import type { PrevBlocksInfo } from "@ton/sandbox";
import { WalletContractV4 } from "@ton/ton";
import { applyMerkleUpdate, blockCell, loadMerkleUpdate, parseBlock } from "@tongate/block";
import { LiteClient, LiteSingleEngine } from "ton-lite-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileSpecialContract, codeBoc } from "../scripts/compile-special-contracts.js";
import type { BlockRecord } from "../src/chain/chain.js";
import { buildShardState } from "../src/chain/state.js";
import { prevBlocksInfoBoc } from "@tongate/emulator";
import { Localnet } from "../src/localnet.js";
import { localnetProofs } from "../src/proofs.js";
import { SPECIAL_CONTRACTS, specialAccountIds, specialContractBocUrl, specialContractCode, type SpecialContractName } from "../src/special-accounts.js";

const ELECTOR = Address.parseRaw(`-1:${"33".repeat(32)}`);
const CONFIG = Address.parseRaw(`-1:${"55".repeat(32)}`);

let net: Localnet;
let client: LiteClient;
let engine: LiteSingleEngine;
/** The masterchain block in which a wallet's message reached the elector. */
let withMessage: BlockRecord;

const txsOf = (b: BlockRecord): Transaction[] => b.transactions.map((t) => loadTransaction(t.cell.beginParse()));
const isTickTock = (t: Transaction, tock: boolean) => t.description.type === "tick-tock" && t.description.isTock === tock;

beforeAll(async () => {
  net = await Localnet.start({ seed: "ticktock", wallets: 1, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, emulator: { size: 2 } });
  for (let i = 0; i < 2; i++) await net.chain.seal();
  // A wallet pays the elector: workchain 0 → masterchain, delivered in the same seal's masterchain block.
  const w = net.genesis.wallets.find((x) => x.version === "v4r2")!;
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
  const body = wallet.createTransfer({ seqno: 0, secretKey: w.keyPair.secretKey, messages: [internal({ to: ELECTOR, value: toNano(5), bounce: true })] });
  await net.chain.sendExternal(beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell().toBoc());
  withMessage = await net.chain.seal();
  await net.chain.seal();
  const ls = net.liteservers[0]!;
  engine = new LiteSingleEngine({ host: `tcp://${ls.host}:${ls.port}`, publicKey: ls.publicKey });
  await once(engine, "ready");
  client = new LiteClient({ engine });
});

afterAll(async () => {
  engine?.close();
  await net?.close();
});

describe("special accounts", () => {
  it("their committed code is what the FunC sources compile to", async () => {
    for (const name of Object.keys(SPECIAL_CONTRACTS) as SpecialContractName[]) {
      const fresh = await compileSpecialContract(name);
      expect(readFileSync(specialContractBocUrl(name)), `${name}.boc: run scripts/compile-special-contracts.ts`).toEqual(codeBoc(fresh));
    }
  });

  it("genesis deploys the elector (tick) and the config contract (tock) at the config's addresses", () => {
    const accounts = net.genesis.masterchainAccounts;
    expect([...accounts.keys()].sort()).toEqual([ELECTOR, CONFIG].map((a) => a.hash.toString("hex")).sort());
    for (const [address, name] of [
      [ELECTOR, "elector"],
      [CONFIG, "config"],
    ] as const) {
      const state = accounts.get(address.hash.toString("hex"))!.account!.storage;
      expect(state.state.type).toBe("active");
      if (state.state.type !== "active") continue;
      expect(state.state.state.special).toEqual(SPECIAL_CONTRACTS[name].special);
      expect(state.state.state.code!.hash()).toEqual(specialContractCode(name).hash());
      expect(state.balance.coins).toBe(SPECIAL_CONTRACTS[name].balance);
    }
    expect(SPECIAL_CONTRACTS.elector.special).toEqual({ tick: true, tock: false });
    expect(SPECIAL_CONTRACTS.config.special).toEqual({ tick: false, tock: true });
    // The collator's list: config param 31 (the elector among them) and the config address.
    const ids = specialAccountIds(net.genesis.config);
    expect(ids).toContain(ELECTOR.hash.toString("hex"));
    expect(ids).toContain(CONFIG.hash.toString("hex"));
  });
});

describe("tick and tock transactions", () => {
  it("every masterchain block starts with the elector's tick and ends with the config's tock", () => {
    expect(net.chain.masterchain).toHaveLength(5); // the one Localnet.start seals, and four
    for (const b of net.chain.masterchain) {
      const txs = txsOf(b);
      const first = txs[0]!;
      const lastTx = txs[txs.length - 1]!;
      expect(first.address).toBe(BigInt(`0x${ELECTOR.hash.toString("hex")}`));
      expect(isTickTock(first, false)).toBe(true);
      expect(first.lt).toBe(b.startLt + 1n); // as mainnet: ticks at the block's start lt + 1
      expect(lastTx.address).toBe(BigInt(`0x${CONFIG.hash.toString("hex")}`));
      expect(isTickTock(lastTx, true)).toBe(true);
      expect(lastTx.lt).toBe(b.endLt - 1n); // the last transaction of the block
      for (const t of txs.slice(1, -1)) expect(t.description.type).toBe("generic");
      // lts increase through the block
      for (let i = 1; i < txs.length; i++) expect(txs[i]!.lt).toBeGreaterThan(txs[i - 1]!.lt);
      for (const t of [first, lastTx]) {
        expect(t.inMessage).toBeUndefined();
        expect(t.outMessagesCount).toBe(0);
        expect(t.totalFees.coins).toBe(0n); // special accounts pay no gas and no storage
        const d = t.description;
        if (d.type !== "tick-tock") continue;
        expect(d.aborted).toBe(false);
        expect(d.computePhase.type).toBe("vm");
        if (d.computePhase.type === "vm") expect(d.computePhase.exitCode).toBe(0);
      }
    }
  });

  it("orders the ordinary messages between them, like mainnet block -1:24374597", () => {
    const txs = txsOf(withMessage);
    expect(txs.map((t) => [t.address.toString(16).slice(0, 4), t.description.type, t.inMessage?.info.type ?? null])).toEqual([
      ["3333", "tick-tock", null],
      ["3333", "generic", "internal"],
      ["5555", "tick-tock", null],
    ]);
    const [tick, ordinary, tock] = txs as [Transaction, Transaction, Transaction];
    expect(ordinary.lt).toBeGreaterThan(tick.lt);
    expect(ordinary.prevTransactionLt).toBe(tick.lt);
    expect(tock.lt).toBeGreaterThan(ordinary.lt);
  });

  it("the blocks hold them: account blocks, no message descriptions, state_update that applies", () => {
    let prevState = net.chain.mcZero.root;
    for (const b of net.chain.masterchain) {
      const parsed = parseBlock(b.root);
      expect(blockCell(parsed).hash()).toEqual(b.id.rootHash);
      const byAccount = new Map([...parsed.extra.accountBlocks].map(([k, ab]) => [k.toString(16).padStart(64, "0"), [...ab.value.transactions.keys()].length]));
      expect(byAccount.get(ELECTOR.hash.toString("hex"))).toBe(b === withMessage ? 2 : 1);
      expect(byAccount.get(CONFIG.hash.toString("hex"))).toBe(1);
      // Tick and tock transactions have no message: only the elector's inbound message is described.
      expect(parsed.extra.inMsgDescr.size).toBe(b === withMessage ? 1 : 0);
      expect(parsed.extra.outMsgDescr.size).toBe(0);
      expect(parsed.valueFlow.feesCollected.coins).toBe(0n);
      const su = loadMerkleUpdate(b.root.refs[2]!);
      expect(applyMerkleUpdate(prevState, su).hash()).toEqual(b.stateRoot.hash());
      prevState = b.stateRoot;
    }
  });

  it("the contracts count their ticks and tocks, read with runSmcMethod", async () => {
    const mc = (await client.getMasterchainInfo()).last;
    const n = net.chain.masterchain.length;
    for (const [address, expected] of [
      [ELECTOR, [n, 0]],
      [CONFIG, [0, n]],
    ] as const) {
      const r = await client.runMethod(address, "ticktock_counts", Buffer.alloc(0), mc);
      expect(r.exitCode).toBe(0);
      expect(parseTuple(Cell.fromBase64(r.result!)).map((x) => (x.type === "int" ? Number(x.value) : NaN))).toEqual(expected);
    }
    const state = await client.getAccountState(ELECTOR, mc);
    expect(state.balance.coins).toBeGreaterThan(SPECIAL_CONTRACTS.elector.balance + toNano(4.9)); // it kept the wallet's 5 TON
  });

  it("the liteserver lists them in the block and in the accounts' histories", async () => {
    const b = net.chain.lastMasterchain!;
    const id = { workchain: -1, shard: "-9223372036854775808", seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash };
    const listed = await client.listBlockTransactions(id, { mode: 7, count: 10 });
    expect(listed.incomplete).toBe(false);
    expect(listed.ids.map((t) => [Buffer.from(t.account!).toString("hex").slice(0, 4), t.lt])).toEqual([
      ["3333", (b.startLt + 1n).toString()],
      ["5555", (b.endLt - 1n).toString()],
    ]);
    const state = await client.getAccountState(CONFIG, id);
    const last = state.lastTx!;
    const history = await client.getAccountTransactions(CONFIG, last.lt.toString(), Buffer.from(last.hash.toString(16).padStart(64, "0"), "hex"), 10);
    const txs = Cell.fromBoc(history.transactions).map((c) => loadTransaction(c.beginParse()));
    expect(txs).toHaveLength(net.chain.masterchain.length);
    for (const t of txs) expect(isTickTock(t, true)).toBe(true);
  });

  it("accepts no external message to a special account", async () => {
    const msg = beginCell().store(storeMessage(external({ to: CONFIG, body: beginCell().storeUint(0, 32).endCell() }))).endCell();
    await expect(net.chain.sendExternal(msg.toBoc())).rejects.toThrow(/not accepted/);
  });
});

describe("c7 prev_blocks_info (built once per block, for its tick and tock at least)", () => {
  it("is the VmStackValue @ton/core's serializeTuple lays out", () => {
    const id = (x: PrevBlocksInfo["prevKeyBlock"]): TupleItem => ({
      type: "tuple",
      items: [x.workchain, x.shard, x.seqno, BigInt(`0x${x.rootHash.toString("hex")}`), BigInt(`0x${x.fileHash.toString("hex")}`)].map((v) => ({ type: "int", value: BigInt(v) })),
    });
    const reference = (info: PrevBlocksInfo): string => {
      const items: TupleItem[] = [{ type: "tuple", items: info.lastMcBlocks.map(id) }, id(info.prevKeyBlock)];
      if (info.lastMcBlocks100) items.push({ type: "tuple", items: info.lastMcBlocks100.map(id) });
      const stack = serializeTuple([{ type: "tuple", items }]).beginParse(); // a VmStack: depth, rest, then the entry
      stack.skip(24);
      stack.loadRef();
      return stack.asCell().toBoc().toString("base64");
    };
    const block = (seqno: number) => ({ workchain: -1, shard: 0x8000000000000000n, seqno, rootHash: randomBytes(32), fileHash: randomBytes(32) });
    const blocks = Array.from({ length: 17 }, (_, i) => block(100 - i));
    for (const n of [1, 2, 3, 16]) {
      for (const with100 of [false, true]) {
        const info: PrevBlocksInfo = { lastMcBlocks: blocks.slice(0, n), prevKeyBlock: blocks[16]!, ...(with100 ? { lastMcBlocks100: blocks.slice(0, 3) } : {}) };
        expect(prevBlocksInfoBoc(info)).toBe(reference(info));
      }
    }
  });
});
