// Restart (issue 13): a localnet --data-dir holding ≥ 20,000 masterchain blocks is started again as
// `tongate localnet`; measured: the time from the process's start to its first answer to
// liteServer.getMasterchainInfo over ADNL, and that the head and a sample of blocks have the same
// ids as before the stop.
//   npm run bench:localnet-restart      (RESTART_BLOCKS=20000; the chain is kept in bench/.cache)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AdnlClient } from "@tongate/adnl";
import { buildShardState, localnetProofs, Localnet } from "@tongate/localnet";
import { liteApi, type TlObject } from "@tongate/tl";
import { installSpeedShims } from "@tongate/ton";

installSpeedShims();
const BLOCKS = Number(process.env.RESTART_BLOCKS ?? 20_000);
const BIN = fileURLToPath(new URL("../cli/bin/tongate.js", import.meta.url));
const dir = fileURLToPath(new URL(`./.cache/localnet-restart-${BLOCKS}`, import.meta.url));
const idsFile = join(dir, "ids.json");
const SEED = "restart";
const hex = (b: Buffer) => b.toString("hex");

type Ids = Record<string, { root: string; file: string }>;

// 1. The chain: generated once, its block ids recorded (head, every 1,000th block, the last 100).
if (!existsSync(idsFile)) {
  mkdirSync(dir, { recursive: true });
  const net = await Localnet.start({ seed: SEED, wallets: 4, listen: [], buildState: buildShardState, proofs: localnetProofs, dataDir: dir, emulator: { size: 1 } });
  const t0 = performance.now();
  while (net.chain.lastMasterchain!.id.seqno < BLOCKS) {
    await net.chain.seal();
    const s = net.chain.lastMasterchain!.id.seqno;
    if (s % 2000 === 0) console.log(`generated ${s} blocks (${((s / (performance.now() - t0)) * 1000).toFixed(0)} blocks/s)`);
  }
  const ids: Ids = {};
  const head = net.chain.lastMasterchain!.id.seqno;
  for (let s = 1; s <= head; s++) {
    if (s % 1000 !== 0 && s <= head - 100) continue;
    const b = net.chain.mcBlock(s)!;
    ids[s] = { root: hex(b.id.rootHash), file: hex(b.id.fileHash) };
  }
  await net.close();
  writeFileSync(idsFile, JSON.stringify({ head, ids }));
}
const recorded = JSON.parse(readFileSync(idsFile, "utf8")) as { head: number; ids: Ids };

// 2. The restart, as a user runs it.
const configFile = join(dir, "global-config.json");
const port = 30_000 + Math.floor(Math.random() * 5000);
const started = performance.now();
const child = spawn(process.execPath, [BIN, "localnet", "--data-dir", dir, "--seed", SEED, "--wallets", "4", "--block-interval", "0", "--listen", `127.0.0.1:${port}`, "--control", "127.0.0.1:0", "--write-global-config", configFile], { stdio: ["ignore", "ignore", "inherit"] });
const query = (c: AdnlClient, q: TlObject) => c.query(liteApi.encode({ kind: "liteServer.query", data: liteApi.encode(q) })).then((a) => liteApi.decode(a));
let info: TlObject | undefined;
let client: AdnlClient | undefined;
while (!info && performance.now() - started < 120_000) {
  try {
    if (existsSync(configFile) && !client) {
      const key = Buffer.from((JSON.parse(readFileSync(configFile, "utf8")) as { liteservers: { id: { key: string } }[] }).liteservers[0]!.id.key, "base64");
      client = await AdnlClient.connect("127.0.0.1", port, key);
    }
    if (client) info = await query(client, { kind: "liteServer.getMasterchainInfo" });
  } catch {
    client = undefined; // not listening yet
  }
  if (!info) await new Promise((r) => setTimeout(r, 20));
}
const seconds = (performance.now() - started) / 1000;
if (!info || !client) throw new Error("the restarted localnet never answered getMasterchainInfo");
const last = info.last as { seqno: number; root_hash: Buffer; file_hash: Buffer };

// 3. Same head, same blocks.
let same = 0;
const differ: string[] = [];
for (const [s, id] of Object.entries(recorded.ids)) {
  const a = await query(client, { kind: "liteServer.lookupBlock", mode: 1, id: { kind: "tonNode.blockId", workchain: -1, shard: -(2n ** 63n), seqno: Number(s) } });
  const got = a.id as { root_hash: Buffer; file_hash: Buffer };
  if (hex(got.root_hash) === id.root && hex(got.file_hash) === id.file) same++;
  else differ.push(s);
}
client.close();
child.kill("SIGTERM");
const headSame = last.seqno === recorded.head && hex(last.root_hash) === recorded.ids[recorded.head]!.root && hex(last.file_hash) === recorded.ids[recorded.head]!.file;
const result = {
  benchmark: "localnet: restart from --data-dir",
  machine: `${cpus().length} × ${cpus()[0]?.model ?? "?"}`,
  date: new Date().toISOString(),
  blocks: recorded.head,
  secondsToGetMasterchainInfo: Number(seconds.toFixed(2)),
  headSame,
  sampledBlocksSame: `${same}/${Object.keys(recorded.ids).length}`,
  pass: headSame && differ.length === 0 && seconds <= 5,
};
console.log(JSON.stringify(result, null, 2));
if (!result.pass) process.exitCode = 1;
