// The `boc` of sendBoc and sendBocReturnHash: one inbound external message, within config param 43's
// limits. Anything else is a 422 naming the parameter, before a liteserver is asked.
import { loadMessage, type Address, type Cell, type Message } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { BocError, EXTERNAL_MESSAGE_LIMITS, readBocBase64 } from "@tongate/ton";

export interface ExternalMessage {
  /** The message's root cell: its hash is the message hash. */
  root: Cell;
  message: Message;
  /** The account it is sent to. */
  dest: Address;
  /** The BoC as the client sent it, broadcast unchanged. */
  bytes: Buffer;
}

/** The inbound external message in `boc`, or a 422 naming the parameter. */
export function externalMessage(boc: string): ExternalMessage {
  if (!boc) throw apiError(422, "boc: must be a base64 BoC");
  let root: Cell;
  try {
    root = readBocBase64(boc, EXTERNAL_MESSAGE_LIMITS)[0]!;
  } catch (e) {
    if (e instanceof BocError) throw apiError(422, `boc: ${e.message}`);
    throw e;
  }
  let message: Message;
  try {
    message = loadMessage(root.beginParse());
  } catch (e) {
    throw apiError(422, `boc: the cell is not a message: ${(e as Error).message}`);
  }
  if (message.info.type !== "external-in") throw apiError(422, `boc: an inbound external message is expected, this is ${message.info.type === "internal" ? "an internal" : "an outbound external"} message`);
  return { root, message, dest: message.info.dest, bytes: Buffer.from(boc, "base64") };
}
