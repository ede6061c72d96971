// API v2's sendBoc and sendBocReturnHash (v3's /message calls the latter): the message checked, then
// broadcast; sendBocReturnHash answers its hash and TEP-467 normalized hash.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { SendBocResponseSchema, SendBocReturnHashResponseSchema, type Send } from "@tongate/proto/gen/tongate/v2/send_pb.js";
import type { LiteserverPool } from "@tongate/liteclient";
import { normalizedHash } from "@tongate/ton";
import { broadcast } from "./broadcast.js";
import { externalMessage, type ExternalMessage } from "./external-message.js";

/** Told of every external message accepted for broadcast, as the broadcast starts (the pending engine). */
export type OnAccepted = (m: ExternalMessage & { hashNorm: Buffer }, broadcast: Promise<void>) => void;

export function sendMethods(pool: LiteserverPool | undefined, onAccepted?: OnAccepted): Partial<ServiceImpl<typeof Send>> {
  const send = async (method: string, boc: string) => {
    const m = externalMessage(boc);
    const hashNorm = normalizedHash(m.message);
    const sent = broadcast(pool, method, m.bytes);
    onAccepted?.({ ...m, hashNorm }, sent);
    await sent;
    return { hash: m.root.hash(), hashNorm };
  };
  return {
    async sendBoc(req) {
      await send("sendBoc", req.boc);
      return create(SendBocResponseSchema, {});
    },
    async sendBocReturnHash(req) {
      return create(SendBocReturnHashResponseSchema, await send("sendBocReturnHash", req.boc));
    },
  };
}
