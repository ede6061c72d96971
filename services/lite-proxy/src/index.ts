// lite-proxy: API v2 over a pool of liteservers. The utilities need no chain;
// the chain methods read it through the pool (the liteservers of a TON global
// config: the localnet's in `tongate start`, or --global-config FILE). Methods
// not implemented yet answer 501 (Unimplemented).
import { readFileSync } from "node:fs";
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

export { LiteserverPool } from "./pool/index.js";

function globalConfigOf(options: Record<string, unknown>): unknown {
  if (options.globalConfig) return options.globalConfig;
  const path = options["global-config"];
  if (typeof path !== "string" || !path) return undefined;
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new ConfigError(`--global-config ${path}: ${(e as Error).message}`);
  }
}

export const liteProxyService = defineService({
  name: "lite-proxy",
  service: LiteProxy,
  start(ctx) {
    const config = globalConfigOf(ctx.options);
    const pool = config ? LiteserverPool.fromGlobalConfig(config) : undefined;
    const chain = new ChainReader(pool);
    if (pool) {
      ctx.log.info({ liteservers: pool.status().liteservers.map((l) => l.address) }, "liteserver pool started");
      pool.on("alive", (s) => ctx.log.info({ liteserver: s.address, seqno: s.lastSeqno, archival: s.archival }, "liteserver alive"));
      pool.on("dead", (s) => ctx.log.warn({ liteserver: s.address, reason: s.error }, "liteserver not alive"));
      pool.on("retry", (r) => ctx.log.debug(r, "liteserver query retried"));
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
