// The comment API v3 shows for an NFT transfer or purchase: read from the stored forward payload
// when the API renders the action (ton-index-go's ParseCommentFromPayload), not kept in the row.
import { Cell } from "@ton/core";
import { loadSnakeBytes } from "../../engine/cells.js";

const ENCRYPTED_COMMENT = 0x2167da4b;
const text = new TextDecoder("utf-8");

export interface PayloadComment {
  /** the text, or the cipher text in base64; null when the payload is not a comment */
  comment: string | null;
  /** null when there is no payload (or it is not a BoC): then the API shows neither field */
  isEncrypted: boolean | null;
}

export function payloadComment(forwardPayload: string | null | undefined): PayloadComment {
  if (forwardPayload === null || forwardPayload === undefined) return { comment: null, isEncrypted: null };
  if (forwardPayload === "") return { comment: null, isEncrypted: false };
  let cell: Cell;
  try {
    cell = Cell.fromBase64(forwardPayload);
  } catch {
    return { comment: null, isEncrypted: null };
  }
  const s = cell.beginParse();
  if (s.remainingBits < 32) return { comment: null, isEncrypted: false };
  const op = s.loadUint(32);
  if (op !== 0 && op !== ENCRYPTED_COMMENT) return { comment: null, isEncrypted: false };
  let bytes: Buffer;
  try {
    bytes = loadSnakeBytes(s);
  } catch {
    return { comment: null, isEncrypted: false };
  }
  return op === 0 ? { comment: text.decode(bytes), isEncrypted: false } : { comment: bytes.toString("base64"), isEncrypted: true };
}
