// A liteserver's responsiveness while a benchmark loads it: getMasterchainInfo every `everyMs` on a
// connection of its own, as the lite-proxy pool's health probe asks it (a probe unanswered within 2 s
// marks the liteserver dead, and with one liteserver every call then fails with "no alive liteserver").
import { AdnlClient } from "@tongate/adnl";
import { liteApi } from "@tongate/tl";

export interface ProbeStats {
  probes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Probes slower than the pool's 2 s deadline (or failed). */
  over2s: number;
}

export interface ProbeMonitor {
  stop(): Promise<ProbeStats>;
}

const PROBE = liteApi.encode({ kind: "liteServer.query", data: liteApi.encode({ kind: "liteServer.getMasterchainInfo" }) });

/** The first liteserver of a TON global config, as host, port and public key. */
export function firstLiteserver(config: { liteservers: { ip: number; port: number; id: { key: string } }[] }): { host: string; port: number; publicKey: Buffer } {
  const ls = config.liteservers[0]!;
  const ip = ls.ip >>> 0;
  return { host: [ip >>> 24, (ip >>> 16) & 255, (ip >>> 8) & 255, ip & 255].join("."), port: ls.port, publicKey: Buffer.from(ls.id.key, "base64") };
}

export async function monitorProbes(server: { host: string; port: number; publicKey: Buffer }, everyMs = 500): Promise<ProbeMonitor> {
  const client = await AdnlClient.connect(server.host, server.port, server.publicKey);
  const lat: number[] = [];
  let failed = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        await client.query(PROBE, 30_000);
        lat.push(performance.now() - t0);
      } catch {
        failed++;
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      client.close();
      const sorted = [...lat].sort((a, b) => a - b);
      const at = (q: number) => Number((sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0).toFixed(1));
      return { probes: lat.length + failed, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Number((sorted[sorted.length - 1] ?? 0).toFixed(1)), over2s: lat.filter((l) => l > 2000).length + failed };
    },
  };
}
