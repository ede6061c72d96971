// A running localnet: the chain, sealed on a timer, served as liteservers over
// ADNL TCP (one key per listening port), with the TON global config that points
// any TON client at it.
import { AdnlServer } from "@tongate/adnl";
import { Chain } from "./chain/chain.js";
import type { ShardStateBuilder } from "./chain/state.js";
import { TransactionExecutor } from "./executor.js";
import { createGenesis, type Genesis, type GenesisOptions } from "./genesis.js";
import { deriveBytes } from "./keys.js";
import { createLiteDispatcher } from "./liteserver/dispatch.js";
import { createHandlers, type ProofMaker } from "./liteserver/handlers.js";

export interface LocalnetOptions extends GenesisOptions {
  /** Liteserver addresses; each gets its own key. */
  listen: { host: string; port: number }[];
  /** Seal a block every this many ms (0: only on demand). */
  blockIntervalMs?: number;
  buildState: ShardStateBuilder;
  proofs: ProofMaker;
  clock?: () => number;
}

export interface LiteserverEndpoint {
  host: string;
  port: number;
  publicKey: Buffer;
}

export class Localnet {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    readonly genesis: Genesis,
    readonly chain: Chain,
    private readonly servers: AdnlServer[],
    readonly liteservers: LiteserverEndpoint[],
  ) {}

  static async start(o: LocalnetOptions): Promise<Localnet> {
    const genesis = createGenesis(o);
    const executor = await TransactionExecutor.create(genesis.config);
    const chain = new Chain({ genesis, executor, buildState: o.buildState, clock: o.clock });
    await chain.seal();
    const clock = o.clock ?? (() => Math.floor(Date.now() / 1000));
    const handler = createLiteDispatcher({
      handlers: createHandlers(chain, o.proofs, clock),
      waitMasterchainSeqno: (seqno, timeoutMs) => chain.waitMasterchainSeqno(seqno, timeoutMs),
    });
    const servers: AdnlServer[] = [];
    const endpoints: LiteserverEndpoint[] = [];
    for (const [i, l] of o.listen.entries()) {
      const server = new AdnlServer({ seed: deriveBytes(o.seed, `liteserver/${i}`), handler });
      const addr = await server.listen(l.port, l.host);
      servers.push(server);
      endpoints.push({ host: l.host, port: addr.port, publicKey: server.publicKey });
    }
    const net = new Localnet(genesis, chain, servers, endpoints);
    if (o.blockIntervalMs) net.timer = setInterval(() => void chain.seal(), o.blockIntervalMs);
    return net;
  }

  /** A TON global config whose liteservers are this localnet's. */
  globalConfig(): object {
    return {
      "@type": "config.global",
      liteservers: this.liteservers.map((l) => ({
        ip: ipv4ToInt32(l.host === "0.0.0.0" ? "127.0.0.1" : l.host),
        port: l.port,
        id: { "@type": "pub.ed25519", key: l.publicKey.toString("base64") },
      })),
      validator: {
        "@type": "validator.config.global",
        zero_state: {
          workchain: -1,
          shard: -9223372036854775808,
          seqno: 0,
          root_hash: this.chain.mcZero.rootHash.toString("base64"),
          file_hash: this.chain.mcZero.fileHash.toString("base64"),
        },
        init_block: {
          workchain: -1,
          shard: -9223372036854775808,
          seqno: 0,
          root_hash: this.chain.mcZero.rootHash.toString("base64"),
          file_hash: this.chain.mcZero.fileHash.toString("base64"),
        },
        hardforks: [],
      },
    };
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await Promise.all(this.servers.map((s) => s.close({ graceMs: 1000 })));
  }
}

/** A TON global config writes IPv4 addresses as signed 32-bit integers. */
export function ipv4ToInt32(ip: string): number {
  const parts = ip.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`"${ip}" is not an IPv4 address`);
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) | 0;
}
