// lite-proxy: API v2 over a pool of liteservers. The utilities need no chain;
// the chain methods read it through the pool (the liteservers of a TON global
// config: the localnet's in `tongate start`, --global-config FILE, or the one
// bundled for --network). Methods not implemented yet answer 501 (Unimplemented).
import { readdirSync, readFileSync } from "node:fs";
import type { JsonValue } from "@bufbuild/protobuf";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { ConfigError, defineService } from "@tongate/runtime";
import { chainMethods } from "./accounts.js";
import { blocksMethods } from "./blocks.js";
import { ChainReader } from "./chain.js";
import { configMethods } from "./config.js";
import { getMethodsMethods } from "./get-methods.js";
import { sendMethods } from "./send.js";
import { tokensMethods } from "./tokens.js";
import { transactionsMethods } from "./transactions.js";
import { walletsMethods } from "./wallets.js";
import { LiteserverPool } from "./pool/index.js";
import { utils } from "./utils.js";

export { LiteserverPool, int32ToIpv4 } from "./pool/index.js";
export { libraryRefs } from "./emulation.js";

/** Global configs of the public networks, `<network>.json` (copies of ton.org's). */
const BUNDLED = new URL("../global-config/", import.meta.url);

function readConfig(flag: string, file: string | URL): unknown {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new ConfigError(`${flag}: ${(e as Error).message}`);
  }
}

/** The chain's global config: given in-process (start's localnet), --global-config FILE, or --network's bundled one. */
export function globalConfigOf(options: Record<string, unknown>): unknown {
  if (options.globalConfig) return options.globalConfig;
  const path = options["global-config"];
  if (typeof path === "string" && path) return readConfig(`--global-config ${path}`, path);
  const network = options.network;
  if (typeof network !== "string" || !network) return undefined;
  const bundled = readdirSync(BUNDLED).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5));
  if (!bundled.includes(network)) {
    const localnet = network === "localnet" ? "; localnet is only run by `tongate start` (for a separate `tongate localnet`, give --global-config its --write-global-config FILE)" : "";
    throw new ConfigError(`--network ${network}: no global config bundled for it (bundled: ${bundled.join(", ")})${localnet}; --global-config FILE names any other`);
  }
  return readConfig(`--network ${network}`, new URL(`${network}.json`, BUNDLED));
}

export const liteProxyService = defineService({
  name: "lite-proxy",
  service: LiteProxy,
  async start(ctx) {
    const config = globalConfigOf(ctx.options);
    const pool = config ? LiteserverPool.fromGlobalConfig(config) : undefined;
    const chain = new ChainReader(pool);
    if (pool) {
      pool.on("alive", (s) => ctx.log.info({ liteserver: s.address, seqno: s.lastSeqno, archival: s.archival }, "liteserver alive"));
      pool.on("dead", (s) => ctx.log.warn({ liteserver: s.address, reason: s.error }, "liteserver not alive"));
      pool.on("retry", (r) => ctx.log.debug(r, "liteserver query retried"));
      // Ready means the consensus is known (getConsensusBlock) when the first call comes.
      await pool.started;
      const status = pool.status();
      ctx.log.info({ liteservers: status.liteservers.map((l) => l.address), alive: status.alive, consensus: status.consensus?.seqno }, "liteserver pool started");
    }
    return {
      // /healthz: the pool's state (toncenter PY's getWorkerState); ready while a liteserver is alive.
      health: () => (pool ? { ok: pool.status().alive > 0, detail: { pool: pool.status() as unknown as JsonValue, line: pool.statusLine() } } : { ok: true }),
      impl: {
        ...utils,
        ...chainMethods(chain),
        ...blocksMethods(chain),
        ...transactionsMethods(chain),
        ...configMethods(chain),
        ...sendMethods(chain),
        ...getMethodsMethods(chain),
        ...walletsMethods(chain),
        ...tokensMethods(chain),
      },
      close: async () => {
        await pool?.close();
      },
    };
  },
});
