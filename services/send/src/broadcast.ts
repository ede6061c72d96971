// The broadcast of an external message: to up to 5 liteservers, the first success wins, as
// toncenter's C++ API.
//
// A message the contract refuses (the liteserver's "cannot apply external message to current state
// … not accepted … exitcode=N") is answered 409 Conflict with the exit code and the liteserver's
// text, not toncenter's 500: nothing is wrong with the service, the message does not fit the
// account's current state (a replayed seqno, an expired or wrongly signed message) and the client
// has to build another.
import { LiteserverPool, LiteServerError, LiteserverProofError, PoolError, toApiError } from "@tongate/liteclient";
import { apiError } from "@tongate/runtime";

const BROADCAST_SERVERS = 5;

/** Broadcasts the message's BoC; the liteservers' refusal becomes a 409 (contract) or 422 (malformed), see above. */
export async function broadcast(pool: LiteserverPool | undefined, method: string, boc: Buffer): Promise<void> {
  if (!pool) throw apiError(501, `${method} needs a liteserver: start tongate with a localnet or --global-config`);
  try {
    await pool.broadcast({ kind: "liteServer.sendMessage", body: boc }, { maxServers: BROADCAST_SERVERS });
  } catch (e) {
    throw broadcastError(e, method);
  }
}

function broadcastError(e: unknown, method: string): Error {
  if (e instanceof LiteServerError) {
    const exit = /exitcode=(-?\d+)/.exec(e.message);
    if (exit || /not accepted/i.test(e.message)) {
      return apiError(409, `${method}: the contract did not accept the external message${exit ? ` (exit code ${exit[1]})` : ""}: ${e.message}`);
    }
    if (/cannot parse|not a valid bag of cells|not an inbound external message|does not exist/i.test(e.message)) return apiError(422, `boc: the liteserver refused the message: ${e.message}`);
    if (e.notInDb) return apiError(404, `${method}: not found on the liteserver (${e.message}); for old data try archival=true`);
    return apiError(500, `${method}: ${e.message}`);
  }
  if (e instanceof LiteserverProofError) return apiError(502, `${method}: the liteserver's answer failed proof verification: ${e.proofError.message}`);
  if (e instanceof PoolError) return toApiError(e);
  return e instanceof Error ? e : new Error(String(e));
}
