// API v2: sendBoc, sendBocReturnHash (an external message broadcast to up to 5 liteservers, the
// first success wins, as toncenter's C++ API) and estimateFee.
//
// A message the contract refuses (the liteserver's "cannot apply external message to current state
// … not accepted … exitcode=N") is answered 409 Conflict with the exit code and the liteserver's
// text, not toncenter's 500: nothing is wrong with the service, the message does not fit the
// account's current state (a replayed seqno, an expired or wrongly signed message) and the client
// has to build another. A BoC that is not an inbound external message is a 422 naming `boc`.
import { create } from "@bufbuild/protobuf";
import { beginCell, loadMessage, type Cell, type Message, type StateInit } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { EXTERNAL_MESSAGE_LIMITS } from "@tongate/ton";
import {
  EstimateFeeResponseSchema,
  FeesSchema,
  SendBocResponseSchema,
  SendBocReturnHashResponseSchema,
  type EstimateFeeRequest,
  type SendBocRequest,
  type SendBocReturnHashRequest,
} from "@tongate/proto/gen/tongate/v2/send_pb.js";
import { asApiError, type ChainReader } from "./chain.js";
import { estimateFees, type Fees } from "./fee-estimate.js";
import { LiteServerError } from "@tongate/liteclient";
import { addressParam, bocParam } from "./values.js";

const BROADCAST_SERVERS = 5;

/** The inbound external message in `boc` (within config param 43's limits), or a 422 naming the parameter. */
function externalMessage(boc: string): { root: Cell; message: Message } {
  const root = bocParam("boc", boc, EXTERNAL_MESSAGE_LIMITS);
  let message: Message;
  try {
    message = loadMessage(root.beginParse());
  } catch (e) {
    throw apiError(422, `boc: the cell is not a message: ${(e as Error).message}`);
  }
  if (message.info.type !== "external-in") throw apiError(422, `boc: an inbound external message is expected, this is ${message.info.type === "internal" ? "an internal" : "an outbound external"} message`);
  return { root, message };
}

/**
 * TEP-467's normalized hash of an inbound external message: the hash of the same message with no
 * source, no import fee, no StateInit and the body in a reference, so re-serializations and the
 * fields a sender may vary do not change it.
 */
export function normalizedHash(message: Message): Buffer {
  if (message.info.type !== "external-in") throw new TypeError("not an inbound external message");
  return beginCell()
    .storeUint(0b10, 2) // ext_in_msg_info$10
    .storeUint(0, 2) // src: addr_none$00
    .storeAddress(message.info.dest)
    .storeCoins(0) // import_fee
    .storeBit(0) // init: nothing
    .storeBit(1) // body: in a reference
    .storeRef(message.body)
    .endCell()
    .hash();
}

/** Broadcasts the message; the liteservers' refusal becomes a 409 (contract) or 422 (malformed), see above. */
async function broadcast(chain: ChainReader, method: string, boc: Buffer): Promise<void> {
  const pool = chain.liteservers;
  if (!pool) throw apiError(501, `${method} needs a liteserver: start tongate with a localnet or --global-config`);
  try {
    await pool.broadcast({ kind: "liteServer.sendMessage", body: boc }, { maxServers: BROADCAST_SERVERS });
  } catch (e) {
    if (e instanceof LiteServerError) {
      const exit = /exitcode=(-?\d+)/.exec(e.message);
      if (exit || /not accepted/i.test(e.message)) {
        throw apiError(409, `${method}: the contract did not accept the external message${exit ? ` (exit code ${exit[1]})` : ""}: ${e.message}`);
      }
      if (/cannot parse|not a valid bag of cells|not an inbound external message|does not exist/i.test(e.message)) throw apiError(422, `boc: the liteserver refused the message: ${e.message}`);
    }
    throw asApiError(e, method);
  }
}

const feesMessage = (f: Fees) => create(FeesSchema, { inFwdFee: Number(f.inFwdFee), storageFee: Number(f.storageFee), gasFee: Number(f.gasFee), fwdFee: Number(f.fwdFee) });

export function sendMethods(chain: ChainReader) {
  return {
    async sendBoc(req: SendBocRequest) {
      externalMessage(req.boc);
      await broadcast(chain, "sendBoc", Buffer.from(req.boc, "base64"));
      return create(SendBocResponseSchema, {});
    },
    async sendBocReturnHash(req: SendBocReturnHashRequest) {
      const { root, message } = externalMessage(req.boc);
      await broadcast(chain, "sendBocReturnHash", Buffer.from(req.boc, "base64"));
      return create(SendBocReturnHashResponseSchema, { hash: root.hash(), hashNorm: normalizedHash(message) });
    },
    async estimateFee(req: EstimateFeeRequest) {
      const address = addressParam("address", req.address);
      const body = bocParam("body", req.body, EXTERNAL_MESSAGE_LIMITS);
      const code = bocParam("init_code", req.initCode, EXTERNAL_MESSAGE_LIMITS, true);
      const data = bocParam("init_data", req.initData, EXTERNAL_MESSAGE_LIMITS, true);
      const init: StateInit | undefined = code || data ? { code, data } : undefined;
      const r = await estimateFees(chain, "estimateFee", { address, body, init, ignoreChksig: req.ignoreChksig ?? true });
      return create(EstimateFeeResponseSchema, { sourceFees: feesMessage(r.source), destinationFees: r.destinations.map(feesMessage) });
    },
  };
}
