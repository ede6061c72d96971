// Reading an interface's state: the precompiled reader (readStateByCode: the data cell through the
// storage loaders) against the get-methods run in TON's emulator (readStateByGetMethods on an
// EmulatorPool of one process, the replayed mainnet block's full config, as a decoder would run
// them). Over the fixture contracts' code and BENCH_ACCOUNTS data cells each, built with the
// storers from varied values; both paths must give the same state for every account. Prints µs per
// account and the ratio, in one run: wall time (medians: what a caller waits) and CPU time (this
// process and the emulator's, from /proc: what it costs, which a busy shared machine blurs less).
//
//   npm run bench:interface-state        (BENCH_ACCOUNTS=100, BENCH_ROUNDS=20 rounds of the precompiled path)
import { Address, beginCell, Cell, Dictionary, getMethodId, parseTuple, type Builder } from "@ton/core";
import * as C from "@tongate/contracts";
import { EmulatorPool, runGetMethod } from "@tongate/emulator";
import { installSpeedShims } from "@tongate/ton";
import { readdirSync, readFileSync } from "node:fs";
import { cpus, loadavg, totalmem } from "node:os";
import { contractCode, contractLibrary, replayBlock } from "../packages/contracts/test/fixtures.js";

// As tongate's processes run (cli/src/main.ts): native SHA-256 for @ton/core's cell hashes.
installSpeedShims();

const ACCOUNTS = Number(process.env.BENCH_ACCOUNTS ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const NOW = 1_778_681_725;

const block = replayBlock();
const config = Cell.fromBase64(block.config);
const addr = (i: number, tag: number) => new Address(0, Buffer.alloc(32, (i * 31 + tag) & 0xff).fill(tag, 0, 1));
const text = (t: string) => beginCell().storeStringTail(t).endCell();
const cell = (store: (b: Builder) => void) => beginCell().store(store).endCell();

interface Case {
  label: string;
  contract: string;
  /** The account's code as stored (a library cell for library code). */
  code: Cell;
  libs?: Cell;
  data: (i: number) => Cell;
}

const stablecoinCode = contractCode("stablecoin_wallet");
const CASES: Case[] = [
  {
    label: "jetton wallet (2022 reference)",
    contract: "jetton_wallet_legacy",
    code: contractCode("jetton_wallet_legacy"),
    data: (i) => cell(C.storeJettonWalletStorage({ balance: BigInt(i) * 10n ** 9n, ownerAddress: addr(i, 1), jettonMasterAddress: addr(0, 2), jettonWalletCode: contractCode("jetton_wallet_legacy") })),
  },
  {
    label: "jetton wallet (stablecoin, library code)",
    contract: "stablecoin_wallet",
    code: contractLibrary("stablecoin_wallet"),
    libs: beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell()).set(stablecoinCode.hash(), stablecoinCode)).endCell(),
    data: (i) => cell(C.storeJettonWalletV2Storage({ status: i % 4, balance: BigInt(i) * 1_000_000n, ownerAddress: addr(i, 3), jettonMasterAddress: addr(0, 4) })),
  },
  {
    label: "jetton master (2022 reference)",
    contract: "jetton_minter_legacy",
    code: contractCode("jetton_minter_legacy"),
    data: (i) => cell(C.storeJettonMinterStorage({ totalSupply: BigInt(i) * 10n ** 15n, adminAddress: addr(i, 5), content: text(`https://example.org/${i}.json`), jettonWalletCode: contractCode("jetton_wallet_legacy") })),
  },
  {
    label: "jetton master (Jetton 2.0)",
    contract: "jetton2_minter",
    code: contractCode("jetton2_minter"),
    data: (i) =>
      cell(
        C.storeJettonMinterV2Storage({ totalSupply: BigInt(i) * 10n ** 15n, adminAddress: addr(i, 6), nextAdminAddress: null, jettonWalletCode: contractCode("jetton2_wallet"), metadataUri: text(`https://example.org/${i}.json`) }),
      ),
  },
  {
    label: "NFT collection (getgems)",
    contract: "nft_collection_editable",
    code: contractCode("nft_collection_editable"),
    data: (i) =>
      cell(
        C.storeNftCollectionStorage({
          ownerAddress: addr(i, 7),
          nextItemIndex: BigInt(i),
          content: { collectionContent: text(`https://example.org/c${i}.json`), commonContent: text("https://example.org/items/") },
          nftItemCode: contractCode("nft_item"),
          royaltyParams: { numerator: 5, denominator: 100, destination: addr(i, 8) },
        }),
      ),
  },
  {
    label: "NFT item (getgems)",
    contract: "nft_item",
    code: contractCode("nft_item"),
    data: (i) => cell(C.storeNftItemStorage({ index: BigInt(i), collectionAddress: addr(0, 9), init: { ownerAddress: addr(i, 10), content: text(`${i}.json`) } })),
  },
  {
    label: "NFT sale (getgems v3r3)",
    contract: "nft_sale_getgems_v3r3",
    code: contractCode("nft_sale_getgems_v3r3"),
    data: (i) =>
      cell(
        C.storeGetgemsSaleV3R3Storage({
          isComplete: i % 5 === 0,
          createdAt: 1_700_000_000 + i,
          marketplaceAddress: addr(0, 11),
          nftAddress: addr(i, 12),
          nftOwnerAddress: addr(i, 13),
          fullPrice: BigInt(i + 1) * 10n ** 9n,
          fees: { marketplaceFeeAddress: addr(0, 14), marketplaceFee: BigInt(i + 1) * 5n * 10n ** 7n, royaltyAddress: addr(i, 15), royaltyAmount: BigInt(i + 1) * 10n ** 8n },
          soldAt: 0,
          queryId: BigInt(i),
        }),
      ),
  },
  {
    label: "NFT auction (getgems v4r1)",
    contract: "nft_auction_getgems_v4r1",
    code: contractCode("nft_auction_getgems_v4r1"),
    data: (i) =>
      cell(
        C.storeGetgemsAuctionV4Storage({
          end: false,
          isCanceled: false,
          lastMember: i % 2 ? addr(i, 16) : null,
          lastBid: i % 2 ? BigInt(i) * 10n ** 9n : 0n,
          lastBidAt: 1_750_000_000,
          endTime: 1_800_000_000,
          nftOwner: addr(i, 17),
          lastQueryId: BigInt(i),
          fees: { marketplaceFeeAddress: addr(0, 18), marketplaceFeeFactor: 5, marketplaceFeeBase: 100, royaltyAddress: addr(i, 19), royaltyFactor: 10, royaltyBase: 100 },
          constants: { marketplaceAddress: addr(0, 20), minBid: 10n ** 9n, maxBid: 0n, minStep: 5, stepTime: 300, nftAddress: addr(i, 21), createdAt: 1_700_000_000 },
          jetton: null,
        }),
      ),
  },
  {
    label: "telemint item (username)",
    contract: "telemint_item",
    code: contractCode("telemint_item"),
    data: (i) =>
      cell(
        C.storeTeleitemStorage({
          itemIndex: BigInt(i) * 2n ** 200n,
          collectionAddress: addr(0, 22),
          state: {
            ownerAddress: addr(i, 23),
            content: { nftContent: text(`https://nft.fragment.com/username/u${i}.json`), dns: null, tokenInfo: { name: Buffer.from(`u${i}`), domain: Buffer.from("me\0t\0") } },
            auction: null,
            royaltyParams: { numerator: 5, denominator: 100, destination: addr(0, 24) },
          },
        }),
      ),
  },
];

const emulator = new EmulatorPool({ size: 1 });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** CPU time (µs) this process has used. */
const selfCpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** CPU time (µs) the running children of this process (the emulator's) have used: /proc, Linux only. */
function childrenCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(f[1]) === process.pid) ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks * 10_000; // USER_HZ = 100
}
const known = (name: string) => C.contractByCodeHash(contractCode(name).hash().toString("base64"))!;
const plain = (x: unknown): string => JSON.stringify(x, (_, v) => (typeof v === "bigint" ? `${v}n` : v instanceof Cell ? `cell:${v.hash().toString("hex")}` : Address.isAddress(v) ? v.toRawString() : v));

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? "?"}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}; load average at start ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
console.log(`${ACCOUNTS} accounts per contract; µs per account: the precompiled path's median of ${ROUNDS} rounds, the emulator's median account (a pool of one process, the block's full config)\n`);

// Every reader warmed up before any is measured: the first contract should not pay for the JIT.
const warm = CASES.map((c) => ({ k: known(c.contract), ctx: { code: c.code, now: NOW, config }, datas: Array.from({ length: ACCOUNTS }, (_, i) => c.data(i)) }));
for (let round = 0; round < 5; round++) for (const w of warm) for (const data of w.datas) C.readStateByCode(w.k, data, w.ctx);

const rows: string[][] = [];
const total = { pre: 0, emu: 0, preCpu: 0, emuCpu: 0 };
const ratio = (slow: number, fast: number) => `${Math.round(slow / fast).toLocaleString("en")}×`;
try {
  for (const c of CASES) {
    const k = known(c.contract);
    const datas = Array.from({ length: ACCOUNTS }, (_, i) => c.data(i));
    const ctx: C.ReadStateContext = { code: c.code, now: NOW, config };

    const runs = { count: 0 };
    const run = (data: Cell): C.GetMethodRunner => async (method) => {
      runs.count++;
      const r = await runGetMethod(emulator, {
        code: c.code,
        data,
        methodId: getMethodId(method),
        stack: [],
        config: block.config,
        ...(c.libs && { libs: c.libs }),
        address: addr(1, 99),
        now: NOW,
        balance: 10n ** 9n,
        randomSeed: Buffer.alloc(32),
        gasLimit: 10_000_000n,
      });
      if (!r.success) throw new Error(`${method}: ${r.error}`);
      return r.exitCode === 0 && r.stack ? parseTuple(r.stack) : null;
    };

    // Warm-up of both paths (JIT, the emulator's process and code cache), then medians: the
    // machine is shared, and a neighbour's burst should not be one path's figure.
    const precompiled = datas.map((data) => C.readStateByCode(k, data, ctx));
    await C.readStateByGetMethods(k, run(datas[0]!));
    const perRound: number[] = [];
    const cpu0 = selfCpu();
    for (let round = 0; round < ROUNDS; round++) {
      const t0 = performance.now();
      for (const data of datas) C.readStateByCode(k, data, ctx);
      perRound.push(((performance.now() - t0) * 1000) / ACCOUNTS);
    }
    const pre = median(perRound);
    const preCpu = (selfCpu() - cpu0) / (ROUNDS * ACCOUNTS);

    runs.count = 0;
    const emulated = [];
    const perAccount: number[] = [];
    const [cpu1, child1] = [selfCpu(), childrenCpu()];
    for (const data of datas) {
      const t1 = performance.now();
      emulated.push(await C.readStateByGetMethods(k, run(data)));
      perAccount.push((performance.now() - t1) * 1000);
    }
    const emu = median(perAccount);
    const emuCpu = (selfCpu() - cpu1 + childrenCpu() - child1) / ACCOUNTS;

    for (const [i, st] of emulated.entries()) if (plain(st) !== plain(precompiled[i])) throw new Error(`${c.contract} #${i}: the two paths differ`);
    total.pre += pre;
    total.emu += emu;
    total.preCpu += preCpu;
    total.emuCpu += emuCpu;
    rows.push([c.label, String(runs.count / ACCOUNTS), pre.toFixed(1), emu.toFixed(0), ratio(emu, pre), preCpu.toFixed(1), emuCpu.toFixed(0), ratio(emuCpu, preCpu)]);
    console.log(`${c.label}: precompiled ${pre.toFixed(1)} µs (CPU ${preCpu.toFixed(1)}), emulator ${emu.toFixed(0)} µs (CPU ${emuCpu.toFixed(0)}) per account`);
  }
} finally {
  // The pool's processes are unref'd: keep the loop up until they have exited.
  const alive = setInterval(() => {}, 100);
  await emulator.close();
  clearInterval(alive);
}

const header = ["contract", "get-methods", "precompiled µs", "emulator µs", "ratio", "precompiled CPU µs", "emulator CPU µs", "CPU ratio"];
const n = CASES.length;
rows.push(["mean of the contracts", "", (total.pre / n).toFixed(1), (total.emu / n).toFixed(0), ratio(total.emu, total.pre), (total.preCpu / n).toFixed(1), (total.emuCpu / n).toFixed(0), ratio(total.emuCpu, total.preCpu)]);
console.log(`\n| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log(`\nload average at end ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
