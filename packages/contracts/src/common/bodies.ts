// Bodies every standard uses (toncenter's "known" schemes): text comments, excesses, top-ups.
import type { Builder, Slice } from "@ton/core";
import { ContractDataError } from "../errors.js";
import { loadOpcode, loadQueryIdOnly, loadSnakeBytes, storeQueryIdOnly, storeSnakeBytes } from "../tlb.js";

export const COMMON_OPCODES = {
  text_comment: 0x00000000,
  encrypted_text_comment: 0x2167da4b,
  excess: 0xd53276db,
  top_up: 0xd372158c,
} as const;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** text_comment#00000000 text:SnakeString. */
export interface TextComment {
  text: string;
}

/** Throws when the text is not snake data or not UTF-8. */
export function loadTextComment(s: Slice): TextComment {
  loadOpcode(s, COMMON_OPCODES.text_comment, "text_comment");
  try {
    return { text: utf8.decode(loadSnakeBytes(s)) };
  } catch (e) {
    throw e instanceof ContractDataError ? e : new ContractDataError("text_comment: the text is not UTF-8");
  }
}

export function storeTextComment(src: TextComment): (b: Builder) => void {
  return (b) => b.storeUint(COMMON_OPCODES.text_comment, 32).store(storeSnakeBytes(Buffer.from(src.text, "utf8")));
}

/** encrypted_text_comment#2167da4b cipher_text:Bytes (snake data). */
export interface EncryptedTextComment {
  cipherText: Buffer;
}

export function loadEncryptedTextComment(s: Slice): EncryptedTextComment {
  loadOpcode(s, COMMON_OPCODES.encrypted_text_comment, "encrypted_text_comment");
  return { cipherText: loadSnakeBytes(s) };
}

export function storeEncryptedTextComment(src: EncryptedTextComment): (b: Builder) => void {
  return (b) => b.storeUint(COMMON_OPCODES.encrypted_text_comment, 32).store(storeSnakeBytes(src.cipherText));
}

/** excess#d53276db query_id:uint64: what is left of the TON of an operation, returned (TEP-74 "excesses"). */
export interface Excess {
  queryId: bigint;
}

export const loadExcess = (s: Slice): Excess => ({ queryId: loadQueryIdOnly(s, COMMON_OPCODES.excess, "excess") });
export const storeExcess = (src: Excess) => storeQueryIdOnly(COMMON_OPCODES.excess, src.queryId);

/** top_up#d372158c query_id:uint64: TON for a contract's balance (Jetton 2.0 minters, stablecoin). */
export interface TopUp {
  queryId: bigint;
}

export const loadTopUp = (s: Slice): TopUp => ({ queryId: loadQueryIdOnly(s, COMMON_OPCODES.top_up, "top_up") });
export const storeTopUp = (src: TopUp) => storeQueryIdOnly(COMMON_OPCODES.top_up, src.queryId);
