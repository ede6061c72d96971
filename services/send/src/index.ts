// send: external messages broadcast to the chain's liteservers (API v2's sendBoc and
// sendBocReturnHash, v3's /message through them). Without a chain the methods answer 501.
import { Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { liteClientKey } from "@tongate/liteclient";
import { defineModule, implement, optional } from "@tongate/runtime";
import { sendMethods } from "./send.js";

export const sendService = defineModule({
  name: "send",
  services: [Send],
  // the chain's flags (--network, --global-config) are the pool's, read by the host's provision
  options: () => ({}),
  needs: { liteClient: optional(liteClientKey) },
  async start(ctx) {
    const pool = ctx.needs.liteClient;
    // the first send finds the consensus known (the pool is the host's, shared with lite-proxy)
    if (pool) await pool.started;
    return {
      impls: [implement(Send, sendMethods(pool))],
      health: () => {
        if (!pool) return { ok: true };
        const status = pool.status();
        const reasons = status.alive > 0 ? [] : [`send: none of ${status.total} liteservers is alive; sendBoc cannot broadcast`];
        return { ok: status.alive > 0, reasons };
      },
    };
  },
});
