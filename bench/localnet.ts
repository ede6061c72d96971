// Benchmark (issue 3): localnet.
//  1. Sealed transactions per second for wallet-to-wallet transfers among 100 wallets
//     (send → seal → blocks built, states stored), next to the bare Executor rate on the
//     same transfers in the same run (the ceiling).
//  2. Liteserver requests per second and p99 for getMasterchainInfo and getAccountState
//     at 32 concurrent queries over ADNL TCP (client and server share this process, so the
//     figure is conservative: one process does both sides' crypto).
//   npm run bench:localnet   (BENCH_TRANSFERS=400, BENCH_SECONDS=5)
import os from "node:os";
import { beginCell, external, internal, loadMessage, storeMessage, toNano, type Cell } from "@ton/core";
import { WalletContractV4 } from "@ton/ton";
import { AdnlClient } from "@tongate/adnl";
import { liteApi } from "@tongate/tl";
import { buildShardState, createGenesis, localnetProofs, Localnet, shardAccountCell, TransactionExecutor } from "@tongate/localnet";
import { installFastSha256 } from "@tongate/ton";

installFastSha256(); // as `tongate` does at startup

const transfers = Number(process.env.BENCH_TRANSFERS ?? 400);
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const WALLETS = 100;

function transferMessages(genesis: ReturnType<typeof createGenesis>, round: number): Cell[] {
  const v4 = genesis.wallets.filter((w) => w.version === "v4r2");
  return v4.map((w, i) => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: w.keyPair.publicKey });
    const to = v4[(i + 1) % v4.length]!.address;
    const body = wallet.createTransfer({ seqno: round, secretKey: w.keyPair.secretKey, messages: [internal({ to, value: toNano("0.01"), bounce: false })] });
    return beginCell().store(storeMessage(external({ to: wallet.address, body }))).endCell();
  });
}

// 1a. Bare executor: each transfer = the wallet's transaction + the recipient's.
const genesis = createGenesis({ seed: "bench", wallets: WALLETS, now: Math.floor(Date.now() / 1000) });
const executor = await TransactionExecutor.create(genesis.config);
const states = new Map<string, Cell>();
for (const [id, sa] of genesis.accounts) states.set(id, shardAccountCell(sa));
let bareTx = 0;
const rounds = Math.max(1, Math.ceil(transfers / WALLETS));
// Signed messages are made up front: signing is the client's work, not the chain's.
const batches = Array.from({ length: rounds }, (_, r) => transferMessages(genesis, r));
const cpuMs = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1000;
};
let t0 = performance.now();
let cpu0 = process.cpuUsage();
for (const batch of batches) {
  for (const msg of batch) {
    const info = loadMessage(msg.beginParse()).info;
    if (info.type !== "external-in") continue;
    const res = await executor.run(info.dest, states.get(info.dest.hash.toString("hex")), msg, { now: genesis.now, lt: BigInt(bareTx + 1) * 1_000_000n, randomSeed: Buffer.alloc(32) });
    if ("rejected" in res) throw new Error(res.rejected);
    states.set(info.dest.hash.toString("hex"), res.shardAccountCell);
    bareTx++;
    for (const out of res.transaction.outMessages.values()) {
      if (out.info.type !== "internal") continue;
      const dest = out.info.dest;
      const cell = beginCell().store(storeMessage(out)).endCell();
      const r2 = await executor.run(dest, states.get(dest.hash.toString("hex")), cell, { now: genesis.now, lt: BigInt(bareTx + 1) * 1_000_000n, randomSeed: Buffer.alloc(32) });
      if ("rejected" in r2) throw new Error(r2.rejected);
      states.set(dest.hash.toString("hex"), r2.shardAccountCell);
      bareTx++;
    }
  }
}
const bareSeconds = (performance.now() - t0) / 1000;
const bareCpuMs = cpuMs(cpu0);

// 1b. The same transfers through localnet: sendMessage checks each, seal executes and builds blocks.
const net = await Localnet.start({ seed: "bench", wallets: WALLETS, listen: [{ host: "127.0.0.1", port: 0 }], buildState: buildShardState, proofs: localnetProofs, now: genesis.now });
const shardBefore = net.chain.shardchain.length;
const phases: { checkMs: number; sealMs: number }[] = [];
t0 = performance.now();
cpu0 = process.cpuUsage();
for (const batch of batches) {
  // Clients send concurrently; localnet checks them on worker emulators.
  const s0 = performance.now();
  await Promise.all(batch.map((msg) => net.chain.sendExternal(msg.toBoc())));
  const s1 = performance.now();
  await net.chain.seal();
  phases.push({ checkMs: Math.round(s1 - s0), sealMs: Math.round(performance.now() - s1) });
}
await net.chain.seal(); // deliver anything left
const sealSeconds = (performance.now() - t0) / 1000;
const sealCpuMs = cpuMs(cpu0);
// Counted before close: the chain's (temporary) store is removed by it.
const sealedBlocks = net.chain.shardchain.slice(shardBefore);
const sealedTx = sealedBlocks.reduce((n, b) => n + b.transactions.length, 0);

// 2. Liteserver under 32 concurrent queries.
const ls = net.liteservers[0]!;
const clients = await Promise.all([0, 1, 2, 3].map(() => AdnlClient.connect(ls.host, ls.port, ls.publicKey)));
const last = net.chain.lastMasterchain!;
const id = { kind: "tonNode.blockIdExt", workchain: -1, shard: -(2n ** 63n), seqno: last.id.seqno, root_hash: last.id.rootHash, file_hash: last.id.fileHash };
const queries = {
  getMasterchainInfo: liteApi.encode({ kind: "liteServer.query", data: liteApi.encode({ kind: "liteServer.getMasterchainInfo" }) }),
  getAccountState: liteApi.encode({
    kind: "liteServer.query",
    data: liteApi.encode({ kind: "liteServer.getAccountState", id, account: { kind: "liteServer.accountId", workchain: 0, id: genesis.wallets[0]!.address.hash } }),
  }),
};
const lite: Record<string, { rps: number; p50: number; p99: number }> = {};
for (const [name, q] of Object.entries(queries)) {
  const lat: number[] = [];
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: 32 }, async (_, i) => {
      const c = clients[i % clients.length]!;
      while (performance.now() < end) {
        const s = performance.now();
        const a = liteApi.decode(await c.query(q));
        if (a.kind === "liteServer.error") throw new Error(String(a.message));
        lat.push(performance.now() - s);
      }
    }),
  );
  lat.sort((a, b) => a - b);
  lite[name] = { rps: Math.round(lat.length / seconds), p50: Number(lat[Math.floor(lat.length * 0.5)]!.toFixed(2)), p99: Number(lat[Math.floor(lat.length * 0.99)]!.toFixed(2)) };
}
for (const c of clients) c.close();
await net.close();

const bareRate = bareTx / bareSeconds;
const sealedRate = sealedTx / sealSeconds;
console.log(
  JSON.stringify(
    {
      benchmark: "localnet: sealed transfers vs bare executor; liteserver at 32 concurrent queries",
      machine: `${os.cpus().length} × ${os.cpus()[0]?.model ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, node ${process.version}`,
      date: new Date().toISOString(),
      wallets: WALLETS,
      transfers: rounds * WALLETS,
      bare: { transactions: bareTx, seconds: Number(bareSeconds.toFixed(2)), txPerSecond: Math.round(bareRate), cpuMsPerTx: Number((bareCpuMs / bareTx).toFixed(2)) },
      sealed: { transactions: sealedTx, seconds: Number(sealSeconds.toFixed(2)), txPerSecond: Math.round(sealedRate), cpuMsPerTx: Number((sealCpuMs / sealedTx).toFixed(2)), blocks: sealedBlocks.length, phases },
      ratio: Number((sealedRate / bareRate).toFixed(3)),
      liteserver: lite,
      targets: { sealedTxPerSecond: ">= 200", ratio: ">= 0.5", getMasterchainInfoPerSecond: ">= 5000" },
    },
    null,
    2,
  ),
);
