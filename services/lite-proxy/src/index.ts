// lite-proxy: API v2 over a pool of liteservers. The utilities need no chain;
// the chain methods read it through the pool its host supplies (the liteservers of
// a TON global config: the localnet's in `tongate start`, --global-config FILE, or
// the one bundled for --network), without one they answer 501.
import type { JsonValue } from "@bufbuild/protobuf";
import { LiteProxy } from "@tongate/proto/gen/tongate/v2/lite_proxy_pb.js";
import { defineService, optional } from "@tongate/runtime";
import { liteClientKey } from "@tongate/liteclient";
import { emulatorKey } from "@tongate/emulator";
import { chainMethods } from "./accounts.js";
import { blocksMethods } from "./blocks.js";
import { ChainReader } from "./chain.js";
import { configMethods } from "./config.js";
import { getMethodsMethods } from "./get-methods.js";
import { estimateFeeMethods } from "./estimate-fee.js";
import { tokensMethods } from "./tokens.js";
import { transactionsMethods } from "./transactions.js";
import { walletsMethods } from "./wallets.js";
import { utils } from "./utils.js";

export const liteProxyService = defineService({
  name: "lite-proxy",
  service: LiteProxy,
  // the chain's flags (--network, --global-config) are the pool's, read by the host's provision
  options: () => ({}),
  needs: { liteClient: optional(liteClientKey), emulator: emulatorKey },
  async start(ctx) {
    const pool = ctx.needs.liteClient;
    const chain = new ChainReader(pool, ctx.needs.emulator);
    if (pool) {
      pool.on("alive", (s) => ctx.log.info({ liteserver: s.address, seqno: s.lastSeqno, archival: s.archival }, "liteserver alive"));
      pool.on("dead", (s) => ctx.log.warn({ liteserver: s.address, reason: s.error }, "liteserver not alive"));
      pool.on("retry", (r) => ctx.log.debug(r, "liteserver query retried"));
      // Ready means the consensus is known (getConsensusBlock) when the first call comes.
      // The emulator's processes start while the pool finds its liteservers.
      await Promise.all([pool.started, ctx.needs.emulator.warm().catch((e: unknown) => ctx.log.warn({ err: e }, "the emulator's processes did not start"))]);
      const status = pool.status();
      ctx.log.info({ liteservers: status.liteservers.map((l) => l.address), alive: status.alive, consensus: status.consensus?.seqno }, "liteserver pool started");
    }
    return {
      // /healthz: the pool's state (toncenter PY's getWorkerState); ready while a liteserver is alive.
      health: () => {
        if (!pool) return { ok: true };
        const status = pool.status();
        const reasons = status.alive > 0 ? [] : [`liteservers: none of ${status.total} is alive (${pool.statusLine()}); API v2's chain methods answer 542`];
        return { ok: status.alive > 0, reasons, detail: { pool: status as unknown as JsonValue, line: pool.statusLine() } };
      },
      impl: {
        ...utils,
        ...chainMethods(chain),
        ...blocksMethods(chain),
        ...transactionsMethods(chain),
        ...configMethods(chain),
        ...estimateFeeMethods(chain),
        ...getMethodsMethods(chain),
        ...walletsMethods(chain),
        ...tokensMethods(chain),
      },
      // the pool is the host's: it closes it after every service that uses it
    };
  },
});
