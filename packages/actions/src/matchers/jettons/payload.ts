// A jetton transfer's forward payload as toncenter reads it: kept as a BoC, and looked into for a
// text comment, an encrypted comment or a STON.fi v1 swap.
import type { EitherCell } from "@tongate/contracts";
import { cellToBoc, commentText, loadAnyAddress, loadSnakeBytes } from "../../engine/cells.js";

export interface StonfiSwapBody {
  jettonWallet: string | null;
  minAmount: bigint;
  userAddress: string | null;
}

export interface ForwardPayload {
  /** the payload cell as a BoC (null when there is none or it is empty) */
  boc: string | null;
  /** the comment's raw bytes (text or cipher text) */
  comment: Buffer | null;
  encrypted: boolean;
  /** "0x…" of the payload's first 32 bits */
  opcode: string | null;
  stonfiSwap: StonfiSwapBody | null;
}

const NONE: ForwardPayload = { boc: null, comment: null, encrypted: false, opcode: null, stonfiSwap: null };

export function readForwardPayload(p: EitherCell | null): ForwardPayload {
  // a payload of refs only, without its Either bit, is no payload for toncenter
  if (p === null || p.bitless) return NONE;
  const s = p.cell.beginParse();
  if (s.remainingBits === 0) return NONE;
  const out: ForwardPayload = { ...NONE, boc: cellToBoc(p.cell) };
  if (s.remainingBits < 32) return out;
  const sum = s.loadUint(32) >>> 0;
  out.opcode = "0x" + sum.toString(16);
  try {
    if (sum === 0) out.comment = loadSnakeBytes(s);
    else if (sum === 0x2167da4b) {
      out.comment = loadSnakeBytes(s);
      out.encrypted = true;
    } else if (sum === 0x25938561) {
      out.stonfiSwap = { jettonWallet: loadAnyAddress(s), minAmount: s.loadCoins(), userAddress: loadAnyAddress(s) };
    }
  } catch {
    // an unreadable payload is still a payload
  }
  return out;
}

/** A comment's bytes as the action shows them: base64 cipher text, or text. */
export function commentOf(p: { comment: Buffer | null; encrypted: boolean }): string | null {
  if (p.comment === null) return null;
  return p.encrypted ? p.comment.toString("base64") : commentText(p.comment);
}
