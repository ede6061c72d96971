// What emulateTrace takes: one inbound external message, within the limits validators put on one
// (config param 43), refused with the reason before anything is emulated.
import { type Cell, loadMessage, type Message } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { BocError, EXTERNAL_MESSAGE_LIMITS, readBocBase64 } from "@tongate/ton";

export function externalMessageOf(boc: string): { root: Cell; message: Message } {
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
  if (message.info.type !== "external-in") {
    throw apiError(422, `boc: an inbound external message is expected, this is ${message.info.type === "internal" ? "an internal" : "an outbound external"} message`);
  }
  return { root, message };
}
