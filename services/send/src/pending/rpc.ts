// tongate.send.v1.Pending: the pending traces (GetPendingTraces) and the emulation of a message
// without sending it (EmulateTrace), as API v3's pending endpoints and the Emulate API call them.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { Address } from "@ton/core";
import { EmulateTraceResponseSchema, GetPendingTracesResponseSchema, type Pending } from "@tongate/proto/gen/tongate/send/v1/pending_pb.js";
import { apiError } from "@tongate/runtime";
import { normalizedHash } from "@tongate/ton";
import { EmulationError, emulatePending, type EmulationDeps } from "./emulate.js";
import type { PendingEngine } from "./engine.js";
import { hex } from "./pending-store.js";
import { externalMessage } from "../external-message.js";

/** Filters a call may give: each list is bounded, as API v3's own lists. */
const MAX_KEYS = 1024;

function accountKey(a: string, i: number): string {
  try {
    return Address.parse(a).toRawString().toUpperCase();
  } catch {
    throw apiError(422, `accounts[${i}]: not a TON address: ${JSON.stringify(a.slice(0, 80))}`);
  }
}

function hashKeys(name: string, hashes: Uint8Array[]): string[] {
  return hashes.map((h, i) => {
    if (h.length !== 32) throw apiError(422, `${name}[${i}]: a hash is 32 bytes, this is ${h.length}`);
    return hex(h);
  });
}

export function pendingMethods(deps: EmulationDeps | undefined, engine: PendingEngine | undefined): Partial<ServiceImpl<typeof Pending>> {
  return {
    async getPendingTraces(req) {
      const total = req.accounts.length + req.extMsgHashes.length + req.traceIds.length;
      if (total === 0) throw apiError(422, "one of accounts, ext_msg_hashes or trace_ids is required");
      if (total > MAX_KEYS) throw apiError(422, `at most ${MAX_KEYS} accounts, ext_msg_hashes and trace_ids in all, ${total} given`);
      const q = { accounts: req.accounts.map(accountKey), extHashes: hashKeys("ext_msg_hashes", req.extMsgHashes), traceIds: hashKeys("trace_ids", req.traceIds) };
      const found = engine ? await engine.find(q) : [];
      return create(GetPendingTracesResponseSchema, { traces: found.map((e) => e.trace) });
    },
    async emulateTrace(req, ctx) {
      if (!deps) throw apiError(501, "emulateTrace needs a liteserver: start tongate with a localnet or --global-config");
      const m = externalMessage(req.boc);
      try {
        const { trace } = await emulatePending(deps, {
          root: m.root,
          hashNorm: normalizedHash(m.message),
          ignoreChksig: req.ignoreChksig,
          withActions: req.withActions,
          includeCodeData: req.includeCodeData,
          mcSeqno: req.mcBlockSeqno || undefined,
          signal: ctx.signal,
        });
        return create(EmulateTraceResponseSchema, { trace });
      } catch (e) {
        if (e instanceof EmulationError) throw e.toConnectError();
        throw e;
      }
    },
  };
}
