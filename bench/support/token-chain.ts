// A localnet chain of jetton and NFT transfers between many owners, for the decoder's benchmarks:
// generated once into a --data-dir (the chain store) and served from there by `tongate localnet`.
//
// Two jettons and two NFT collections, one of each on code tongate knows by hash and one on code it
// does not, so both of the decoder's ways of reading a state are exercised:
//  - the 2022 reference jetton (jetton_minter_legacy / jetton_wallet_legacy of
//    ../shared/fixtures/contracts) and getgems' editable collection with its items
//    (nft_collection_editable / nft_item): known code hashes, states read by the precompiled
//    storage loaders;
//  - the FunC jetton and collection of tests/support/contracts: unknown code, detected by the
//    get-method ids of their code and read by running get_wallet_data / get_nft_data in the emulator.
// Wallets and items are confirmed by their master's or collection's get-method either way.
//
// The senders are the localnet's genesis v5r1 wallets (one external message carries many transfers).
// Every round, each sender sends one transfer of each jetton (to another sender, or to one of a pool
// of holders that never send, whose wallets the transfer deploys) and one NFT transfer (an item it
// holds, to another sender); one block seals the round. 1 in 5 jetton transfers carries a text
// comment as its forward payload; each names the sender as response destination (the excess goes back).
import type { ChildProcess } from "node:child_process";
import { createHash, createPrivateKey, sign as ed25519Sign, type KeyObject } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { Address, beginCell, Cell, contractAddress, external, internal, loadTransaction, SendMode, storeMessage, toNano, type StateInit } from "@ton/core";
import { WalletContractV5R1 } from "@ton/ton";
import { storeJettonInternalTransfer, storeJettonTransfer, storeMinterJettonMint, storeNftTransfer, storeTextComment } from "@tongate/contracts";
import { buildShardState, Localnet, localnetProofs, type GenesisWallet } from "@tongate/localnet";
import { freePort, startProcess } from "./processes.js";
import { contractCode, deployItemBody, jettonMinterData, mintBody, nftCollectionData, offchainContent, onchainContent, snake } from "../../tests/support/contracts/index.js";

export interface TokenChainParams {
  seed: string;
  /** genesis wallets of each kind: v5r1 wallet 0 is the admin, 1..senders send */
  wallets: number;
  senders: number;
  /** jetton and NFT transfers in all (at least) */
  transfers: number;
  /** NFT items each sender holds at the start, per collection */
  itemsPerSender: number;
  /** owners that only receive jettons */
  holders: number;
}

export interface TokenChainInfo extends TokenChainParams {
  transactions: number;
  mcSeqno: number;
  shardBlocks: number;
  /** the first masterchain block of the transfer rounds (the setup comes before it) */
  firstTransferSeqno: number;
  jettonTransfers: number;
  nftTransfers: number;
  /** by masterchain seqno: the transactions of the block and of the shard blocks it commits */
  blockTransactions: number[];
  /** by masterchain seqno: 1 + the shard blocks it commits */
  blockCounts: number[];
  /** transactions whose compute or action phase failed (0 expected) */
  failedTransactions: number;
  generateSeconds: number;
  contracts: { legacyMaster: string; funcMaster: string; getgemsCollection: string; funcCollection: string };
}

const fixture = (name: string): Cell => Cell.fromBoc(readFileSync(new URL(`../../../shared/fixtures/contracts/${name}.code.boc`, import.meta.url)))[0]!;

/** The DER (PKCS #8) header of an Ed25519 private key; the 32-byte seed follows. */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** A wallet signer on node's OpenSSL Ed25519 (the same signature as tweetnacl's, far faster). */
function nodeSigner(secretKey: Buffer): (message: Cell) => Promise<Buffer> {
  const key: KeyObject = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, secretKey.subarray(0, 32)]), format: "der", type: "pkcs8" });
  return (message) => Promise.resolve(ed25519Sign(null, message.hash(), key));
}

/** A genesis v5r1 wallet that signs transfers of many messages, its seqno counted here. */
class Sender {
  readonly wallet: WalletContractV5R1;
  private readonly sign: (m: Cell) => Promise<Buffer>;
  private seqno = 0;

  constructor(g: GenesisWallet, globalId: number) {
    this.wallet = WalletContractV5R1.create({ workchain: 0, publicKey: g.keyPair.publicKey, walletId: { networkGlobalId: globalId } });
    this.sign = nodeSigner(g.keyPair.secretKey);
  }

  get address(): Address {
    return this.wallet.address;
  }

  /** The external message of one transfer of these messages (at most 255). */
  async external(messages: { to: Address; value: bigint; body: Cell; init?: StateInit; bounce?: boolean }[]): Promise<Buffer> {
    const body = await this.wallet.createTransfer({
      seqno: this.seqno++,
      signer: this.sign,
      sendMode: SendMode.PAY_GAS_SEPARATELY | SendMode.IGNORE_ERRORS,
      timeout: Math.floor(Date.now() / 1000) + 3600,
      messages: messages.map((m) => internal({ to: m.to, value: m.value, body: m.body, init: m.init, bounce: m.bounce ?? true })),
    });
    return beginCell().store(storeMessage(external({ to: this.address, body }))).endCell().toBoc();
  }
}

/** Messages of one external at most (a BoC within max_ext_msg_size, the action list within its depth). */
const PER_EXTERNAL = 100;

const holderAddress = (i: number): Address => new Address(0, createHash("sha256").update(`decoder-bench-holder-${i}`).digest());
const emptyPayload = () => ({ cell: Cell.EMPTY, inRef: false });

/** Generates the chain into `dir` (removed first: an interrupted generation leaves a partial store). */
export async function generateTokenChain(dir: string, p: TokenChainParams, log: (line: string) => void): Promise<TokenChainInfo> {
  rmSync(dir, { recursive: true, force: true });
  const t0 = performance.now();
  const net = await Localnet.start({ seed: p.seed, wallets: p.wallets, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: dir, blockIntervalMs: 0, stateWindow: 16 });
  const v5 = net.genesis.wallets.filter((w) => w.version === "v5r1");
  if (v5.length < p.senders + 1) throw new Error(`${v5.length} v5r1 wallets for an admin and ${p.senders} senders`);
  const admin = new Sender(v5[0]!, net.genesis.globalId);
  const senders = v5.slice(1, p.senders + 1).map((g) => new Sender(g, net.genesis.globalId));

  const blockTransactions: number[] = [];
  const blockCounts: number[] = [];
  const count = (b: { mcSeqno: number; transactions: unknown[] }) => {
    blockTransactions[b.mcSeqno] = (blockTransactions[b.mcSeqno] ?? 0) + b.transactions.length;
    blockCounts[b.mcSeqno] = (blockCounts[b.mcSeqno] ?? 0) + 1;
  };
  // the first seal, at start
  for (const b of [...net.chain.masterchain, ...net.chain.shardchain]) count(b);
  let transactions = [...net.chain.masterchain, ...net.chain.shardchain].reduce((n, b) => n + b.transactions.length, 0);
  let shardBlocks = net.chain.shardchain.length;
  let failedTransactions = 0;
  const failures: string[] = [];
  /** Sends the externals, seals one block, counts its transactions and the failed ones. */
  const seal = async (externals: Buffer[]): Promise<number> => {
    await Promise.all(externals.map((m) => net.chain.sendExternal(m)));
    const mc = await net.chain.seal();
    const sealed = [mc, ...net.chain.shardTips.flatMap((t) => (t.rec && t.rec.mcSeqno === mc.mcSeqno ? [t.rec] : []))];
    for (const b of sealed) {
      count(b);
      transactions += b.transactions.length;
      for (const r of b.transactions) {
        const d = loadTransaction(r.cell.beginParse()).description;
        if (d.type !== "generic") continue;
        const failed = (d.computePhase.type === "vm" && !d.computePhase.success) || (d.actionPhase && !d.actionPhase.success);
        if (failed) {
          failedTransactions++;
          if (failures.length < 5) failures.push(`mc ${mc.id.seqno}: ${d.computePhase.type === "vm" ? `exit ${d.computePhase.exitCode}` : "skipped"}, action ${d.actionPhase?.resultCode ?? "-"}`);
        }
      }
    }
    shardBlocks += sealed.length - 1;
    return mc.id.seqno;
  };
  /** Messages from the admin, PER_EXTERNAL a block (one external per wallet and block: its seqno). */
  const fromAdmin = async (messages: Parameters<Sender["external"]>[0]) => {
    for (let i = 0; i < messages.length; i += PER_EXTERNAL) await seal([await admin.external(messages.slice(i, i + PER_EXTERNAL))]);
  };

  // --- setup: two jettons, two collections, every sender's balances and items
  const funcCode = { minter: await contractCode("jetton-minter"), wallet: await contractCode("jetton-wallet"), collection: await contractCode("nft-collection"), item: await contractCode("nft-item") };
  // the FunC compiler (emscripten) leaves process handlers that rethrow any later rejection with its
  // whole source as the message: the bench's own errors are reported as node reports them
  process.removeAllListeners("unhandledRejection");
  process.removeAllListeners("uncaughtException");
  const legacyWalletCode = fixture("jetton_wallet_legacy");
  const getgemsItemCode = fixture("nft_item");
  const legacyInit: StateInit = {
    code: fixture("jetton_minter_legacy"),
    data: beginCell().storeCoins(0).storeAddress(admin.address).storeRef(onchainContent({ name: "Bench Legacy", symbol: "BLG", decimals: "9" })).storeRef(legacyWalletCode).endCell(),
  };
  const funcInit: StateInit = { code: funcCode.minter, data: jettonMinterData({ totalSupply: 0n, admin: admin.address, content: onchainContent({ name: "Bench FunC", symbol: "BFC", decimals: "6" }), walletCode: funcCode.wallet }) };
  const getgemsInit: StateInit = {
    code: fixture("nft_collection_editable"),
    data: beginCell()
      .storeAddress(admin.address)
      .storeUint(0, 64)
      .storeRef(beginCell().storeRef(offchainContent("https://example.org/bench/getgems.json")).storeRef(snake(Buffer.from("https://example.org/bench/getgems/"))))
      .storeRef(getgemsItemCode)
      .storeRef(beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(admin.address))
      .endCell(),
  };
  const funcCollectionInit: StateInit = {
    code: funcCode.collection,
    data: nftCollectionData({ owner: admin.address, nextItemIndex: 0n, content: onchainContent({ name: "Bench FunC NFTs" }), commonContent: "https://example.org/bench/func/", itemCode: funcCode.item }),
  };
  const at = { legacy: contractAddress(0, legacyInit), func: contractAddress(0, funcInit), getgems: contractAddress(0, getgemsInit), funcCollection: contractAddress(0, funcCollectionInit) };
  await fromAdmin([legacyInit, funcInit, getgemsInit, funcCollectionInit].map((init) => ({ to: contractAddress(0, init), value: toNano("1"), body: Cell.EMPTY, init, bounce: false })));

  const SUPPLY = 10n ** 15n;
  await fromAdmin(
    senders.map((s, i) => ({
      to: at.legacy,
      value: toNano("0.1"),
      body: beginCell()
        .store(
          storeMinterJettonMint({
            queryId: BigInt(i),
            toAddress: s.address,
            tonAmount: toNano("0.05"),
            masterMsg: beginCell().store(storeJettonInternalTransfer({ queryId: BigInt(i), amount: SUPPLY, from: admin.address, responseAddress: null, forwardTonAmount: 0n, forwardPayload: emptyPayload() })).endCell(),
          }),
        )
        .endCell(),
    })),
  );
  await fromAdmin(senders.map((s, i) => ({ to: at.func, value: toNano("0.1"), body: mintBody({ to: s.address, ton: toNano("0.05"), amount: SUPPLY, queryId: BigInt(i) }) })));

  // items: index i of each collection to sender i % senders; who holds what is followed here
  const collections = [at.getgems, at.funcCollection];
  const itemAddress = [
    (i: number) => contractAddress(0, { code: getgemsItemCode, data: beginCell().storeUint(i, 64).storeAddress(at.getgems).endCell() }),
    (i: number) => contractAddress(0, { code: funcCode.item, data: beginCell().storeUint(i, 64).storeAddress(at.funcCollection).endCell() }),
  ];
  const held: Address[][][] = collections.map(() => senders.map(() => []));
  const itemCount = p.itemsPerSender * senders.length;
  for (const [c, collection] of collections.entries()) {
    const deploys = [];
    for (let i = 0; i < itemCount; i++) {
      deploys.push({ to: collection, value: toNano("0.1"), body: deployItemBody({ index: BigInt(i), ton: toNano("0.06"), owner: senders[i % senders.length]!.address, content: `${i}.json` }) });
      held[c]![i % senders.length]!.push(itemAddress[c]!(i));
    }
    await fromAdmin(deploys);
  }
  if (failedTransactions > 0) throw new Error(`the setup failed: ${failures.join("; ")}`);
  const firstTransferSeqno = net.chain.lastMasterchain!.id.seqno + 1;
  log(`  setup sealed (masterchain block ${firstTransferSeqno - 1}, ${transactions} transactions) in ${((performance.now() - t0) / 1000).toFixed(0)} s`);

  // --- transfer rounds
  const jettons = [at.legacy, at.func];
  const jettonWallet = [
    (owner: Address) => contractAddress(0, { code: legacyWalletCode, data: beginCell().storeCoins(0).storeAddress(owner).storeAddress(at.legacy).storeRef(legacyWalletCode).endCell() }),
    (owner: Address) => contractAddress(0, { code: funcCode.wallet, data: beginCell().storeCoins(0).storeAddress(owner).storeAddress(at.func).storeRef(funcCode.wallet).endCell() }),
  ];
  const walletOf = senders.map((s) => jettons.map((_, j) => jettonWallet[j]!(s.address)));
  let jettonTransfers = 0;
  let nftTransfers = 0;
  let lastLog = 0;
  for (let round = 0; jettonTransfers + nftTransfers < p.transfers; round++) {
    // items received this round are sent on from the next (in one block the later transfer could run first)
    const received: { c: number; d: number; item: Address }[] = [];
    const externals = await Promise.all(
      senders.map((s, i) => {
        const messages: Parameters<Sender["external"]>[0] = [];
        for (const j of [0, 1]) {
          const n = round * senders.length * 2 + i * 2 + j;
          // half to another sender (a wallet that sends too), half to a holder (often a new wallet)
          const to = n % 2 === 0 ? senders[(i + 1 + (round % (senders.length - 1))) % senders.length]!.address : holderAddress((n >> 1) % p.holders);
          const comment = n % 5 === 0 ? { cell: beginCell().store(storeTextComment({ text: `round ${round}, transfer ${n}` })).endCell(), inRef: true } : emptyPayload();
          messages.push({
            to: walletOf[i]![j]!,
            value: toNano("0.05"),
            body: beginCell()
              .store(storeJettonTransfer({ queryId: BigInt(n), amount: BigInt(1 + (n % 997)), destination: to, responseDestination: s.address, customPayload: null, forwardTonAmount: 0n, forwardPayload: comment }))
              .endCell(),
          });
          jettonTransfers++;
        }
        // an item this sender holds (of the collection of this round, else of the other) to another sender
        const c = held[(round + i) % 2]![i]!.length > 0 ? (round + i) % 2 : (round + i + 1) % 2;
        const item = held[c]![i]!.shift();
        if (item) {
          const d = (i + 1 + ((round * 7) % (senders.length - 1))) % senders.length;
          received.push({ c, d, item });
          messages.push({
            to: item,
            value: toNano("0.03"),
            body: beginCell().store(storeNftTransfer({ queryId: BigInt(round), newOwner: senders[d]!.address, responseDestination: null, customPayload: null, forwardAmount: 0n, forwardPayload: emptyPayload() })).endCell(),
          });
          nftTransfers++;
        }
        return s.external(messages);
      }),
    );
    for (const { c, d, item } of received) held[c]![d]!.push(item);
    const mc = await seal(externals);
    if (performance.now() - lastLog > 10_000) {
      lastLog = performance.now();
      const s = (performance.now() - t0) / 1000;
      log(`  generating: mc ${mc}, ${jettonTransfers + nftTransfers}/${p.transfers} transfers, ${transactions} transactions, ${failedTransactions} failed, ${s.toFixed(0)} s (${(transactions / s).toFixed(0)} tx/s)`);
    }
  }
  const info: TokenChainInfo = {
    ...p,
    transactions,
    mcSeqno: net.chain.lastMasterchain!.id.seqno,
    shardBlocks,
    firstTransferSeqno,
    blockTransactions: Array.from({ length: net.chain.lastMasterchain!.id.seqno + 1 }, (_, i) => blockTransactions[i] ?? 0),
    blockCounts: Array.from({ length: net.chain.lastMasterchain!.id.seqno + 1 }, (_, i) => blockCounts[i] ?? 0),
    jettonTransfers,
    nftTransfers,
    failedTransactions,
    generateSeconds: Number(((performance.now() - t0) / 1000).toFixed(1)),
    contracts: { legacyMaster: at.legacy.toRawString(), funcMaster: at.func.toRawString(), getgemsCollection: at.getgems.toRawString(), funcCollection: at.funcCollection.toRawString() },
  };
  // the emulator pool's idle processes do not hold this process open, and closing waits for them to
  // exit: with nothing else pending node would end here, before the chain is marked complete
  const keepAlive = setInterval(() => undefined, 1000);
  await net.close();
  clearInterval(keepAlive);
  if (failures.length) log(`  failed transactions: ${failures.join("; ")}`);
  writeFileSync(`${dir}/complete.json`, JSON.stringify(info, null, 2));
  return info;
}

/**
 * Serves a generated chain with `tongate localnet` in its own process (it opens the chain store:
 * no replay), writing its global config to `configPath`; resolves once it runs.
 */
export async function serveTokenChain(tongateBin: string, dir: string, p: TokenChainParams, configPath: string): Promise<ChildProcess> {
  return startProcess(
    process.execPath,
    [
      tongateBin,
      "localnet",
      ...["--seed", p.seed, "--wallets", String(p.wallets), "--block-interval", "0", "--data-dir", dir],
      ...["--listen", `127.0.0.1:${await freePort()}`, "--control", `127.0.0.1:${await freePort()}`, "--write-global-config", configPath],
    ],
    /localnet running/,
    {},
    3_600_000,
  );
}
